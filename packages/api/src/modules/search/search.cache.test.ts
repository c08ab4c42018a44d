import { describe, expect, it, vi } from 'vitest';
import { cachesHear } from '../../kept-reads.js';
import { isShared } from '../../shared-json.js';
import {
  CACHED_LIMITS,
  cachedAnswer,
  cachedSearch,
  markedIds,
  SEARCH_POSTS_TTL_MS,
  SEARCH_SPARE,
  searchAnswers,
  viewerCopy,
} from './search.cache.js';
import { SEARCH_LIMITS, type SearchMedia, type SearchPost, type SearchUser } from './search.schema.js';

const user = (i: number): SearchUser => ({
  id: `u${i}`,
  username: `user${i}`,
  displayName: `User ${i}`,
  avatarUrl: null,
  bio: null,
  followersCount: 0,
  isFollowing: false,
  highlights: [],
});

const post = (i: number, author = `a${i}`): SearchPost => ({
  id: `p${i}`,
  userId: author,
  username: author,
  userDisplayName: author,
  userAvatarUrl: null,
  content: 'zebra',
  contentWarning: null,
  imageUrl: null,
  images: [],
  likesCount: 0,
  commentsCount: 0,
  repostsCount: 0,
  isLiked: false,
  isReposted: false,
  repostedBy: null,
  pinned: false,
  quotePostId: null,
  quote: null,
  isBookmarked: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  editedAt: null,
  mentions: [],
  tags: [],
  linkCard: null,
  poll: null,
  highlights: [],
});

const media = (i: number, creator = `c${i}`): SearchMedia => ({
  id: `m${i}`,
  type: 'art',
  title: 'Zebra',
  imageUrl: '/objects/uploads/m',
  width: 1,
  height: 1,
  creator: { id: creator, username: creator, displayName: creator, avatarUrl: null },
  createdAt: '2026-01-01T00:00:00.000Z',
  favoritesCount: 0,
  isFavorite: false,
  highlights: [],
});

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const noMarks = { blocked: [], following: [], liked: [], bookmarked: [], favorited: [] };
const text = { q: ['', ['zebra']] as [string, string[]], fuzzy: 'zebra' };

describe('cachedAnswer', () => {
  it('keeps the spare results in `full` and gives visitors the first SEARCH_LIMITS, shared', () => {
    const users = range(CACHED_LIMITS.users).map(user);
    const posts = range(CACHED_LIMITS.posts).map((i) => post(i));
    const aiMedia = range(CACHED_LIMITS.aiMedia).map((i) => media(i));
    const ranks = posts.map((p, i) => ({ id: p.id, score: -i, createdAt: p.createdAt }));
    const answer = cachedAnswer({ text, users, aiMedia }, { posts, ranks });
    expect(answer.full.posts).toHaveLength(SEARCH_LIMITS.posts + SEARCH_SPARE);
    expect(answer.visitor.users).toHaveLength(SEARCH_LIMITS.users);
    expect(answer.visitor.posts).toHaveLength(SEARCH_LIMITS.posts);
    expect(answer.visitor.aiMedia).toHaveLength(SEARCH_LIMITS.aiMedia);
    expect(isShared(answer.visitor)).toBe(true);
    expect(answer.ranks).toBe(ranks);
  });
});

describe('markedIds', () => {
  it('names every person once: users, post authors and media creators', () => {
    const ids = markedIds({ users: [user(1)], posts: [post(1, 'u1'), post(2)], aiMedia: [media(1, 'a2')] });
    expect(ids.people.sort()).toEqual(['a2', 'u1']);
    expect(ids).toMatchObject({ users: ['u1'], posts: ['p1', 'p2'], media: ['m1'] });
  });
});

describe('viewerCopy', () => {
  it("marks the viewer's follows, likes and favourites on copies, leaving the kept answer as it was", () => {
    const full = { users: [user(1), user(2)], posts: [post(1)], aiMedia: [media(1)] };
    const copy = viewerCopy(full, {
      blocked: [],
      following: ['u2'],
      liked: ['p1'],
      bookmarked: ['p1'],
      favorited: ['m1'],
    })!;
    expect(copy.users.map((u) => u.isFollowing)).toEqual([false, true]);
    expect(copy.posts[0]!.isLiked).toBe(true);
    expect(copy.posts[0]!.isBookmarked).toBe(true);
    expect(full.posts[0]!.isBookmarked).toBe(false);
    expect(copy.aiMedia[0]!.isFavorite).toBe(true);
    expect(full.users[1]!.isFollowing).toBe(false);
    expect(full.posts[0]!.isLiked).toBe(false);
    expect(copy.users[0]).toBe(full.users[0]);
    expect(isShared(copy)).toBe(true);
  });

  it('leaves out everything of a member blocked either way, and cuts each kind to its page', () => {
    const full = {
      users: range(CACHED_LIMITS.users).map(user),
      posts: [post(1, 'u0'), post(2)],
      aiMedia: [media(1, 'u0'), media(2)],
    };
    const copy = viewerCopy(full, { ...noMarks, blocked: ['u0'] })!;
    expect(copy.users.map((u) => u.id)).toEqual(range(SEARCH_LIMITS.users).map((i) => `u${i + 1}`));
    expect(copy.posts.map((p) => p.id)).toEqual(['p2']);
    expect(copy.aiMedia.map((m) => m.id)).toEqual(['m2']);
  });

  it('gives null when blocks leave a full kind short of its page: only a search of their own can tell', () => {
    const users = range(CACHED_LIMITS.users).map(user);
    const blocked = users.slice(0, SEARCH_SPARE + 1).map((u) => u.id);
    expect(viewerCopy({ users, posts: [], aiMedia: [] }, { ...noMarks, blocked })).toBeNull();
    // A kind that was not full has nothing more to find.
    const few = users.slice(0, SEARCH_LIMITS.users);
    expect(viewerCopy({ users: few, posts: [], aiMedia: [] }, { ...noMarks, blocked })!.users).toHaveLength(
      SEARCH_LIMITS.users - blocked.length,
    );
  });
});

describe('cachedSearch', () => {
  it('reads the posts again after SEARCH_POSTS_TTL_MS and the people after the TTL, each once for concurrent requests', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const scope = {};
      const source = {};
      const calls = { people: 0, posts: 0 };
      const parts = {
        people: async () => {
          calls.people += 1;
          return calls.people;
        },
        answer: async (people: number) => {
          calls.posts += 1;
          return { people, posts: calls.posts };
        },
        merge: async (answer: { people: number; posts: number }) => answer,
      };
      const ask = () => cachedSearch(scope, source, 'zebra', parts);
      expect(await Promise.all([ask(), ask()])).toEqual([
        { people: 1, posts: 1 },
        { people: 1, posts: 1 },
      ]);
      vi.setSystemTime(Date.now() + SEARCH_POSTS_TTL_MS - 1);
      expect(await ask()).toEqual({ people: 1, posts: 1 });
      vi.setSystemTime(Date.now() + 1);
      expect(await Promise.all([ask(), ask()])).toEqual([
        { people: 1, posts: 2 },
        { people: 1, posts: 2 },
      ]);
      vi.setSystemTime(Date.now() + searchAnswers.ttlMs);
      expect(await ask()).toEqual({ people: 2, posts: 3 });
      expect(calls).toEqual({ people: 2, posts: 3 });

      // A suspension ending before the TTL: the people are read again from that moment.
      const until = Date.now() + 300;
      const soon = { ...parts, peopleUntil: () => until };
      await cachedSearch(scope, source, 'okapi', soon);
      vi.setSystemTime(until - 1);
      await cachedSearch(scope, source, 'okapi', soon);
      expect(calls.people).toBe(3);
      vi.setSystemTime(until);
      await cachedSearch(scope, source, 'okapi', soon);
      expect(calls.people).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads again the posts of the answers that show a liked, commented or reposted post, and of those still loading', async () => {
    const scope = {};
    const source = {};
    let reads = 0;
    let arrive: (() => void) | null = null;
    const parts = {
      people: async () => 0,
      answer: async () => {
        reads += 1;
        // The first reading waits, so that a like can come while it loads.
        if (reads === 1) await new Promise<void>((resolve) => (arrive = resolve));
        return { reads, shown: ['p1', 'p2'] };
      },
      merge: async (answer: { reads: number; shown: string[] }) => answer,
      postIds: (answer: { reads: number; shown: string[] }) => answer.shown,
    };
    const ask = () => cachedSearch(scope, source, 'zebra', parts);
    const first = ask();
    await vi.waitFor(() => expect(arrive).not.toBeNull());
    // Liked while the answer loads: its reading may have begun before the like.
    cachesHear(scope, 'likes', { postId: 'p9', userId: 'bob', likesCount: 1, authorId: 'x' });
    arrive!();
    expect(await first).toEqual({ reads: 1, shown: ['p1', 'p2'] });
    expect(await ask()).toEqual({ reads: 2, shown: ['p1', 'p2'] });
    expect(await ask()).toMatchObject({ reads: 2 });
    // A post the answer does not show changes nothing; one it shows reads its posts again.
    cachesHear(scope, 'likes', { postId: 'p9', userId: 'bob', likesCount: 2, authorId: 'x' });
    cachesHear(scope, 'comments', { postId: 'p8', userId: 'bob' });
    expect(await ask()).toMatchObject({ reads: 2 });
    cachesHear(scope, 'likes', { postId: 'p1', userId: 'bob', likesCount: 1, authorId: 'x' });
    expect(await ask()).toMatchObject({ reads: 3 });
    cachesHear(scope, 'comments', { postId: 'p2', userId: 'bob' });
    expect(await ask()).toMatchObject({ reads: 4 });
    cachesHear(scope, 'reposts', { postId: 'p1', userId: 'bob', reposted: true, repostsCount: 1 });
    expect(await ask()).toMatchObject({ reads: 5 });
    expect(await ask()).toMatchObject({ reads: 5 });
  });
});
