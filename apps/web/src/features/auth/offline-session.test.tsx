/**
 * Issue #46, bug 3: a page opened without a network keeps the member this device last knew (the
 * header's account menu, not Login; Post tries and says "You're offline"), and the session is
 * asked again as soon as the browser is back online.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alice, fakeTrpc, renderApp } from '../../test/fake-trpc';
import { toastRegion } from '../../test/toasts';
import { LAST_MEMBER_KEY, readLastMember } from './last-member';

const emptyFeed = { data: { items: [], nextCursor: null } };

let online = true;
beforeEach(() => {
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** No network: every request fails as fetch fails offline. */
function goOffline() {
  online = false;
  const fetch = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function remember() {
  window.localStorage.setItem(
    LAST_MEMBER_KEY,
    JSON.stringify({
      user: { id: alice.id, username: alice.username, displayName: alice.displayName, avatarUrl: null },
      isModerator: false,
    }),
  );
}

const header = () => within(screen.getByRole('banner'));

describe('the session without a network', () => {
  it('an answer remembers only what the header needs', async () => {
    fakeTrpc({ 'auth.session': { data: { user: alice, isModerator: false } }, 'posts.feed': emptyFeed });
    renderApp('/');
    await screen.findByRole('button', { name: 'Account menu' });
    await waitFor(() => expect(readLastMember()?.user.id).toBe(alice.id));
    expect(JSON.parse(window.localStorage.getItem(LAST_MEMBER_KEY) ?? '{}')).toEqual({
      user: { id: alice.id, username: 'alice', displayName: 'Alice Cube', avatarUrl: null },
      isModerator: false,
    });
  });

  it('offline, the member last known stays; Post says "You\'re offline"; back online the session is asked at once', async () => {
    remember();
    goOffline();
    renderApp('/');
    expect(await header().findByRole('button', { name: 'Account menu' })).toBeTruthy();
    expect(header().queryByRole('link', { name: 'Login' })).toBeNull();
    expect(screen.getAllByRole('status').some((s) => s.textContent?.includes("You're offline"))).toBe(true);

    fireEvent.change(await screen.findByPlaceholderText("What's on your mind?"), {
      target: { value: 'written on the train' },
    });
    const post = screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement;
    await waitFor(() => expect(post.disabled).toBe(false));
    fireEvent.click(post);
    const region = await toastRegion();
    expect(await within(region).findByText('Failed to create post')).toBeTruthy();
    expect(within(region).getByText("You're offline")).toBeTruthy();
    expect(within(region).queryByText('Please login to post')).toBeNull();

    // The connection returns: the session is asked again without waiting for a poll or a reload.
    online = true;
    const trpc = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.feed': emptyFeed,
    });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(trpc.called('auth.session').length).toBeGreaterThan(0));
    expect(await header().findByRole('button', { name: 'Account menu' })).toBeTruthy();
  });

  it('back online, a session that ended meanwhile logs out and forgets the member', async () => {
    remember();
    goOffline();
    renderApp('/');
    await header().findByRole('button', { name: 'Account menu' });
    online = true;
    fakeTrpc({ 'auth.session': { data: null }, 'posts.feed': emptyFeed });
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await header().findByRole('link', { name: 'Login' })).toBeTruthy();
    expect(readLastMember()).toBeNull();
  });

  it('with no member known here, offline shows a visitor', async () => {
    goOffline();
    renderApp('/');
    expect(await header().findByRole('link', { name: 'Login' })).toBeTruthy();
  });
});
