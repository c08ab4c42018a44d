/**
 * Route loaders (routes/loader.ts, issue #47): a page's first queries start when its chunk has
 * arrived, before the page renders, on the first visit and on a navigation; the page then finds
 * its data in the cache and asks for nothing again. loadPageData also runs outside React, over
 * any QueryClient (what a server rendering the page does, issue #48).
 */
import { type QueryCacheNotifyEvent, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { useState } from 'react';
import { Link, MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, AppRoutes, loadPageData } from '../app';
import { AuthProvider } from '../features/auth/auth-provider';
import { LAST_MEMBER_KEY } from '../features/auth/last-member';
import { FEED_PAGE_SIZE } from '../features/posts/post-cache';
import { createQueryClient, createTrpcClient } from '../lib/trpc';
import { alice, bob, fakeTrpc, type Handlers, makePost } from '../test/fake-trpc';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Each query fetch that starts, by procedure, with whether `shown` was on screen at that moment. */
function fetchStarts(shown: () => boolean) {
  const starts: { procedure: string; pageShown: boolean }[] = [];
  function Probe() {
    const queryClient = useQueryClient();
    useState(() =>
      queryClient.getQueryCache().subscribe((event: QueryCacheNotifyEvent) => {
        if (event.type !== 'updated' || event.action.type !== 'fetch') return;
        const [path] = event.query.queryKey as [string[]];
        starts.push({ procedure: path.join('.'), pageShown: shown() });
      }),
    );
    return null;
  }
  return { starts, Probe };
}

function renderAt(path: string, Probe: () => null) {
  return render(
    <AppProviders>
      <Probe />
      <MemoryRouter initialEntries={[path]}>
        <AuthProvider>
          <Link to="/profile/bob">to bob</Link>
          <AppRoutes />
        </AuthProvider>
      </MemoryRouter>
    </AppProviders>,
  );
}

const tagAnswers: Handlers = {
  'auth.session': { data: null },
  'tags.summary': { data: { tag: 'pixel_art', postsCount: 1, peopleCount: 1 } },
  'tags.posts': { data: { items: [makePost({ content: 'a tagged post' })], nextCursor: null } },
};

describe('route loaders', () => {
  it("start a page's first queries on the first visit before the page renders, and the page asks for nothing again", async () => {
    const api = fakeTrpc(tagAnswers);
    const { starts, Probe } = fetchStarts(() => !!screen.queryByRole('heading', { name: '#pixel_art' }));
    renderAt('/tags/pixel_art', Probe);
    expect(await screen.findByText('a tagged post')).toBeTruthy();
    expect(starts.filter((s) => s.procedure.startsWith('tags.'))).toEqual([
      { procedure: 'tags.summary', pageShown: false },
      { procedure: 'tags.posts', pageShown: false },
    ]);
    expect(api.called('tags.summary')).toHaveLength(1);
    expect(api.called('tags.posts')).toHaveLength(1);
  });

  it("start the next page's queries on a navigation before it renders", async () => {
    const api = fakeTrpc({
      'auth.session': { data: null },
      'users.byUsername': {
        data: {
          user: bob,
          stats: { followersCount: 0, followingCount: 0, postsCount: 1 },
          isFollowing: false,
          isBlocking: false,
          isBlockedBy: false,
          isMuting: false,
          isSuspended: false,
        },
      },
      'users.posts': { data: { items: [makePost({ content: 'bob was here' })], nextCursor: null } },
    });
    const { starts, Probe } = fetchStarts(
      () =>
        !!screen.queryByText('Loading profile...') || !!screen.queryByRole('heading', { name: 'Bob Block' }),
    );
    renderAt('/no/such/page', Probe);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'to bob' }));
    expect(await screen.findByText('bob was here')).toBeTruthy();
    expect(starts.find((s) => s.procedure === 'users.byUsername')).toEqual({
      procedure: 'users.byUsername',
      pageShown: false,
    });
    expect(api.called('users.byUsername')).toHaveLength(1);
    expect(api.called('users.posts')).toHaveLength(1);
  });

  it('fill any QueryClient outside React, under the keys the pages read', async () => {
    const api = fakeTrpc(tagAnswers);
    const queryClient: QueryClient = createQueryClient();
    const utils = createTRPCQueryUtils({ queryClient, client: createTrpcClient() });
    await loadPageData(utils, '/tags/Pixel_Art');
    expect(api.called('tags.posts').map((c) => c.input)).toMatchObject([
      { tag: 'pixel_art', limit: FEED_PAGE_SIZE },
    ]);
    expect(utils.tags.summary.getData({ tag: 'pixel_art' })?.postsCount).toBe(1);
    expect(
      utils.tags.posts.getInfiniteData({ tag: 'pixel_art', limit: FEED_PAGE_SIZE })?.pages[0]?.items[0]
        ?.content,
    ).toBe('a tagged post');
    await loadPageData(utils, '/search', '?q=cubes');
    expect(api.called('search.query').map((c) => c.input)).toEqual([{ q: 'cubes' }]);
  });

  it("a member's pages (bookmarks, notifications, their own profile) ask for their data once the session is known, and nothing for a visitor", async () => {
    const api = fakeTrpc({});
    const utils = createTRPCQueryUtils({ queryClient: createQueryClient(), client: createTrpcClient() });
    const memberPages = ['/bookmarks', '/notifications', '/profile'];
    for (const session of [undefined, null]) {
      utils.auth.session.setData(undefined, session);
      for (const path of memberPages) await loadPageData(utils, path);
    }
    expect(api.calls).toEqual([]);

    utils.auth.session.setData(undefined, { user: alice, isModerator: false });
    for (const path of memberPages) await loadPageData(utils, path, '?filter=mentions');
    expect(api.calls.map((call) => call.procedure)).toEqual([
      'bookmarks.list',
      'notifications.page',
      'users.byUsername',
    ]);
    expect(api.called('notifications.page')[0]?.input).toMatchObject({ filter: 'mentions' });
    expect(api.called('users.byUsername')[0]?.input).toMatchObject({ username: alice.username });
  });

  it('Chat asks for the conversations before the session has answered where this device knows a member, and not for a visitor', async () => {
    window.localStorage.setItem(
      LAST_MEMBER_KEY,
      JSON.stringify({
        user: { id: alice.id, username: alice.username, displayName: alice.displayName, avatarUrl: null },
        isModerator: false,
      }),
    );
    // The session answers only once the conversations have been asked for: without the loader,
    // the page would wait for the session before asking, and never show.
    let asked: () => void = () => {};
    const conversationsAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const api = fakeTrpc({
      'auth.session': async () => {
        await conversationsAsked;
        return { data: { user: alice, isModerator: false } };
      },
      'messages.conversations': () => {
        asked();
        return { data: [] };
      },
    });
    const { Probe } = fetchStarts(() => false);
    const view = renderAt('/chat', Probe);
    expect(await screen.findByText('No conversations yet')).toBeTruthy();
    expect(api.called('messages.conversations')).toHaveLength(1);
    view.unmount();

    // A visitor's device: the page sends them to /auth, and Chat asks for nothing.
    window.localStorage.clear();
    const visitor = fakeTrpc({ 'auth.session': { data: null } });
    renderAt('/chat', Probe);
    expect(await screen.findByRole('tab', { name: 'Login' })).toBeTruthy();
    expect(visitor.called('messages.conversations')).toHaveLength(0);
  });
});
