import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AnswerOf,
  alice,
  bob,
  deferred,
  fakeTrpc,
  makePost,
  type OutputOf,
  renderApp,
  serverError,
  sessionKnown,
} from '../../test/fake-trpc';
import { toastRegion } from '../../test/toasts';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const bobProfile = (overrides: Partial<OutputOf<'users.byUsername'>> = {}): OutputOf<'users.byUsername'> => ({
  user: bob,
  stats: { followersCount: 2, followingCount: 5, postsCount: 1 },
  isFollowing: false,
  isBlocking: false,
  isBlockedBy: false,
  isMuting: false,
  isSuspended: false,
  ...overrides,
});

function stats() {
  return screen.getByRole('list', { name: 'Profile stats' }).textContent ?? '';
}

describe('profile', () => {
  it('shows banner, names, bio, counts, tabs and the posts', async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'users.byUsername': { data: bobProfile() },
      'users.posts': { data: { items: [makePost({ content: 'bob was here' })], nextCursor: null } },
    });
    renderApp('/profile/bob');
    await sessionKnown();
    expect(await screen.findByRole('heading', { name: 'Bob Block' })).toBeTruthy();
    // The profile's own section: the posts (under it) come with the profile and name @bob too.
    const header = within(screen.getByRole('region', { name: 'Bob Block' }));
    expect(header.getByText('@bob')).toBeTruthy();
    expect(header.getByText('Builds things out of cubes.')).toBeTruthy();
    expect(stats()).toContain('2 followers');
    expect(stats()).toContain('5 following');
    expect(stats()).toContain('1 post');
    expect(await screen.findByText('bob was here')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Posts' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Favorites' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Media' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Message' })).toBeTruthy();
    // The panel takes no tab stop of its own (issue #46): Tab goes from the tabs to its content.
    expect(screen.getByRole('tabpanel').getAttribute('tabindex')).toBe('-1');
  });

  it('says a member is suspended, without details, posts, follow or message', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'users.byUsername': { data: bobProfile({ isSuspended: true, user: { ...bob, bio: null } }) },
    });
    renderApp('/profile/bob');
    await sessionKnown();
    expect(
      await screen.findByText('@bob is suspended. Their posts, comments and media are hidden.'),
    ).toBeTruthy();
    expect(screen.queryByText('Builds things out of cubes.')).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Posts' })).toBeNull();
    // Their counts would count what is hidden.
    expect(screen.queryByRole('list', { name: 'Profile stats' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Message' })).toBeNull();
    // Reporting them stays possible.
    expect(await screen.findByRole('button', { name: 'More actions for @bob' })).toBeTruthy();
  });

  it('shows no counts across a block either way, as users.stats answers none', async () => {
    for (const standing of [{ isBlocking: true }, { isBlockedBy: true }]) {
      fakeTrpc({
        'auth.session': { data: { user: alice, isModerator: false } },
        'users.byUsername': {
          data: bobProfile({
            ...standing,
            user: { ...bob, bio: null },
            stats: { followersCount: 0, followingCount: 0, postsCount: 0 },
          }),
        },
      });
      const { unmount } = renderApp('/profile/bob');
      expect(await screen.findByRole('heading', { name: 'Bob Block' })).toBeTruthy();
      expect(screen.queryByRole('list', { name: 'Profile stats' }), JSON.stringify(standing)).toBeNull();
      unmount();
    }
  });

  it("falls back to the default bio and shows 'Edit profile' on your own profile", async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'users.byUsername': {
        data: {
          user: alice,
          stats: { followersCount: 0, followingCount: 0, postsCount: 0 },
          isFollowing: false,
          isBlocking: false,
          isBlockedBy: false,
          isMuting: false,
          isSuspended: false,
        },
      },
      'users.posts': { data: { items: [], nextCursor: null } },
      'notifications.unreadCount': { data: { count: 0 } },
    });
    renderApp('/profile');
    await sessionKnown();
    expect(await screen.findByRole('heading', { name: 'Alice Cube' })).toBeTruthy();
    expect(screen.getByText('Member of Cubes AI')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit profile' }).getAttribute('href')).toBe('/settings');
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Message' })).toBeNull();
    expect(await screen.findByText('No posts yet')).toBeTruthy();
  });

  it("says 'User not found' with a link home for an unknown username", async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'users.byUsername': { error: { message: 'User not found', code: 'NOT_FOUND', httpStatus: 404 } },
    });
    renderApp('/profile/nobody');
    await sessionKnown();
    expect(await screen.findByRole('heading', { name: 'User not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/');
  });

  it('asks a visitor to log in before following', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'users.byUsername': { data: bobProfile() },
      'users.posts': { data: { items: [], nextCursor: null } },
    });
    renderApp('/profile/bob');
    await sessionKnown();
    await screen.findByRole('link', { name: 'Login' });
    fireEvent.click(await screen.findByRole('button', { name: 'Follow' }));
    const region = await toastRegion();
    expect(await within(region).findByText('Please login to follow users')).toBeTruthy();
    expect(server.called('follows.follow')).toHaveLength(0);
  });

  it('follows at once (+1) and rolls back when the server fails', async () => {
    const gate = deferred<AnswerOf<'follows.follow'>>();
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'users.byUsername': { data: bobProfile() },
      'users.posts': { data: { items: [], nextCursor: null } },
      'notifications.unreadCount': { data: { count: 0 } },
      'follows.follow': () => gate.promise,
    });
    renderApp('/profile/bob');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    fireEvent.click(await screen.findByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('button', { name: 'Unfollow' })).toBeTruthy();
    expect(stats()).toContain('3 followers');
    await waitFor(() => expect(server.called('follows.follow')).toHaveLength(1));
    expect(server.called('follows.follow')[0]?.input).toEqual({ userId: bob.id });

    await act(async () => {
      gate.resolve(serverError);
    });
    expect(await screen.findByRole('button', { name: 'Follow' })).toBeTruthy();
    expect(stats()).toContain('2 followers');
    const region = await toastRegion();
    expect(await within(region).findByText('Failed to update follow')).toBeTruthy();
  });

  it('takes the followers count from the server on success', async () => {
    fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'users.byUsername': { data: bobProfile({ isFollowing: true }) },
      'users.posts': { data: { items: [], nextCursor: null } },
      'notifications.unreadCount': { data: { count: 0 } },
      'follows.unfollow': { data: { following: false, followersCount: 1 } },
    });
    renderApp('/profile/bob');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    fireEvent.click(await screen.findByRole('button', { name: 'Unfollow' }));
    expect(await screen.findByRole('button', { name: 'Follow' })).toBeTruthy();
    await waitFor(() => expect(stats()).toContain('1 follower'));
  });
});

describe('followers and following lists', () => {
  const entry = (
    user: typeof alice,
    overrides: Partial<OutputOf<'follows.followers'>['items'][number]> = {},
  ) => ({
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    avatarUrl: null,
    bio: 'Cubes all day',
    followersCount: 1,
    isFollowing: false,
    ...overrides,
  });

  it('opens from the counts, pages with Show more, and follows from the list', async () => {
    const carol = {
      ...alice,
      id: '33333333-3333-4333-8333-333333333333',
      username: 'carol',
      displayName: 'Carol Cube',
    };
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'users.byUsername': { data: bobProfile() },
      'users.posts': { data: { items: [], nextCursor: null } },
      'notifications.unreadCount': { data: { count: 0 } },
      'follows.followers': (input) =>
        input.cursor
          ? { data: { items: [entry(alice)], nextCursor: null } }
          : { data: { items: [entry(carol)], nextCursor: 'bmV4dA' } },
      'follows.following': { data: { items: [], nextCursor: null } },
      'follows.follow': { data: { following: true, followersCount: 2 } },
    });
    renderApp('/profile/bob');
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    fireEvent.click(await screen.findByRole('button', { name: '2 followers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Followers' });
    expect(within(dialog).getByText('People who follow Bob Block')).toBeTruthy();
    expect(await within(dialog).findByRole('link', { name: 'Carol Cube' })).toBeTruthy();
    expect(server.called('follows.followers')[0]?.input).toMatchObject({ userId: bob.id });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Show more' }));
    expect(await within(dialog).findByRole('link', { name: 'Alice Cube' })).toBeTruthy();
    // Your own row has no Follow button.
    expect(within(dialog).getAllByRole('button', { name: /^Follow / })).toHaveLength(1);
    expect(within(dialog).queryByRole('button', { name: 'Show more' })).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Follow Carol Cube' }));
    expect(await within(dialog).findByRole('button', { name: 'Unfollow Carol Cube' })).toBeTruthy();
    await waitFor(() => expect(server.called('follows.follow')[0]?.input).toEqual({ userId: carol.id }));

    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: '5 following' }));
    const following = await screen.findByRole('dialog', { name: 'Following' });
    expect(await within(following).findByText("Bob Block doesn't follow anyone yet.")).toBeTruthy();
  });
});
