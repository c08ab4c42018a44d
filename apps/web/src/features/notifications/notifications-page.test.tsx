/**
 * Opening a notification marks it read (the badge drops, the server is told), each
 * shows a snippet of what was said, the notifications page (/notifications: all or mentions, the
 * filter in the URL, paged, empty states), and on a phone the bell opens that page.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, type OutputOf, renderApp, sessionKnown } from '../../test/fake-trpc';
import { wideScreen } from '../../test/screen-width';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const POST_ID = '9a1b0c8e-0000-4000-8000-000000000010';
type Item = OutputOf<'notifications.list'>[number];

function item(id: string, overrides: Partial<Item> = {}): Item {
  return {
    id,
    type: 'mention',
    username: 'bob',
    userAvatar: null,
    message: 'mentioned you',
    timestamp: new Date(Date.now() - 60_000),
    isRead: false,
    postId: POST_ID,
    snippet: null,
    groupKey: id,
    actors: [{ id: 'u-bob', username: 'bob', displayName: 'Bob', avatarUrl: null }],
    actorsCount: 1,
    removal: null,
    poll: null,
    ...overrides,
  };
}

const onPost = item('n1', { snippet: '@alice look at this cube' });
const onComment = item('n2', { snippet: '@alice and in the comments too' });

describe('opening a notification', () => {
  it('marks it read: the server is told its id, and the badge drops at once', async () => {
    wideScreen();
    const read = new Set<string>();
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [], nextCursor: null } },
      'notifications.unreadCount': () => ({ data: { count: 2 - read.size } }),
      'notifications.list': () => ({
        data: [onComment, onPost].map((n) => ({ ...n, isRead: read.has(n.id) })),
      }),
      'notifications.markRead': ({ id }) => {
        read.add(id);
        return { data: { ok: true, updated: 1 } };
      },
    });
    renderApp('/');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Notifications' });
    // Found afresh each time: the bell's button is another element once its popover's code loads.
    const bell = () => screen.getByRole('button', { name: 'Notifications' });
    await waitFor(() => expect(bell().textContent).toContain('2'));
    fireEvent.click(bell());
    const list = await screen.findByRole('dialog', { name: 'Notifications list' });
    const entries = await within(list).findAllByRole('listitem');
    // Two "@bob mentioned you" lines told apart by what was said.
    expect(entries.map((e) => e.querySelector('[data-testid="notification-snippet"]')?.textContent)).toEqual([
      ': “@alice and in the comments too”',
      ': “@alice look at this cube”',
    ]);

    fireEvent.click(within(entries[0]!).getByRole('button'));
    await waitFor(() => expect(server.called('notifications.markRead')).toHaveLength(1));
    expect(server.called('notifications.markRead')[0]!.input).toEqual({ id: 'n2' });
    await waitFor(() => expect(bell().textContent).toContain('1'));
    expect(screen.queryByRole('dialog', { name: 'Notifications list' })).toBeNull();

    // Opening one already read tells the server nothing more.
    fireEvent.click(bell());
    const again = await screen.findByRole('dialog', { name: 'Notifications list' });
    await waitFor(() => expect(within(again).getAllByText('Unread')).toHaveLength(1));
    const [opened] = within(again).getAllByRole('listitem');
    expect(within(opened!).queryByText('Unread')).toBeNull();
    fireEvent.click(within(opened!).getByRole('button'));
    expect(server.called('notifications.markRead')).toHaveLength(1);
  });

  it('on a phone, the bell is a link to the notifications page', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': { data: { items: [], nextCursor: null } },
      'notifications.unreadCount': { data: { count: 3 } },
    });
    renderApp('/');
    await sessionKnown();
    const bell = await screen.findByRole('link', { name: 'Notifications' });
    expect(bell.getAttribute('href')).toBe('/notifications');
    await waitFor(() => expect(bell.textContent).toContain('3'));
  });
});

describe('the notifications page', () => {
  it('keeps its filter in the URL, pages with Load more, and says when there is nothing', async () => {
    wideScreen();
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'notifications.unreadCount': { data: { count: 1 } },
      'notifications.page': (input) => {
        if (input.filter === 'mentions') {
          return input.cursor
            ? { data: { items: [onPost], nextCursor: null } }
            : { data: { items: [onComment], nextCursor: 'next' } };
        }
        return { data: { items: [], nextCursor: null } };
      },
    });
    renderApp('/notifications?filter=mentions');
    await sessionKnown();
    expect(await screen.findByRole('heading', { name: 'Notifications', level: 1 })).toBeTruthy();
    const mentions = await screen.findByRole('tab', { name: 'Mentions' });
    expect(mentions.getAttribute('aria-selected')).toBe('true');
    const list = await screen.findByRole('list', { name: 'Mentions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(server.called('notifications.page').map((c) => [c.input.filter, c.input.cursor ?? null])).toEqual([
      ['mentions', null],
      ['mentions', 'next'],
    ]);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.mouseDown(screen.getByRole('tab', { name: 'All' }));
    expect(await screen.findByText('No notifications yet')).toBeTruthy();
    expect(server.called('notifications.page').at(-1)!.input.filter).toBe('all');
  });

  it('says no mentions yet, and an unknown filter is all', async () => {
    wideScreen();
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'notifications.unreadCount': { data: { count: 0 } },
      'notifications.page': (input) =>
        input.filter === 'mentions'
          ? { data: { items: [], nextCursor: null } }
          : { data: { items: [onPost], nextCursor: null } },
    });
    const { unmount } = renderApp('/notifications?filter=nope');
    expect((await screen.findByRole('tab', { name: 'All' })).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('list', { name: 'Notifications' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    unmount();
    renderApp('/notifications?filter=mentions');
    await sessionKnown();
    expect(await screen.findByText('No mentions yet')).toBeTruthy();
  });
});
