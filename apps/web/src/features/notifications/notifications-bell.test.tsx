import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveSubscriptions, pushLive } from '../../test/fake-socket';
import { alice, fakeTrpc, type OutputOf, renderApp, sessionKnown } from '../../test/fake-trpc';
import { wideScreen } from '../../test/screen-width';
import { toastRegion } from '../../test/toasts';
import { notificationTarget } from './notifications-bell';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  // The popover is the bell from md up; on a phone it opens the page (notifications-page.test.tsx).
  wideScreen();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const POST_ID = '9a1b0c8e-0000-4000-8000-000000000010';
const items: OutputOf<'notifications.list'> = [
  {
    id: 'n2',
    type: 'comment',
    username: 'bob',
    userAvatar: null,
    message: 'commented on your post',
    timestamp: new Date(Date.now() - 2 * 60_000),
    isRead: false,
    postId: POST_ID,
    snippet: 'nice cube!',
    groupKey: 'n2',
    actors: [{ id: 'u-bob', username: 'bob', displayName: 'Bob', avatarUrl: null }],
    actorsCount: 1,
    removal: null,
    poll: null,
  },
  {
    id: 'n1',
    type: 'follow',
    username: 'carol',
    userAvatar: null,
    message: 'started following you',
    timestamp: new Date(Date.now() - 3 * 3_600_000),
    isRead: true,
    postId: null,
    snippet: null,
    groupKey: 'follow:2026-11-29',
    actors: [{ id: 'u-carol', username: 'carol', displayName: 'Carol', avatarUrl: null }],
    actorsCount: 1,
    removal: null,
    poll: null,
  },
];

async function openBell() {
  const bell = await screen.findByRole('button', { name: 'Notifications' });
  fireEvent.click(bell);
  return { bell, list: await screen.findByRole('dialog', { name: 'Notifications list' }) };
}

describe('notifications bell', () => {
  it('is only in the header when logged in', async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': { data: { items: [], nextCursor: null } },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('link', { name: 'Login' });
    expect(screen.queryByRole('button', { name: 'Notifications' })).toBeNull();
  });

  it('shows the unread badge, lists items with unread marks, and marks all as read', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [], nextCursor: null } },
      'notifications.unreadCount': { data: { count: 1 } },
      'notifications.list': { data: items },
      'notifications.markAllRead': { data: { ok: true, updated: 1 } },
    });
    renderApp('/');
    await sessionKnown();
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(bell.textContent).toContain('1'));
    expect(screen.getByText('1 unread')).toBeTruthy();

    const { list } = await openBell();
    const entries = await within(list).findAllByRole('listitem');
    expect(entries).toHaveLength(2);
    expect(entries[0]?.textContent).toContain('bob');
    expect(entries[0]?.textContent).toContain('commented on your post');
    expect(entries[0]?.textContent).toContain('2 minutes ago');
    expect(within(entries[0]!).getByText('Unread')).toBeTruthy();
    expect(within(entries[1]!).queryByText('Unread')).toBeNull();

    fireEvent.click(within(list).getByRole('button', { name: 'Mark all as read' }));
    const region = await toastRegion();
    expect(await within(region).findByText('All notifications marked as read')).toBeTruthy();
    expect(server.called('notifications.markAllRead')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByTestId('notifications-badge')).toBeNull());
    expect(within(list).queryByText('Unread')).toBeNull();
  });

  it('updates the badge live when the server pushes a new count, without a poll', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [], nextCursor: null } },
      'notifications.unreadCount': { data: { count: 0 } },
      'notifications.list': { data: items },
    });
    renderApp('/');
    await sessionKnown();
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(liveSubscriptions('notifications.onChange')).toHaveLength(1));
    expect(screen.queryByTestId('notifications-badge')).toBeNull();

    pushLive('notifications.onChange', { unreadCount: 3, newestId: 'n3' });
    await waitFor(() => expect(bell.textContent).toContain('3'));
    expect(screen.getByText('3 unread')).toBeTruthy();
    expect(server.called('notifications.unreadCount')).toHaveLength(1);
  });

  it('words the end of a poll as a whole line, without the author’s name in front', async () => {
    // The line comes from `poll`, never from the server's English `message` (issue #50).
    const ended = (id: string, own: boolean) => ({
      ...items[0]!,
      id,
      type: 'poll_ended' as const,
      message: 'the server’s English line',
      poll: { own },
      snippet: 'Tea or coffee?',
    });
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [], nextCursor: null } },
      'notifications.unreadCount': { data: { count: 2 } },
      'notifications.list': {
        data: [ended('p2', false), ended('p1', true)],
      },
    });
    renderApp('/');
    await sessionKnown();
    const { list } = await openBell();
    const entries = await within(list).findAllByRole('listitem');
    expect(entries[0]?.textContent).toMatch(/^A poll you voted in has ended: “Tea or coffee\?”/);
    expect(entries[1]?.textContent).toMatch(/^Your poll has ended/);
    expect(entries[0]?.textContent).not.toContain('bob');
    expect(list.textContent).not.toContain('the server’s English line');
    expect(notificationTarget({ type: 'poll_ended', postId: POST_ID, username: 'bob' })).toBe(
      `/posts/${POST_ID}`,
    );
  });

  it("says 'No notifications yet' when there are none", async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [], nextCursor: null } },
      'notifications.unreadCount': { data: { count: 0 } },
      'notifications.list': { data: [] },
    });
    renderApp('/');
    await sessionKnown();
    const { list } = await openBell();
    expect(await within(list).findByText('No notifications yet')).toBeTruthy();
    expect(
      (within(list).getByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('leads likes and comments to the post, follows to the profile', () => {
    expect(notificationTarget({ type: 'like', postId: 'p1', username: 'bob' })).toBe('/posts/p1');
    expect(notificationTarget({ type: 'comment', postId: 'p1', username: 'bob' })).toBe('/posts/p1');
    expect(notificationTarget({ type: 'follow', postId: null, username: 'bob' })).toBe('/profile/bob');
  });
});
