import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AnswerOf,
  alice,
  bob,
  deferred,
  fakeTrpc,
  makePost,
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

const signedIn = { data: { user: alice, isModerator: false } } as const;

/** Makes `(min-width: 1024px)` match, as on a desktop screen. */
function wideScreen() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(min-width: 1024px)',
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

describe('the bookmark button', () => {
  it('flips at once, and rolls back with a toast when the server fails', async () => {
    const gate = deferred<AnswerOf<'bookmarks.add'>>();
    const server = fakeTrpc({
      'auth.session': signedIn,
      'posts.feed': { data: { items: [makePost()], nextCursor: null } },
      'bookmarks.add': () => gate.promise,
    });
    renderApp('/');
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    const button = within(card).getByRole('button', { name: 'Bookmark' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button);
    const pressed = await within(card).findByRole('button', { name: 'Remove bookmark' });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(server.called('bookmarks.add')).toHaveLength(1));
    expect(server.called('bookmarks.add')[0]?.input).toEqual({ postId: makePost().id });
    await act(async () => {
      gate.resolve(serverError);
    });
    const back = await within(card).findByRole('button', { name: 'Bookmark' });
    expect(back.getAttribute('aria-pressed')).toBe('false');
    const region = await toastRegion();
    expect(await within(region).findByText('Failed to update bookmark')).toBeTruthy();
  });

  it('takes a bookmark back, and keeps it on success', async () => {
    const server = fakeTrpc({
      'auth.session': signedIn,
      'posts.feed': { data: { items: [makePost({ isBookmarked: true })], nextCursor: null } },
      'bookmarks.remove': { data: { bookmarked: false } },
    });
    renderApp('/');
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: 'Remove bookmark' }));
    await waitFor(() => expect(server.called('bookmarks.remove')).toHaveLength(1));
    expect((await within(card).findByRole('button', { name: 'Bookmark' })).getAttribute('aria-pressed')).toBe(
      'false',
    );
  });

  it('asks a visitor to log in and sends nothing', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.feed': { data: { items: [makePost()], nextCursor: null } },
    });
    renderApp('/');
    await screen.findByRole('link', { name: 'Login' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    fireEvent.click(within(card).getByRole('button', { name: 'Bookmark' }));
    const region = await toastRegion();
    expect(await within(region).findByText('Please login to bookmark posts')).toBeTruthy();
    expect(server.called('bookmarks.add')).toHaveLength(0);
  });
});

describe('the Bookmarks screen', () => {
  it('is in the avatar menu, loads, and lists the bookmarked posts', async () => {
    const gate = deferred<AnswerOf<'bookmarks.list'>>();
    fakeTrpc({
      'auth.session': signedIn,
      'posts.feed': { data: { items: [], nextCursor: null } },
      'bookmarks.list': () => gate.promise,
    });
    renderApp('/');
    fireEvent.pointerDown(await screen.findByRole('button', { name: 'Account menu' }), {
      button: 0,
      pointerType: 'mouse',
    });
    const link = await screen.findByRole('menuitem', { name: 'Bookmarks' });
    expect(link.getAttribute('href')).toBe('/bookmarks');
    fireEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'Bookmarks', level: 1 })).toBeTruthy();
    expect(await screen.findByText('Loading bookmarks...')).toBeTruthy();
    gate.resolve({ data: { items: [makePost({ isBookmarked: true, content: 'kept' })], nextCursor: null } });
    const list = await screen.findByRole('list', { name: 'Bookmarks' });
    const card = within(list).getByRole('article', { name: 'Post by Bob Block' });
    expect(within(card).getByText('kept')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Remove bookmark' })).toBeTruthy();
  });

  it('says when there are none, and offers Retry when loading fails', async () => {
    let fail = true;
    fakeTrpc({
      'auth.session': signedIn,
      'bookmarks.list': () => (fail ? serverError : { data: { items: [], nextCursor: null } }),
    });
    renderApp('/bookmarks');
    expect(await screen.findByText('Could not load your bookmarks.')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No bookmarks yet')).toBeTruthy();
  });

  it('sends a visitor to log in', async () => {
    const server = fakeTrpc({ 'auth.session': { data: null } });
    renderApp('/bookmarks');
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Bookmarks', level: 1 })).toBeNull());
    expect(server.called('bookmarks.list')).toHaveLength(0);
  });
});

describe('the side column', () => {
  const suggestion = {
    id: bob.id,
    username: 'bob',
    displayName: 'Bob Block',
    avatarUrl: null,
    bio: null,
    followersCount: 3,
    reason: 'followed' as const,
    followedBy: 2,
  };

  it('shows Who to follow beside the feed at 1024 px and up; its Follow button follows', async () => {
    wideScreen();
    const server = fakeTrpc({
      'auth.session': signedIn,
      'posts.feed': { data: { items: [], nextCursor: null } },
      'users.suggestions': { data: { items: [suggestion] } },
      'follows.follow': { data: { following: true, followersCount: 4 } },
    });
    renderApp('/');
    await sessionKnown();
    const column = await screen.findByRole('complementary', { name: 'Suggestions' });
    // The column's content is its own chunk (side-column-content.tsx): it arrives after the aside.
    expect(await within(column).findByRole('heading', { name: 'Who to follow' })).toBeTruthy();
    const list = await within(column).findByRole('list', { name: 'Members to follow' });
    expect(within(list).getByText('Followed by 2 people you follow')).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'Bob Block' }).getAttribute('href')).toBe('/profile/bob');
    fireEvent.click(within(list).getByRole('button', { name: 'Follow Bob Block' }));
    await waitFor(() => expect(server.called('follows.follow')).toHaveLength(1));
    expect(server.called('follows.follow')[0]?.input).toEqual({ userId: bob.id });
    expect(await within(list).findByRole('button', { name: 'Unfollow Bob Block' })).toBeTruthy();
  });

  it("is not drawn below 1024 px; Search's Suggested for you holds it instead", async () => {
    fakeTrpc({
      'auth.session': signedIn,
      'posts.feed': { data: { items: [], nextCursor: null } },
      'users.suggestions': { data: { items: [suggestion] } },
      'search.suggestions': { data: { users: [], posts: [], aiMedia: [] } },
    });
    const home = renderApp('/');
    await screen.findByRole('heading', { name: /here is what's new/ });
    expect(screen.queryByRole('complementary', { name: 'Suggestions' })).toBeNull();
    home.unmount();
    renderApp('/search');
    expect(await screen.findByRole('heading', { name: 'Suggested for you' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Who to follow' })).toBeTruthy();
    expect(screen.queryByRole('complementary', { name: 'Suggestions' })).toBeNull();
  });
});
