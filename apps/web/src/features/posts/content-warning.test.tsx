import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, makePost, renderApp, sessionKnown } from '../../test/fake-trpc';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

const image = {
  url: '/objects/uploads/00000001-0000-4000-8000-000000000000',
  thumbUrl: '/objects/uploads/00000001-0000-4000-8000-000000000000/thumb',
  width: 800,
  height: 600,
  alt: 'A cube inside a cube',
  sensitive: true,
};

function warned(id: string) {
  return makePost({
    id,
    content: 'The hidden words',
    contentWarning: 'Finale spoilers',
    images: [image],
    imageUrl: image.url,
  });
}

const off = { alwaysShowContentWarnings: false, alwaysShowSensitiveMedia: false };
const on = { alwaysShowContentWarnings: true, alwaysShowSensitiveMedia: true };

function serve(post: ReturnType<typeof makePost>, preferences: typeof off | null) {
  fakeTrpc({
    'auth.session': { data: preferences ? { user: alice, isModerator: false, preferences } : null },
    'posts.feed': { data: { items: [post], nextCursor: null } },
  });
}

describe('a post behind a content warning', () => {
  it('shows only the warning and Show; Show unfolds the text and a blurred image, Hide folds again', async () => {
    serve(warned('9a1b0c8e-0000-4000-8000-0000000000c1'), off);
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    expect(card.textContent).toContain('Finale spoilers');
    expect(card.textContent).not.toContain('The hidden words');
    expect(within(card).queryByTestId('post-images')).toBeNull();
    const show = within(card).getByRole('button', { name: 'Show' });
    expect(show.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(show);
    // Waited for, not read at once: in one CI run on a loaded machine the card still showed Show
    // right after the click (it follows an external store, shown-warnings.ts).
    const hide = await within(card).findByRole('button', { name: 'Hide' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    expect(card.textContent).toContain('The hidden words');
    // The sensitive image: blurred, its description not given yet, no ALT button.
    const cover = within(card).getByRole('button', { name: 'Sensitive content, show image 1' });
    expect(cover.querySelector('img')?.className).toContain('blur');
    expect(cover.querySelector('img')?.getAttribute('alt')).toBe('');
    expect(within(card).queryByRole('button', { name: /^ALT/ })).toBeNull();

    fireEvent.click(cover);
    expect(within(card).getByRole('img', { name: 'A cube inside a cube' }).className).not.toContain('blur');
    expect(within(card).getByRole('button', { name: 'View full image' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: /^ALT/ })).toBeTruthy();

    fireEvent.click(hide);
    expect(card.textContent).not.toContain('The hidden words');
  });

  it('remembers Show for the session: a new page of the same post opens unfolded', async () => {
    const id = '9a1b0c8e-0000-4000-8000-0000000000c2';
    serve(warned(id), null);
    renderApp('/');
    await sessionKnown();
    let card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: 'Show' }));
    expect(sessionStorage.getItem('cubes.shownWarnings')).toContain(id);
    cleanup();

    serve(warned(id), null);
    renderApp('/');
    await sessionKnown();
    card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    expect(within(card).getByRole('button', { name: 'Hide' })).toBeTruthy();
    expect(card.textContent).toContain('The hidden words');
    // Another post with a warning is still folded.
    cleanup();
    serve(warned('9a1b0c8e-0000-4000-8000-0000000000c3'), null);
    renderApp('/');
    await sessionKnown();
    card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    expect(within(card).getByRole('button', { name: 'Show' })).toBeTruthy();
  });

  it('with both settings on shows everything at once, the warning a line above the text', async () => {
    serve(warned('9a1b0c8e-0000-4000-8000-0000000000c4'), on);
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    await within(card).findByText('The hidden words');
    expect(card.textContent).toContain('Finale spoilers');
    expect(within(card).queryByRole('button', { name: 'Show' })).toBeNull();
    const img = within(card).getByRole('img', { name: 'A cube inside a cube' });
    expect(img.className).not.toContain('blur');
  });

  it('blurs a sensitive image of a post without a warning until pressed', async () => {
    serve(
      makePost({ id: '9a1b0c8e-0000-4000-8000-0000000000c5', content: 'open text', images: [image] }),
      off,
    );
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    expect(card.textContent).toContain('open text');
    const cover = within(card).getByRole('button', { name: 'Sensitive content, show image 1' });
    expect(cover.textContent).toContain('Sensitive content');
    fireEvent.click(cover);
    expect(within(card).getByRole('img', { name: 'A cube inside a cube' })).toBeTruthy();
  });
});

describe('the Edit dialog', () => {
  it('changes the warning and the sensitive flags, and the card follows', async () => {
    const own = makePost({
      id: '9a1b0c8e-0000-4000-8000-0000000000c6',
      userId: alice.id,
      username: 'alice',
      userDisplayName: 'Alice Cube',
      content: 'My own post',
      contentWarning: 'Old warning',
      images: [image],
      imageUrl: image.url,
      createdAt: new Date().toISOString(),
    });
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false, preferences: off } },
      'posts.feed': { data: { items: [own], nextCursor: null } },
      'posts.edit': (input) => ({
        data: {
          post: {
            ...own,
            contentWarning: input.contentWarning?.trim() || null,
            images: own.images.map((img, i) => ({
              ...img,
              sensitive: input.sensitive?.[i] ?? img.sensitive,
            })),
          },
        },
      }),
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Alice Cube' });
    fireEvent.keyDown(within(card).getByRole('button', { name: 'Post actions' }), { key: 'Enter' });
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    const field = within(dialog).getByRole('textbox', { name: 'Content warning' }) as HTMLInputElement;
    expect(field.value).toBe('Old warning');
    const box = within(dialog).getByRole('checkbox', { name: /Mark as sensitive/ }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.click(box);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit post' })).toBeNull());
    expect(server.called('posts.edit').map((c) => c.input)).toEqual([
      { postId: own.id, content: 'My own post', sensitive: [false], contentWarning: null },
    ]);
    expect(within(card).queryByRole('button', { name: 'Show' })).toBeNull();
    expect(card.textContent).toContain('My own post');
  });
});
