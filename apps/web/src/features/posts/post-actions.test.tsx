import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import superjson from 'superjson';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveSubscriptions } from '../../test/fake-socket';
import { alice, bob, fakeTrpc, makePost, renderApp, serverError, sessionKnown } from '../../test/fake-trpc';
import { FEED_SCOPE_COOKIE, rememberScope } from './feed-scope';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const mine = (overrides: Parameters<typeof makePost>[0] = {}) =>
  makePost({
    id: '9a1b0c8e-0000-4000-8000-0000000000a1',
    userId: alice.id,
    username: 'alice',
    userDisplayName: 'Alice Cube',
    content: 'My own post',
    ...overrides,
  });

function openMenu(card: HTMLElement) {
  fireEvent.keyDown(within(card).getByRole('button', { name: 'Post actions' }), { key: 'Enter' });
}

describe('your own post', () => {
  it('deletes only after the confirmation, and leaves the feed', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [mine(), makePost()], nextCursor: null } },
      'posts.delete': { data: { ok: true } },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Alice Cube' });
    // Nobody else's post has the menu.
    const other = screen.getByRole('article', { name: 'Post by Bob Block' });
    expect(within(other).queryByRole('button', { name: 'Post actions' })).toBeNull();

    openMenu(card);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this post?' });
    expect(
      within(dialog).getByText('Its likes and comments are deleted with it. This cannot be undone.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.called('posts.delete')).toHaveLength(0);

    openMenu(card);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const again = await screen.findByRole('alertdialog', { name: 'Delete this post?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Post by Alice Cube' })).toBeNull());
    expect(server.called('posts.delete').map((c) => c.input)).toEqual([{ postId: mine().id }]);
    expect(await screen.findByText('Post deleted')).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Post by Bob Block' })).toBeTruthy();
  });

  it('keeps the post and says why when the delete fails', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [mine()], nextCursor: null } },
      'posts.delete': serverError,
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Alice Cube' });
    openMenu(card);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete post')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('article', { name: 'Post by Alice Cube' })).toBeTruthy();
  });

  it('edits in a dialog, then shows "edited" and the history', async () => {
    const created = new Date(Date.now() - 60_000).toISOString();
    const editedAt = new Date().toISOString();
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [mine({ createdAt: created })], nextCursor: null } },
      'posts.edit': (input) => ({
        data: { post: mine({ content: input.content, createdAt: created, editedAt }) },
      }),
      'posts.revisions': {
        data: {
          revisions: [{ id: 'r1', content: 'My own post', writtenAt: created, replacedAt: editedAt }],
        },
      },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Alice Cube' });
    expect(within(card).queryByRole('button', { name: /Edited/ })).toBeNull();
    openMenu(card);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    const field = within(dialog).getByLabelText('Post text') as HTMLTextAreaElement;
    expect(field.value).toBe('My own post');
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true); // nothing changed yet
    fireEvent.change(field, { target: { value: 'My own post, fixed' } });
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit post' })).toBeNull());
    expect(server.called('posts.edit').map((c) => c.input)).toEqual([
      { postId: mine().id, content: 'My own post, fixed' },
    ]);
    expect(within(card).getByText('My own post, fixed')).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Edited: show earlier versions' }));
    const history = await screen.findByRole('dialog', { name: 'Edit history' });
    const versions = await within(history).findByRole('list', { name: 'Versions' });
    const items = within(versions).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringContaining('My own post, fixed'),
      expect.stringContaining('My own post'),
    ]);
    expect(items[0]!.textContent).toContain('Current');
    expect(items[1]!.textContent).toContain('Original');
  });

  it("edits the images' descriptions in the same dialog, with the reminder, without marking the text edited", async () => {
    const image = (n: number, alt: string | null) => ({
      url: `/objects/uploads/0000000${n}-0000-4000-8000-000000000000`,
      thumbUrl: `/objects/uploads/0000000${n}-0000-4000-8000-000000000000/thumb`,
      width: 800,
      height: 600,
      alt,
      sensitive: false,
    });
    const pictured = mine({ images: [image(1, 'A red cube'), image(2, null)], imageUrl: image(1, null).url });
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [pictured], nextCursor: null } },
      'posts.edit': (input) => ({
        data: {
          post: {
            ...pictured,
            images: pictured.images.map((img, i) => ({ ...img, alt: input.alts?.[i]?.trim() || null })),
          },
        },
      }),
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Alice Cube' });
    expect(within(card).getAllByRole('button', { name: /^ALT/ })).toHaveLength(1);
    openMenu(card);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    const first = within(dialog).getByLabelText('Description of image 1') as HTMLTextAreaElement;
    const second = within(dialog).getByLabelText('Description of image 2') as HTMLTextAreaElement;
    expect([first.value, second.value]).toEqual(['A red cube', '']);
    expect(within(dialog).getByTestId('alt-reminder').textContent).toContain('Image 2 has no description.');
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(second, { target: { value: 'A blue cube, smaller' } });
    expect(within(dialog).getByTestId('alt-reminder').textContent).toBe('Every image has a description.');
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit post' })).toBeNull());
    expect(server.called('posts.edit').map((c) => c.input)).toEqual([
      { postId: pictured.id, content: 'My own post', alts: ['A red cube', 'A blue cube, smaller'] },
    ]);
    expect(within(card).getAllByRole('button', { name: /^ALT/ })).toHaveLength(2);
    expect(within(card).queryByRole('button', { name: /Edited/ })).toBeNull();
  });

  it('refuses an empty edit in the dialog and offers no Edit after 15 minutes', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': {
        data: {
          items: [
            mine(),
            mine({
              id: '9a1b0c8e-0000-4000-8000-0000000000a2',
              createdAt: new Date(Date.now() - 16 * 60_000).toISOString(),
            }),
          ],
          nextCursor: null,
        },
      },
    });
    renderApp('/');
    await sessionKnown();
    const [fresh, old] = await screen.findAllByRole('article', { name: 'Post by Alice Cube' });
    openMenu(old!);
    await screen.findByRole('menuitem', { name: 'Delete' });
    expect(screen.queryByRole('menuitem', { name: 'Edit' })).toBeNull();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    openMenu(fresh!);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    fireEvent.change(within(dialog).getByLabelText('Post text'), { target: { value: 'x'.repeat(2001) } });
    expect(within(dialog).getByText('2001/2000')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Post must be at most 2000 characters')).toBeTruthy();
    expect(server.called('posts.edit')).toHaveLength(0);
  });
});

describe("the Edit dialog checks with the edit's schema", () => {
  it('keeps the message while the text is still too long, on the text, and lets it go once it fits', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [mine()], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Alice Cube' });
    openMenu(card);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' });
    const field = within(dialog).getByLabelText('Post text') as HTMLTextAreaElement;
    fireEvent.change(field, { target: { value: 'x'.repeat(2001) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const error = await within(dialog).findByText('Post must be at most 2000 characters');
    // The focus goes to the text that needs the change; the message is tied to it.
    expect(document.activeElement).toBe(field);
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
    // Still too long: the message stays.
    fireEvent.change(field, { target: { value: 'x'.repeat(2002) } });
    expect(within(dialog).getByText('Post must be at most 2000 characters')).toBeTruthy();
    // Empty, sent with Ctrl+Enter: the schema's other message.
    fireEvent.change(field, { target: { value: ' ' } });
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true });
    expect(within(dialog).getByText('Post cannot be empty')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'x'.repeat(2000) } });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(field.getAttribute('aria-invalid')).toBeNull();
    expect(server.called('posts.edit')).toHaveLength(0);
  });
});

describe('deleting comments', () => {
  it('lets you delete your own comment after confirming; not others’ under someone else’s post', async () => {
    const comment = (id: string, author: typeof alice, content: string) => ({
      id,
      userId: author.id,
      username: author.username,
      userDisplayName: author.displayName,
      userAvatarUrl: null,
      content,
      createdAt: new Date().toISOString(),
      mentions: [],
    });
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [makePost({ commentsCount: 2 })], nextCursor: null } },
      'comments.list': {
        data: {
          items: [
            comment('c0000000-0000-4000-8000-000000000001', alice, 'mine'),
            comment('c0000000-0000-4000-8000-000000000002', bob, 'theirs'),
          ],
          nextCursor: null,
        },
      },
      'comments.delete': { data: { ok: true } },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: /^Comments,/ }));
    await within(card).findByText('theirs');
    expect(within(card).queryByRole('button', { name: 'Delete comment by Bob Block' })).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: 'Delete comment by Alice Cube' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this comment?' });
    expect(server.called('comments.delete')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(card).queryByText('mine')).toBeNull());
    expect(server.called('comments.delete').map((c) => c.input)).toEqual([
      { commentId: 'c0000000-0000-4000-8000-000000000001' },
    ]);
    expect(within(card).getByRole('button', { name: /^Comments,/ }).textContent).toContain('1');
  });

  it('lets a post’s author delete anyone’s comment on it', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [mine({ commentsCount: 1 })], nextCursor: null } },
      'comments.list': {
        data: {
          items: [
            {
              id: 'c0000000-0000-4000-8000-000000000003',
              userId: bob.id,
              username: 'bob',
              userDisplayName: 'Bob Block',
              userAvatarUrl: null,
              content: 'rude',
              createdAt: new Date().toISOString(),
              mentions: [],
            },
          ],
          nextCursor: null,
        },
      },
    });
    renderApp('/');
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Alice Cube' });
    fireEvent.click(within(card).getByRole('button', { name: /^Comments,/ }));
    expect(await within(card).findByRole('button', { name: 'Delete comment by Bob Block' })).toBeTruthy();
  });
});

describe('Following and Everyone', () => {
  it('shows only Everyone, without tabs, to a visitor', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': { data: { items: [makePost()], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('article', { name: 'Post by Bob Block' });
    expect(screen.queryByRole('tab')).toBeNull();
    expect(server.called('posts.feed').every((c) => c.input?.scope === undefined)).toBe(true);
  });

  it('switches to Following, asks for that scope, and remembers the choice', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': (input) => ({
        data: {
          items:
            input?.scope === 'following'
              ? [mine({ content: 'from following' })]
              : [makePost({ content: 'from everyone' })],
          nextCursor: null,
        },
      }),
    });
    const first = renderApp('/');
    const everyone = await screen.findByRole('tab', { name: 'Everyone' });
    expect(everyone.getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('from everyone')).toBeTruthy();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Following' }));
    expect(await screen.findByText('from following')).toBeTruthy();
    expect(server.called('posts.feed').some((c) => c.input?.scope === 'following')).toBe(true);
    expect(document.cookie).toContain(`${FEED_SCOPE_COOKIE}=${alice.id}.following`);

    first.unmount();
    renderApp('/');
    await sessionKnown();
    const following = await screen.findByRole('tab', { name: 'Following' });
    expect(following.getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('from following')).toBeTruthy();
  });

  it("starts at Everyone when the device's choice is another member's", async () => {
    rememberScope(bob.id, 'following');
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': (input) => ({
        data: { items: [makePost({ content: `from ${input?.scope ?? 'everyone'}` })], nextCursor: null },
      }),
    });
    renderApp('/');
    await sessionKnown();
    expect(await screen.findByText('from everyone')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Everyone' }).getAttribute('aria-selected')).toBe('true');
  });

  it('says how to fill an empty Following feed', async () => {
    rememberScope(alice.id, 'following');
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    expect(await screen.findByText(/Posts by people you follow show up here/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Find people to follow' }).getAttribute('href')).toBe('/search');
  });
});

describe('live changes', () => {
  it('drops a post deleted elsewhere and shows an edit made elsewhere', async () => {
    const editedAt = new Date().toISOString();
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [makePost(), mine()], nextCursor: null } },
      'posts.byId': { data: { post: mine({ content: 'changed elsewhere', editedAt }) } },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('article', { name: 'Post by Bob Block' });
    await waitFor(() => expect(liveSubscriptions('posts.onChange')).toHaveLength(1));
    const push = (data: { postId: string; kind: string }) => {
      const s = liveSubscriptions('posts.onChange')[0]!;
      s.socket.reply({ id: s.id, result: { type: 'data', data: superjson.serialize(data) } });
    };
    push({ postId: makePost().id, kind: 'deleted' });
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Post by Bob Block' })).toBeNull());
    push({ postId: mine().id, kind: 'edited' });
    expect(await screen.findByText('changed elsewhere')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edited: show earlier versions' })).toBeTruthy();
  });
});
