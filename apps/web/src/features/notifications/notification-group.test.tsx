/**
 * Grouped notifications (issue #49): the row's sentence for one, two and four actors (and reposts
 * and follows), up to three stacked avatars, and opening a group reads it and lists everyone in
 * it, each linking to their profile.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveSubscriptions, pushLive } from '../../test/fake-socket';
import { alice, fakeTrpc, type OutputOf, renderApp, sessionKnown } from '../../test/fake-trpc';
import { wideScreen } from '../../test/screen-width';
import { actorNames, notificationSentence } from './notification-item';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Item = OutputOf<'notifications.list'>[number];
type Actor = Item['actors'][number];

const POST_ID = '9a1b0c8e-0000-4000-8000-000000000010';
const actor = (name: string): Actor => ({
  id: `u-${name}`,
  username: name,
  displayName: name[0]!.toUpperCase() + name.slice(1),
  avatarUrl: null,
});
const FOUR = ['dave', 'carol', 'bob', 'erin'].map(actor);

function likes(count: number, overrides: Partial<Item> = {}): Item {
  const actors = FOUR.slice(0, Math.min(count, 3));
  return {
    id: `n-${count}`,
    type: 'like',
    username: actors[0]!.username,
    userAvatar: null,
    message: 'liked your post',
    timestamp: new Date(Date.now() - 60_000),
    isRead: false,
    postId: POST_ID,
    snippet: 'my cube',
    groupKey: `like:${POST_ID}:2026-11-29`,
    actors,
    actorsCount: count,
    removal: null,
    poll: null,
    ...overrides,
  };
}

describe('the row sentence', () => {
  it('says one, two and four actors as SPEC and the issue word them', () => {
    expect(notificationSentence(likes(1))).toBe('dave liked your post');
    expect(notificationSentence(likes(2))).toBe('dave and carol liked your post');
    expect(notificationSentence(likes(4))).toBe('dave and 3 others liked your post');
    expect(actorNames({ username: 'dave', actors: [actor('dave')], actorsCount: 2 })).toBe(
      'dave and 1 other',
    );
    expect(notificationSentence(likes(3, { type: 'repost', message: 'reposted your post' }))).toBe(
      'dave and 2 others reposted your post',
    );
    expect(
      notificationSentence(likes(2, { type: 'follow', message: 'started following you', postId: null })),
    ).toBe('dave and carol followed you');
    // One follower keeps SPEC's line.
    expect(
      notificationSentence(likes(1, { type: 'follow', message: 'started following you', postId: null })),
    ).toBe('dave started following you');
  });
});

describe('a grouped row', () => {
  it('shows three avatars and the sentence; opening it reads the group and lists all four', async () => {
    wideScreen();
    let read = false;
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'notifications.unreadCount': () => ({ data: { count: read ? 1 : 2 } }),
      'notifications.page': () => ({
        data: {
          items: [
            likes(4, { isRead: read }),
            likes(1, {
              id: 'n-single',
              groupKey: 'n-single',
              postId: null,
              type: 'follow',
              message: 'started following you',
            }),
          ],
          nextCursor: null,
        },
      }),
      'notifications.markRead': () => {
        read = true;
        return { data: { ok: true, updated: 1 } };
      },
      'notifications.groupActors': (input) =>
        input.cursor
          ? { data: { items: FOUR.slice(2), nextCursor: null } }
          : { data: { items: FOUR.slice(0, 2), nextCursor: 'more' } },
    });
    renderApp('/notifications');
    await sessionKnown();
    const list = await screen.findByRole('list', { name: 'Notifications' });
    const group = await within(list).findByRole('button', { name: /dave and 3 others liked your post/ });
    expect(group.getAttribute('aria-expanded')).toBe('false');
    expect(group.querySelectorAll('[data-testid="notification-avatars"] img')).toHaveLength(3);
    // One actor: one avatar, SPEC's line.
    expect(within(list).getByRole('button', { name: /dave started following you/ })).toBeTruthy();

    fireEvent.click(group);
    await waitFor(() => expect(server.called('notifications.markRead')).toHaveLength(1));
    expect(server.called('notifications.markRead')[0]!.input).toEqual({ id: 'n-4' });
    expect(group.getAttribute('aria-expanded')).toBe('true');
    const people = await screen.findByRole('list', { name: 'People who liked your post' });
    await within(people).findByRole('link', { name: 'Dave' });
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(people).getAllByRole('listitem')).toHaveLength(4));
    expect(
      within(people)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(FOUR.map((a) => `/profile/${a.username}`));
    expect(screen.getByRole('link', { name: 'View post' }).getAttribute('href')).toBe(`/posts/${POST_ID}`);

    // Closing and opening it again asks nothing more of the server: it is read.
    fireEvent.click(group);
    expect(group.getAttribute('aria-expanded')).toBe('false');
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'People who liked your post' })).toBeNull(),
    );
    fireEvent.click(group);
    expect(server.called('notifications.markRead')).toHaveLength(1);
  });

  it('a like joining the group live updates the row in place: count, avatars, still one row, still open', async () => {
    wideScreen();
    let grown = false;
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'notifications.unreadCount': { data: { count: 1 } },
      'notifications.page': () => ({
        data: {
          items: [
            grown
              ? likes(4, {
                  id: 'n-new',
                  username: 'erin',
                  actors: [FOUR[3]!, FOUR[0]!, FOUR[1]!],
                  isRead: true,
                })
              : likes(3, { isRead: true }),
          ],
          nextCursor: null,
        },
      }),
      'notifications.groupActors': () => ({
        data: { items: grown ? [FOUR[3]!, ...FOUR.slice(0, 3)] : FOUR.slice(0, 3), nextCursor: null },
      }),
    });
    renderApp('/notifications');
    await sessionKnown();
    const list = await screen.findByRole('list', { name: 'Notifications' });
    const row = await within(list).findByRole('button', { name: /^dave and 2 others liked your post/ });
    fireEvent.click(row);
    const people = await screen.findByRole('list', { name: 'People who liked your post' });
    await waitFor(() => expect(within(people).getAllByRole('listitem')).toHaveLength(3));
    await waitFor(() => expect(liveSubscriptions('notifications.onChange')).toHaveLength(1));

    grown = true;
    pushLive('notifications.onChange', { unreadCount: 1, newestId: 'n-new' });
    await within(list).findByRole('button', { name: /^erin and 3 others liked your post/ });
    // The same row, updated in place: still open, its list grown, no second row.
    expect(row.isConnected).toBe(true);
    expect(row.getAttribute('aria-expanded')).toBe('true');
    expect(
      within(list)
        .getAllByRole('listitem')
        .filter((li) => li.parentElement === list),
    ).toHaveLength(1);
    await waitFor(() => expect(within(people).getAllByRole('listitem')).toHaveLength(4));
    expect(row.querySelectorAll('[data-testid="notification-avatars"] img')).toHaveLength(3);
  });
});
