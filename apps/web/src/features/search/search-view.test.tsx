import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AnswerOf,
  alice,
  bob,
  fakeTrpc,
  makePost,
  renderApp,
  renderWithApp,
  serverError,
  sessionKnown,
} from '../../test/fake-trpc';
import { markWords } from './highlight';
import { SearchView } from './search-view';

/** The router's current query string, to read what the page put in the URL. */
function Where() {
  return <output data-testid="where">{useLocation().search}</output>;
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const empty = { users: [], posts: [], aiMedia: [] };
type Answer = AnswerOf<'search.query'> & { data: unknown };

function userHit(i: number) {
  return {
    id: `3f2c0d8e-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`,
    username: `user${i}`,
    displayName: `Zebra Fan ${i}`,
    avatarUrl: null,
    bio: null,
    followersCount: i,
    isFollowing: false,
    highlights: ['Zebra'],
  };
}

function mediaHit(i: number) {
  return {
    id: `3f2c0d8e-0000-4000-8000-0000000002${String(i).padStart(2, '0')}`,
    type: 'art' as const,
    title: `Zebra art ${i}`,
    imageUrl: `/objects/uploads/m${i}`,
    width: 640,
    height: 480,
    creator: { id: bob.id, username: 'bob', displayName: 'Bob Block', avatarUrl: null },
    createdAt: new Date().toISOString(),
    favoritesCount: 0,
    isFavorite: false,
    highlights: ['Zebra'],
  };
}

const results = {
  users: Array.from({ length: 5 }, (_, i) => userHit(i)),
  posts: Array.from({ length: 4 }, (_, i) =>
    makePost({ id: `9a1b0c8e-0000-4000-8000-0000000000${i}0`, content: `zebra post ${i}` }),
  ).map((p) => ({
    ...p,
    // The wire's ISO times, whichever form the feed's fixture uses.
    createdAt: new Date(p.createdAt).toISOString(),
    editedAt: p.editedAt === null ? null : new Date(p.editedAt).toISOString(),
    highlights: ['zebra'],
  })),
  aiMedia: Array.from({ length: 8 }, (_, i) => mediaHit(i)),
} satisfies Answer['data'];

describe('search page', () => {
  it("shows 'Suggested for you' for an empty query, and 'No suggestions available' when there are none", async () => {
    fakeTrpc({ 'auth.session': { data: null }, 'search.suggestions': { data: empty } });
    renderApp('/search');
    expect(await screen.findByText('Suggested for you')).toBeTruthy();
    expect(await screen.findByText('No suggestions available')).toBeTruthy();
  });

  it('waits 300 ms after typing, then searches; the All tab caps 3 users, 3 posts, 6 media; links to profiles', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'search.suggestions': { data: empty },
      'search.query': { data: results },
    });
    renderApp('/search');
    const box = await screen.findByRole('searchbox', { name: 'Search' });
    fireEvent.change(box, { target: { value: 'zeb' } });
    fireEvent.change(box, { target: { value: 'zebra' } });
    await new Promise((r) => setTimeout(r, 150));
    expect(server.called('search.query')).toHaveLength(0);
    await waitFor(() => expect(server.called('search.query').map((c) => c.input)).toEqual([{ q: 'zebra' }]));
    const users = await screen.findByRole('region', { name: 'Users' });
    expect(within(users).getAllByRole('article')).toHaveLength(3);
    expect(within(screen.getByRole('region', { name: 'Posts' })).getAllByRole('article')).toHaveLength(3);
    expect(within(screen.getByRole('region', { name: 'AI Media' })).getAllByRole('article')).toHaveLength(6);
    const first = within(users).getAllByRole('link')[0]!;
    expect([first.textContent, first.getAttribute('href')]).toEqual(['Zebra Fan 0', '/profile/user0']);
    expect(users.querySelector('mark')?.textContent).toBe('Zebra');
  });

  it('shows the empty text of each tab', async () => {
    fakeTrpc({ 'auth.session': { data: null }, 'search.query': { data: empty } });
    renderApp('/search?q=nothing');
    expect(await screen.findByText('No results found')).toBeTruthy();
    for (const [tab, text] of [
      ['Users', 'No users found'],
      ['Posts', 'No posts found'],
      ['AI Media', 'No AI media found'],
    ] as const) {
      fireEvent.mouseDown(screen.getByRole('tab', { name: tab }));
      expect(await screen.findByText(text)).toBeTruthy();
    }
  });

  it('keeps the chosen tab while results arrive, and keeps it in the URL', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'search.suggestions': { data: empty },
      'search.query': { data: results },
    });
    renderWithApp(
      <>
        <SearchView />
        <Where />
      </>,
      '/search',
    );
    expect(await screen.findByText('No suggestions available')).toBeTruthy();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Posts' }));
    expect(screen.getByRole('tab', { name: 'Posts' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'zebra' } });
    await waitFor(() => expect(server.called('search.query')).toHaveLength(1));
    // The Posts tab, with all four posts (the All tab would show three).
    const panel = await screen.findByRole('tabpanel', { name: 'Posts' });
    await waitFor(() => expect(within(panel).getAllByRole('article')).toHaveLength(4));
    expect(screen.getByRole('tab', { name: 'Posts' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('where').textContent).toBe('?q=zebra&tab=posts');
    // Back to All: the tab leaves the URL.
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'All' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('?q=zebra'));
  });

  it('opens on the tab the URL names; an unknown tab is All', async () => {
    fakeTrpc({ 'auth.session': { data: null }, 'search.query': { data: results } });
    const { unmount } = renderApp('/search?q=zebra&tab=users');
    const panel = await screen.findByRole('tabpanel', { name: 'Users' });
    expect(within(panel).getAllByRole('article')).toHaveLength(5);
    unmount();
    renderApp('/search?q=zebra&tab=%00nope');
    expect(await screen.findByRole('tab', { name: 'All' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).toBe('true');
  });

  it("says 'Search failed' when the query fails", async () => {
    fakeTrpc({ 'auth.session': { data: null }, 'search.query': serverError });
    renderApp('/search?q=boom');
    expect(await screen.findByText('Search failed')).toBeTruthy();
  });

  it('follows from a card with the count updated', async () => {
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      'search.query': { data: { ...empty, users: [userHit(7)] } },
      'follows.follow': { data: { following: true, followersCount: 8 } },
    });
    renderApp('/search?q=zebra');
    await sessionKnown();
    fireEvent.click(await screen.findByRole('button', { name: 'Follow Zebra Fan 7' }));
    expect(await screen.findByText('8 followers')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unfollow Zebra Fan 7' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    // What it shows is what it does (label in name), as on the Followers and Following lists.
    expect(screen.getByRole('button', { name: 'Unfollow Zebra Fan 7' }).textContent).toBe('Unfollow');
    expect(server.called('follows.follow')).toHaveLength(1);
  });

  it('Escape clears the box', async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'search.query': { data: empty },
      'search.suggestions': { data: empty },
    });
    renderApp('/search?q=abc');
    const box = (await screen.findByRole('searchbox', { name: 'Search' })) as HTMLInputElement;
    expect(box.value).toBe('abc');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.value).toBe('');
  });
});

describe('tags in search', () => {
  const found = [
    { tag: 'cubes', postsCount: 12, peopleCount: 3 },
    { tag: 'cubeart', postsCount: 1, peopleCount: 1 },
  ];

  it('lists the tags the query starts, as links with their counts, in the All and Tags tabs', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'search.query': { data: { ...empty, posts: results.posts.slice(0, 1) } },
      'tags.search': { data: found },
    });
    renderApp('/search?q=%23CUbe');
    const region = await screen.findByRole('region', { name: 'Tags' });
    expect(within(region).getByRole('heading', { name: 'Tags' })).toBeTruthy();
    const links = within(within(region).getByRole('list')).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['#cubes, 12 posts · 3 people', '/tags/cubes'],
      ['#cubeart, 1 post · 1 person', '/tags/cubeart'],
    ]);
    expect(links[0]?.querySelector('mark')?.textContent).toBe('cube');
    // The query folded, `#` dropped, as the server folds it.
    expect(server.called('tags.search').map((c) => c.input)).toEqual([{ q: 'cube' }]);
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Tags' }));
    const panel = await screen.findByRole('tabpanel', { name: 'Tags' });
    expect(within(panel).getAllByRole('link')).toHaveLength(2);
  });

  it('shows tags when they are all that matched, and nothing of tags when none did', async () => {
    fakeTrpc({
      'auth.session': { data: null },
      'search.query': { data: empty },
      'tags.search': (input) => ({ data: input.q === 'cube' ? found : [] }),
    });
    const { unmount } = renderApp('/search?q=cube');
    expect(await screen.findByRole('link', { name: /#cubes/ })).toBeTruthy();
    expect(screen.queryByText('No results found')).toBeNull();
    unmount();
    renderApp('/search?q=zzz');
    expect(await screen.findByText('No results found')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Tags' })).toBeNull();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Tags' }));
    expect(await screen.findByText('No tags found')).toBeTruthy();
  });

  it('does not ask for tags when the query could start none', async () => {
    const server = fakeTrpc({
      'auth.session': { data: null },
      'search.query': { data: results },
      'tags.search': { data: found },
    });
    renderApp('/search?q=zebra%20stripes');
    await screen.findByRole('region', { name: 'Users' });
    expect(server.called('tags.search')).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Tags' })).toBeNull();
  });
});

describe('markWords', () => {
  it('marks whole words, case-insensitively, and treats regex characters as text', () => {
    expect(markWords('Run, runner, RUN!', ['run'])).toEqual([
      { text: 'Run', marked: true },
      { text: ', runner, ', marked: false },
      { text: 'RUN', marked: true },
      { text: '!', marked: false },
    ]);
    expect(markWords('a.b (c)', ['.', '('])).toEqual([{ text: 'a.b (c)', marked: false }]);
  });
});

describe('a post result (issue #46, bug 14)', () => {
  it('is the feed’s card: opened, liked and replied to, its #tags and @mentions linked, the match marked', async () => {
    const post = makePost({
      content: 'Zebra cubes with @alice #voxel',
      mentions: [{ id: alice.id, username: 'alice' }],
      tags: ['voxel'],
    });
    let liked = false;
    const server = fakeTrpc({
      'auth.session': { data: { user: alice, isModerator: false } },
      // The server's answer follows the like, as the real one does when asked again.
      'search.query': () => ({
        data: {
          ...empty,
          posts: [{ ...post, isLiked: liked, likesCount: liked ? 1 : 0, highlights: ['Zebra'] }],
        },
      }),
      'posts.like': () => {
        liked = true;
        return { data: { liked: true, likesCount: 1 } };
      },
      'comments.list': { data: { items: [], nextCursor: null } },
    });
    renderApp('/search?q=zebra&tab=posts');
    const card = await screen.findByRole('article', { name: 'Post by Bob Block' });
    expect(within(card).getByText('Zebra').tagName).toBe('MARK');
    expect(within(card).getByRole('link', { name: '#voxel' }).getAttribute('href')).toBe('/tags/voxel');
    expect(within(card).getByRole('link', { name: '@alice' }).getAttribute('href')).toBe('/profile/alice');
    expect(
      within(card)
        .getByRole('link', { name: /open the post/ })
        .getAttribute('href'),
    ).toBe(`/posts/${post.id}`);
    fireEvent.click(within(card).getByRole('button', { name: 'Like, 0 likes' }));
    await waitFor(() =>
      expect(server.called('posts.like').map((c) => c.input)).toEqual([{ postId: post.id }]),
    );
    expect(await within(card).findByRole('button', { name: 'Unlike, 1 like' })).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Comments, 0 comments' }));
    expect(await within(card).findByRole('textbox', { name: /comment/i })).toBeTruthy();
  });
});
