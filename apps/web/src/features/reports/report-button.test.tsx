import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, makePost, renderApp, sessionKnown } from '../../test/fake-trpc';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const post = makePost({ content: 'Buy cheap cubes now' });

async function openDialog() {
  const article = await screen.findByRole('article', { name: 'Post by Bob Block' });
  fireEvent.click(within(article).getByRole('button', { name: 'Report post' }));
  return screen.findByRole('dialog', { name: 'Report this post' });
}

describe('Report on a post', () => {
  it('asks for a reason, sends the report and thanks the member', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [post], nextCursor: null } },
      'reports.create': { data: { id: '5e0c0000-0000-4000-8000-000000000001' } },
    });
    renderApp('/');
    await sessionKnown();
    const dialog = await openDialog();
    expect(dialog.textContent).toContain('Post by Bob Block');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Say why you are reporting this');
    expect(server.called('reports.create')).toHaveLength(0);

    const field = within(dialog).getByLabelText('Why are you reporting this?');
    fireEvent.change(field, { target: { value: '  Spam  ' } });
    expect(within(dialog).getByText('8/1000')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() =>
      expect(server.called('reports.create').map((c) => c.input)).toEqual([
        { targetType: 'post', targetId: post.id, reason: 'Spam' },
      ]),
    );
    expect(await screen.findByText('Report sent')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report this post' })).toBeNull());
  });

  it('checks the reason as every form does: once tried, again with each change', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [post], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    const dialog = await openDialog();
    const field = within(dialog).getByLabelText('Why are you reporting this?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Say why you are reporting this');
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: 'Spam' } });
    await waitFor(() => expect(within(dialog).queryByRole('alert')).toBeNull());
    fireEvent.change(field, { target: { value: '   ' } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Say why you are reporting this');
    expect(server.called('reports.create')).toHaveLength(0);
  });

  it('says so when the member already reported it', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [post], nextCursor: null } },
      'reports.create': {
        error: { message: 'You have already reported this', code: 'CONFLICT', httpStatus: 409 },
      },
    });
    renderApp('/');
    await sessionKnown();
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Why are you reporting this?'), {
      target: { value: 'Spam' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Already reported')).toBeTruthy();
  });

  it('is not offered on one’s own post, nor to visitors', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': {
        data: {
          items: [makePost({ userId: alice.id, username: 'alice', userDisplayName: 'Alice Cube' })],
          nextCursor: null,
        },
      },
    });
    const { unmount } = renderApp('/');
    const own = await screen.findByRole('article', { name: 'Post by Alice Cube' });
    expect(within(own).queryByRole('button', { name: 'Report post' })).toBeNull();
    unmount();

    fakeTrpc({ 'auth.session': { data: null }, 'posts.feed': { data: { items: [post], nextCursor: null } } });
    renderApp('/');
    await sessionKnown();
    const theirs = await screen.findByRole('article', { name: 'Post by Bob Block' });
    await screen.findByRole('link', { name: 'Login' });
    expect(within(theirs).queryByRole('button', { name: 'Report post' })).toBeNull();
  });
});
