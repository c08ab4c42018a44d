/**
 * A post's own page (/posts/{id}): the post from the route's loader, its images at full width,
 * its whole thread open and paged, Back, the not-found state, and the live changes the feed gets.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import superjson from 'superjson';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, AppRoutes, loadPageData } from '../../app';
import { i18n } from '../../lib/i18n';
import { createQueryClient, createTrpcClient, trpc } from '../../lib/trpc';
import PostRoute from '../../routes/post';
import { liveSubscriptions } from '../../test/fake-socket';
import {
  type AnswerOf,
  alice,
  deferred,
  type ErrorAnswer,
  fakeTrpc,
  makePost,
  renderApp,
  sessionKnown,
} from '../../test/fake-trpc';
import { AuthProvider } from '../auth/auth-provider';
import { PostCard } from './post-card';
import { PostCardSlot } from './post-card-slot';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Comment = RouterOutputs['comments']['list']['items'][number];
const comment = (n: number, content = `comment number ${n}`): Comment => ({
  id: `c-${n}`,
  userId: alice.id,
  username: 'alice',
  userDisplayName: 'Alice Cube',
  userAvatarUrl: null,
  content,
  createdAt: new Date().toISOString(),
  mentions: [],
});

const post = makePost({
  content: 'A cube tower, see #pixel_art',
  tags: ['pixel_art'],
  commentsCount: 3,
  images: [
    {
      url: '/objects/uploads/one',
      thumbUrl: '/objects/uploads/one-thumb',
      width: 1200,
      height: 800,
      alt: 'A red cube',
      sensitive: false,
    },
    {
      url: '/objects/uploads/two',
      thumbUrl: '/objects/uploads/two-thumb',
      width: 600,
      height: 900,
      alt: null,
      sensitive: false,
    },
  ],
});
const notFound: ErrorAnswer = {
  error: { message: 'Post not found', code: 'NOT_FOUND', httpStatus: 404 },
};

/** A change to a post, as posts.onChange sends it (not a tracked event). */
function pushChange(data: RouterOutputs['posts']['onChange'] extends AsyncIterable<infer T> ? T : never) {
  const s = liveSubscriptions('posts.onChange')[0]!;
  s.socket.reply({ id: s.id, result: { type: 'data', data: superjson.serialize(data) } });
}

/** The app at `entries` (the last one shown), with a page that names itself for the Back tests. */
function renderAt(entries: (string | { pathname: string; state: unknown })[]) {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
        <AuthProvider>
          <Routes>
            <Route path="/earlier" element={<h1>The earlier page</h1>} />
            <Route path="*" element={<AppRoutes />} />
          </Routes>
        </AuthProvider>
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('the post page', () => {
  it('shows the post, its images at full width with their descriptions, and its whole thread, from its loader', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.byId': { data: { post } },
      'comments.list': (input) =>
        input.cursor === 'page-2'
          ? { data: { items: [comment(3)], nextCursor: null } }
          : { data: { items: [comment(1), comment(2)], nextCursor: 'page-2' } },
    });
    renderApp(`/posts/${post.id}`);
    await sessionKnown();
    expect(await screen.findByRole('heading', { level: 1, name: 'Post' })).toBeTruthy();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    expect(within(card).getByRole('link', { name: '#pixel_art' }).getAttribute('href')).toBe(
      '/tags/pixel_art',
    );
    // Open without a click: the whole thread, paged.
    const thread = within(card).getByRole('region', { name: 'Comments' });
    expect(await within(thread).findByText('comment number 2')).toBeTruthy();
    fireEvent.click(within(thread).getByRole('button', { name: 'Show more comments' }));
    expect(await within(thread).findByText('comment number 3')).toBeTruthy();
    // The full images, each in its own shape, the described one with its words.
    const images = within(card).getByRole('list', { name: '2 images' });
    const [first, second] = within(images).getAllByRole('img');
    expect(first?.getAttribute('src')).toBe('/objects/uploads/one');
    expect(first?.getAttribute('alt')).toBe('A red cube');
    expect([first?.getAttribute('width'), first?.getAttribute('height')]).toEqual(['1200', '800']);
    expect(second?.getAttribute('src')).toBe('/objects/uploads/two');
    expect(second?.getAttribute('alt')).toBe('A cube tower, see #pixel_art');
    expect(within(images).getByText('A red cube')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Post by Bob Block · Cubes AI'));
    // The loader asked once for each; the page asked for nothing again.
    expect(server.called('posts.byId').map((c) => c.input)).toEqual([{ postId: post.id }]);
    expect(server.called('comments.list').map((c) => c.input.cursor ?? null)).toEqual([null, 'page-2']);
  });

  it("shows the card's skeleton while the post is on its way", async () => {
    const gate = deferred<AnswerOf<'posts.byId'>>();
    fakeTrpc({
      'auth.session': { data: null },
      'posts.byId': () => gate.promise,
      'comments.list': { data: { items: [], nextCursor: null } },
    });
    renderApp(`/posts/${post.id}`);
    expect(await screen.findByText('Loading post...')).toBeTruthy();
    gate.resolve({ data: { post } });
    expect(await screen.findByRole('article', { name: 'Post by Bob Block' })).toBeTruthy();
    expect(screen.queryByText('Loading post...')).toBeNull();
  });

  it('adds a comment at the end of the thread, and Comments moves to the comment box', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'posts.byId': { data: { post: makePost({ commentsCount: 1 }) } },
      'comments.list': { data: { items: [comment(1, 'first!')], nextCursor: null } },
      'comments.create': (input) => ({ data: comment(2, input.content) }),
    });
    renderApp(`/posts/${post.id}`);
    await sessionKnown();
    await screen.findByRole('button', { name: 'Account menu' });
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    const box = await within(card).findByLabelText('Write a comment');
    const comments = within(card).getByRole('button', { name: /^Comments,/ });
    expect(comments.getAttribute('aria-expanded')).toBeNull();
    fireEvent.click(comments);
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: 'second' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Comment' }));
    const thread = within(card).getByRole('region', { name: 'Comments' });
    expect(await within(within(thread).getByRole('list')).findByText('second')).toBeTruthy();
    expect(server.called('comments.create')[0]?.input).toEqual({ postId: post.id, content: 'second' });
    await waitFor(() => expect(comments.textContent).toContain('2'));
  });

  it('says an unknown or hidden post is not found, with a way home, and asks once', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.byId': notFound,
      'comments.list': notFound,
    });
    renderApp('/posts/9a1b0c8e-0000-4000-8000-00000000dead');
    await sessionKnown();
    expect(await screen.findByRole('heading', { level: 1, name: 'Post not found' })).toBeTruthy();
    expect(screen.getByText('This post does not exist or is no longer available.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/');
    await waitFor(() => expect(document.title).toBe('Post not found · Cubes AI'));
    expect(server.called('posts.byId')).toHaveLength(1);
  });

  it('becomes not found when the post is deleted while it is read', async () => {
    let deleted = false;
    fakeTrpc({
      'auth.session': { data: null },
      'posts.byId': () => (deleted ? notFound : { data: { post } }),
      'comments.list': { data: { items: [], nextCursor: null } },
    });
    renderApp(`/posts/${post.id}`);
    await sessionKnown();
    await screen.findByRole('article', { name: 'Post by Bob Block' });
    await waitFor(() => expect(liveSubscriptions('posts.onChange')).toHaveLength(1));
    deleted = true;
    pushChange({ postId: post.id, kind: 'deleted' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Post not found' })).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
  });

  it('shows an edit made elsewhere', async () => {
    let content = post.content;
    fakeTrpc({
      'auth.session': { data: null },
      'posts.byId': () => ({
        data: { post: { ...post, content, editedAt: content === post.content ? null : post.createdAt } },
      }),
      'comments.list': { data: { items: [], nextCursor: null } },
    });
    renderApp(`/posts/${post.id}`);
    await sessionKnown();
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    await waitFor(() => expect(liveSubscriptions('posts.onChange')).toHaveLength(1));
    content = 'A taller cube tower';
    pushChange({ postId: post.id, kind: 'edited' });
    expect(await within(card).findByText('A taller cube tower')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Edited: show earlier versions' })).toBeTruthy();
  });
});

describe('the post page rendered outside the browser', () => {
  it('renders from the cache its loader filled alone: the post and its comments, with nothing asked', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'posts.byId': { data: { post } },
      'comments.list': { data: { items: [comment(1)], nextCursor: null } },
    });
    // What a server renderer does (routes/loader.ts): fill a QueryClient, then render once.
    const queryClient = createQueryClient();
    const client = createTrpcClient();
    await loadPageData(createTRPCQueryUtils({ queryClient, client }), `/posts/${post.id}`);
    const asked = server.calls.length;
    const html = renderToString(
      <I18nProvider i18n={i18n}>
        <trpc.Provider client={client} queryClient={queryClient}>
          <QueryClientProvider client={queryClient}>
            <PostCardSlot.Provider value={PostCard}>
              <MemoryRouter initialEntries={[`/posts/${post.id}`]}>
                <AuthProvider>
                  <Routes>
                    <Route path="posts/:id" element={<PostRoute />} />
                  </Routes>
                </AuthProvider>
              </MemoryRouter>
            </PostCardSlot.Provider>
          </QueryClientProvider>
        </trpc.Provider>
      </I18nProvider>,
    );
    expect(html).toContain('A cube tower, see');
    expect(html).toContain('comment number 1');
    expect(html).toContain('src="/objects/uploads/one"');
    expect(html).not.toContain('Loading post...');
    expect(html).not.toContain('Loading comments...');
    expect(server.calls.length).toBe(asked);
  });
});

describe("the post page's Back", () => {
  const answers = () =>
    fakeTrpc({
      'auth.session': { data: null },
      'posts.byId': { data: { post } },
      'comments.list': { data: { items: [], nextCursor: null } },
    });

  it('returns to the page of the app the reader came from', async () => {
    answers();
    renderAt(['/earlier', `/posts/${post.id}`]);
    const back = await screen.findByRole('link', { name: 'Back' });
    fireEvent.click(back);
    expect(await screen.findByRole('heading', { name: 'The earlier page' })).toBeTruthy();
  });

  it('goes home when the page is where the reader landed', async () => {
    answers();
    renderAt([`/posts/${post.id}`]);
    const back = await screen.findByRole('link', { name: 'Back' });
    expect(back.getAttribute('href')).toBe('/');
    fireEvent.click(back);
    expect(await screen.findByRole('heading', { name: 'Community feed' })).toBeTruthy();
  });

  it('goes home after an old link redirected here, though the redirect was a navigation', async () => {
    answers();
    renderAt(['/earlier', { pathname: `/posts/${post.id}`, state: { landed: true } }]);
    fireEvent.click(await screen.findByRole('link', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Community feed' })).toBeTruthy();
  });
});
