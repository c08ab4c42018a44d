import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMember, useDatabase, visitor } from '../../../test/harness.js';
import { publishEvent } from '../../context.js';
import { createMemoryEventBus } from '../../events/event-bus.js';
import { cachesHear } from '../../kept-reads.js';
import { sharedJson } from '../../shared-json.js';
import {
  cachedCommentsHead,
  cachedFeedHead,
  cachedProfileHead,
  FEED_PAGES_MAX_HEADS,
  feedPages,
  type HeadSource,
  PROFILE_PAGES_TTL_MS,
  profilePages,
} from './feed.cache.js';

const FEED_CACHE_TTL_MS = feedPages.ttlMs;
const invalidateFeed = (scope: object) => cachesHear(scope, 'posts', { postId: 'p0', authorId: 'u0' });

import type { PostDto, PostPage } from './post.serializer.js';

const db = useDatabase();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the cached first feed page', () => {
  it('reflects every write made through this process at once, with each viewer’s own likes', async () => {
    const bob = await createMember(db.orm);
    const alice = await createMember(db.orm);
    const carol = await createMember(db.orm);
    const { post } = await bob.caller.posts.create({ content: 'fresh from the oven' });
    expect((await visitor(db.orm).posts.feed({ limit: 5 })).items[0]?.id).toBe(post.id);

    await alice.caller.posts.like({ postId: post.id });
    const forAlice = (await alice.caller.posts.feed({ limit: 5 })).items[0]!;
    const forCarol = (await carol.caller.posts.feed({ limit: 5 })).items[0]!;
    expect(forAlice).toMatchObject({ id: post.id, likesCount: 1, isLiked: true });
    expect(forCarol).toMatchObject({ id: post.id, likesCount: 1, isLiked: false });

    await alice.caller.comments.create({ postId: post.id, content: 'yum' });
    expect((await carol.caller.posts.feed({ limit: 5 })).items[0]?.commentsCount).toBe(1);
    await bob.caller.settings.update({ displayName: 'Bob the Baker' });
    expect((await carol.caller.posts.feed({ limit: 5 })).items[0]?.userDisplayName).toBe('Bob the Baker');

    await alice.caller.posts.unlike({ postId: post.id });
    expect((await alice.caller.posts.feed({ limit: 5 })).items[0]).toMatchObject({
      likesCount: 0,
      isLiked: false,
    });
  });

  it('keeps later pages too: a like or comment shows at once, a new post leaves them, a mute hides', async () => {
    const [erin, frank, gina] = [
      await createMember(db.orm),
      await createMember(db.orm),
      await createMember(db.orm),
    ];
    const { post: older } = await erin.caller.posts.create({ content: 'on the second page' });
    await frank.caller.posts.create({ content: 'on the first page' });
    const first = await gina.caller.posts.feed({ limit: 1 });
    const cursor = first.nextCursor!;
    const page2 = () => gina.caller.posts.feed({ limit: 1, cursor });
    expect((await page2()).items[0]).toMatchObject({ id: older.id, likesCount: 0, isLiked: false });

    await gina.caller.posts.like({ postId: older.id });
    expect((await page2()).items[0]).toMatchObject({ id: older.id, likesCount: 1, isLiked: true });
    expect((await frank.caller.posts.feed({ limit: 1, cursor })).items[0]).toMatchObject({ isLiked: false });
    await frank.caller.comments.create({ postId: older.id, content: 'seen it' });
    expect((await page2()).items[0]?.commentsCount).toBe(1);
    // A new post lands before the cursor: the page after it is the same.
    await frank.caller.posts.create({ content: 'newer still' });
    expect((await page2()).items[0]?.id).toBe(older.id);
    await gina.caller.safety.mute({ userId: erin.user.id });
    expect((await page2()).items).toEqual([]);
    expect((await frank.caller.posts.feed({ limit: 1, cursor })).items[0]?.id).toBe(older.id);
  });

  it('shows writes made elsewhere (another instance) within a second', async () => {
    const dan = await createMember(db.orm);
    await visitor(db.orm).posts.feed({ limit: 5 }); // warm the cache
    const id = randomUUID();
    await db.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into posts (id, author_id, content, created_at) values (?, ?, 'from elsewhere', now())`,
        [id, dan.user.id],
      );
    await sleep(FEED_CACHE_TTL_MS + 50);
    expect((await visitor(db.orm).posts.feed({ limit: 5 })).items[0]?.id).toBe(id);
  });
});

describe('the first-page cache itself', () => {
  const post = (id: string, userId = 'u'): PostDto => ({
    id,
    userId,
    username: 'u',
    userDisplayName: 'U',
    userAvatarUrl: null,
    content: id,
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
    createdAt: '2026-11-21T10:00:00.000Z',
    editedAt: null,
    mentions: [],
    tags: [],
    linkCard: null,
    poll: null,
  });
  /** A source that counts its calls; alice likes p2; carol hides the author of p1 (`u1`). */
  function source(
    likes: Record<string, string[]> = { alice: ['p2'] },
    hides: Record<string, string[]> = {},
    bookmarks: Record<string, string[]> = {},
  ) {
    const calls = { load: 0, liked: [] as string[] };
    const src: HeadSource<PostPage> = {
      async load(): Promise<PostPage> {
        calls.load += 1;
        return { items: [post('p1', 'u1'), post('p2')], nextCursor: 'next' };
      },
      async viewerMarks(viewerId, postIds, authorIds) {
        calls.liked.push(viewerId);
        return {
          liked: new Set(postIds.filter((id) => likes[viewerId]?.includes(id))),
          reposted: new Set<string>(),
          bookmarked: new Set(postIds.filter((id) => bookmarks[viewerId]?.includes(id))),
          hidden: new Set(authorIds.filter((id) => hides[viewerId]?.includes(id))),
        };
      },
    };
    return { src, calls };
  }
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads a page once for everyone and looks up each viewer’s likes once per page', async () => {
    const scope = {};
    const { src, calls } = source();
    const [visitorPage, forAlice, forBob] = await Promise.all([
      cachedFeedHead(scope, 20, null, src),
      cachedFeedHead(scope, 20, 'alice', src),
      cachedFeedHead(scope, 20, 'bob', src),
    ]);
    expect(calls.load).toBe(1);
    expect(visitorPage.items.map((p) => p.isLiked)).toEqual([false, false]);
    expect(forAlice.items.map((p) => p.isLiked)).toEqual([false, true]);
    expect(forAlice.items[0]).toBe(visitorPage.items[0]); // unliked posts are shared, not copied
    expect(forBob).toBe(visitorPage); // likes nothing here: the visitors' page itself
    expect(forAlice.nextCursor).toBe('next');

    expect(await cachedFeedHead(scope, 20, 'alice', src)).toBe(forAlice);
    expect(calls).toEqual({ load: 1, liked: ['alice', 'bob'] });
    // Shared pages are encoded once.
    expect(sharedJson(forAlice.items)?.toString()).toBe(JSON.stringify(forAlice.items));
    // Another page size is another page.
    await cachedFeedHead(scope, 5, null, src);
    expect(calls.load).toBe(2);
  });

  it('leaves a viewer’s hidden authors out of their copy only, keeping the next cursor', async () => {
    const scope = {};
    const { src } = source({ carol: ['p2'] }, { carol: ['u1'] });
    const forCarol = await cachedFeedHead(scope, 20, 'carol', src);
    expect(forCarol.items.map((p) => [p.id, p.isLiked])).toEqual([['p2', true]]);
    expect(forCarol.nextCursor).toBe('next');
    expect((await cachedFeedHead(scope, 20, null, src)).items.map((p) => p.id)).toEqual(['p1', 'p2']);
  });

  it('marks a viewer’s bookmarks on their copy only, and looks them up again after they bookmark', async () => {
    const scope = {};
    const bookmarks: Record<string, string[]> = { dave: ['p1'] };
    const { src, calls } = source({}, {}, bookmarks);
    const bus = createMemoryEventBus();
    const ctx = { cacheScope: scope, bus, logError: undefined };
    const forDave = await cachedFeedHead(scope, 20, 'dave', src);
    expect(forDave.items.map((p) => [p.id, p.isBookmarked])).toEqual([
      ['p1', true],
      ['p2', false],
    ]);
    const forErin = await cachedFeedHead(scope, 20, 'erin', src);
    expect(forErin.items.every((p) => !p.isBookmarked)).toBe(true);
    bookmarks.dave = ['p1', 'p2'];
    publishEvent(ctx, 'bookmarks', { postId: 'p2', userId: 'dave' });
    const again = await cachedFeedHead(scope, 20, 'dave', src);
    expect(again.items.map((p) => p.isBookmarked)).toEqual([true, true]);
    // Erin's copy stays; the page itself was not loaded again.
    expect(await cachedFeedHead(scope, 20, 'erin', src)).toBe(forErin);
    expect(calls).toEqual({ load: 1, liked: ['dave', 'erin', 'dave'] });
  });

  it('drops the page and every viewer copy on a local write, and after a second', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const scope = {};
    const { src, calls } = source();
    await cachedFeedHead(scope, 20, 'alice', src);
    invalidateFeed(scope);
    await cachedFeedHead(scope, 20, 'alice', src);
    expect(calls).toEqual({ load: 2, liked: ['alice', 'alice'] });

    vi.setSystemTime(Date.now() + FEED_CACHE_TTL_MS - 1);
    await cachedFeedHead(scope, 20, 'alice', src);
    expect(calls.load).toBe(2);
    vi.setSystemTime(Date.now() + 1);
    await cachedFeedHead(scope, 20, 'alice', src);
    expect(calls).toEqual({ load: 3, liked: ['alice', 'alice', 'alice'] });
    // Other databases (scopes) are untouched by this one's writes.
    const other = {};
    await cachedFeedHead(other, 20, null, src);
    invalidateFeed(scope);
    await cachedFeedHead(other, 20, null, src);
    expect(calls.load).toBe(4);
  });

  /** A profile's page: `<author>-a`, and `<author>-b` quoting `q-<author>`; it counts its loads. */
  function profileSource(authorId: string, loads: string[]): HeadSource<PostPage> {
    return {
      async load() {
        loads.push(authorId);
        const quoting = { ...post(`${authorId}-b`, authorId), quotePostId: `q-${authorId}` };
        return { items: [post(`${authorId}-a`, authorId), quoting], nextCursor: null };
      },
      async viewerMarks() {
        return { liked: new Set(), reposted: new Set(), bookmarked: new Set(), hidden: new Set() };
      },
    };
  }

  it('patches at a like only the pages that show its post, however many profiles are kept', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const scope = {};
    const loads: string[] = [];
    const profile = (i: number) =>
      cachedProfileHead(scope, `author${i}`, 20, null, profileSource(`author${i}`, loads));
    const before = await Promise.all(Array.from({ length: 50 }, (_, i) => profile(i)));
    expect(profilePages.store(scope).size).toBe(50);
    cachesHear(scope, 'likes', { postId: 'author7-a', userId: 'bob', likesCount: 4, authorId: 'author7' });
    const after = await Promise.all(Array.from({ length: 50 }, (_, i) => profile(i)));
    expect(after[7]!.items.map((p) => p.likesCount)).toEqual([4, 0]);
    expect(after.filter((page, i) => page !== before[i])).toEqual([after[7]]);
    // A like of a post a page only quotes changes no count there.
    cachesHear(scope, 'likes', { postId: 'q-author3', userId: 'bob', likesCount: 1, authorId: 'x' });
    expect(await profile(3)).toBe(after[3]);
    // A page past its TTL that shows the post goes at the like, and is read again.
    vi.setSystemTime(Date.now() + PROFILE_PAGES_TTL_MS);
    cachesHear(scope, 'likes', { postId: 'author9-a', userId: 'bob', likesCount: 1, authorId: 'author9' });
    expect(profilePages.store(scope).has('user:author9:20')).toBe(false);
    expect(loads.length).toBe(50);
  });

  it('keeps a profile’s first page until an event changes what it shows (or its TTL)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const scope = {};
    const loads: string[] = [];
    const sources = new Map<string, HeadSource<PostPage>>();
    const page = (author: string, viewer: string | null = null) => {
      if (!sources.has(author)) sources.set(author, profileSource(author, loads));
      return cachedProfileHead(scope, author, 20, viewer, sources.get(author)!);
    };
    const reads = async () => {
      loads.length = 0;
      await Promise.all(['ann', 'ben', 'cai'].map((author) => page(author)));
      return [...loads];
    };
    await reads();
    // Past the feed's second, and anything that does not touch what it shows: kept.
    vi.setSystemTime(Date.now() + FEED_CACHE_TTL_MS * 5);
    cachesHear(scope, 'posts', { postId: 'n1', authorId: 'dee' });
    cachesHear(scope, 'comments', { postId: 'elsewhere', userId: 'dee' });
    cachesHear(scope, 'postChanges', { postId: 'elsewhere', kind: 'edited', authorId: 'dee', hidden: false });
    cachesHear(scope, 'relations', { userId: 'ann', otherId: 'ben', kind: 'follow' });
    expect(await reads()).toEqual([]);
    // A new post by the member, a comment on a post it shows, an edit of a post it quotes.
    cachesHear(scope, 'posts', { postId: 'n2', authorId: 'ann' });
    cachesHear(scope, 'comments', { postId: 'ben-a', userId: 'dee' });
    cachesHear(scope, 'postChanges', { postId: 'q-cai', kind: 'deleted', authorId: 'eve', hidden: false });
    expect(await reads()).toEqual(['ann', 'ben', 'cai']);
    // A deletion of a post by the member that the page does not show, and a repost by them.
    cachesHear(scope, 'postChanges', { postId: 'older', kind: 'deleted', authorId: 'ann', hidden: false });
    cachesHear(scope, 'reposts', { postId: 'x', userId: 'ben', reposted: true, repostsCount: 1 });
    expect(await reads()).toEqual(['ann', 'ben']);
    // A name, an account, other instances' counts: all of them.
    for (const drop of [
      () => cachesHear(scope, 'profiles', { userId: 'dee' }),
      () => cachesHear(scope, 'accounts', { userId: 'dee', change: 'suspended' }),
      () => cachesHear(scope, 'feed', {}),
    ]) {
      drop();
      expect(await reads()).toEqual(['ann', 'ben', 'cai']);
    }
    // A block changes the two members' copies only: the page itself stays.
    const forDee = await page('ann', 'dee');
    cachesHear(scope, 'relations', { userId: 'dee', otherId: 'fay', kind: 'block' });
    expect(await reads()).toEqual([]);
    expect(await page('ann', 'dee')).toEqual(forDee);
    // And the TTL.
    vi.setSystemTime(Date.now() + PROFILE_PAGES_TTL_MS);
    expect(await reads()).toEqual(['ann', 'ben', 'cai']);
  });

  it('answers a profile’s page past its lifetime while one reload runs behind it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const scope = {};
    const loads: string[] = [];
    const src = profileSource('gus', loads);
    const read = () => cachedProfileHead(scope, 'gus', 20, null, src);
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const first = await read();
    vi.setSystemTime(Date.now() + PROFILE_PAGES_TTL_MS);
    // Past it: the old page answers at once, and one reload starts for all its readers.
    expect(await Promise.all([read(), read()])).toEqual([first, first]);
    expect(loads).toEqual(['gus', 'gus']);
    await settle();
    const reloaded = await read();
    expect(reloaded).not.toBe(first);
    expect(loads).toHaveLength(2);
    // An event while a reload runs: the reload may have read before the write, so it is dropped.
    vi.setSystemTime(Date.now() + PROFILE_PAGES_TTL_MS);
    expect(await read()).toBe(reloaded);
    cachesHear(scope, 'comments', { postId: 'gus-a', userId: 'hal' });
    await settle();
    expect(profilePages.store(scope).has('user:gus:20')).toBe(false);
    expect(loads).toHaveLength(3);
    // Past two lifetimes a page no longer answers: its reader waits for the database.
    await read();
    vi.setSystemTime(Date.now() + 2 * PROFILE_PAGES_TTL_MS);
    const waited = await read();
    expect(loads).toHaveLength(5);
    expect(await read()).toBe(waited);
  });

  it('draws each profile page’s lifetime between 75 % and all of the TTL', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const loads: string[] = [];
    const random = vi.spyOn(Math, 'random');
    try {
      for (const [draw, freshUntil] of [
        [0, PROFILE_PAGES_TTL_MS],
        [1, PROFILE_PAGES_TTL_MS * 0.75],
      ] as const) {
        random.mockReturnValue(draw);
        const scope = {};
        const src = profileSource('ida', loads);
        await cachedProfileHead(scope, 'ida', 20, null, src);
        const start = Date.now();
        vi.setSystemTime(start + freshUntil - 1);
        await cachedProfileHead(scope, 'ida', 20, null, src);
        expect(loads).toHaveLength(draw === 0 ? 1 : 3);
        vi.setSystemTime(start + freshUntil);
        await cachedProfileHead(scope, 'ida', 20, null, src);
        expect(loads).toHaveLength(draw === 0 ? 2 : 4);
      }
    } finally {
      random.mockRestore();
    }
  });

  it('patches the likesCount of a cached page on a local like instead of dropping it', async () => {
    const scope = {};
    const likes: Record<string, string[]> = { alice: ['p2'] };
    const { src, calls } = source(likes);
    const bus = createMemoryEventBus();
    const feedEvents: unknown[] = [];
    bus.on('feed', (e) => feedEvents.push(e));
    const ctx = { cacheScope: scope, bus, logError: undefined };
    const before = await cachedFeedHead(scope, 20, null, src);
    const bobBefore = await cachedFeedHead(scope, 20, 'bob', src);
    await cachedFeedHead(scope, 20, 'alice', src);

    // Bob likes p1 (now 1 like): the page is patched, not loaded again, and only Bob's own likes
    // are looked up again; Alice's copy is remade from her known likes.
    likes.bob = ['p1'];
    publishEvent(ctx, 'likes', { postId: 'p1', userId: 'bob', likesCount: 1, authorId: null });
    const after = await cachedFeedHead(scope, 20, null, src);
    expect(after).not.toBe(before);
    expect(before.items[0]?.likesCount).toBe(0); // pages already handed out are never edited
    expect(after.items.map((p) => [p.id, p.likesCount, p.isLiked])).toEqual([
      ['p1', 1, false],
      ['p2', 0, false],
    ]);
    expect(sharedJson(after)?.toString()).toBe(JSON.stringify(after));
    const forBob = await cachedFeedHead(scope, 20, 'bob', src);
    const forAlice = await cachedFeedHead(scope, 20, 'alice', src);
    expect(forBob.items.map((p) => [p.likesCount, p.isLiked])).toEqual([
      [1, true],
      [0, false],
    ]);
    expect(bobBefore.items[0]?.isLiked).toBe(false);
    expect(forAlice.items.map((p) => [p.likesCount, p.isLiked])).toEqual([
      [1, false],
      [0, true],
    ]);
    expect(await cachedFeedHead(scope, 20, 'alice', src)).toBe(forAlice);
    expect(calls).toEqual({ load: 1, liked: ['bob', 'alice', 'bob'] });

    // A like of a post that is not on the page changes nothing here.
    publishEvent(ctx, 'likes', { postId: 'p9', userId: 'alice', likesCount: 7, authorId: null });
    expect(await cachedFeedHead(scope, 20, null, src)).toBe(after);
    expect(await cachedFeedHead(scope, 20, 'alice', src)).toBe(forAlice);
    // Other instances hear that the feed changed (windowed to one event per burst).
    await vi.waitFor(() => expect(feedEvents.length).toBeGreaterThan(0));
    await bus.close();
  });

  it('drops a page still loading on a local like: it may have been read before the like', async () => {
    const scope = {};
    const { src, calls } = source();
    const bus = createMemoryEventBus();
    const loading = cachedFeedHead(scope, 20, null, src);
    publishEvent({ cacheScope: scope, bus, logError: undefined }, 'likes', {
      postId: 'p1',
      userId: 'bob',
      likesCount: 1,
      authorId: null,
    });
    await loading;
    await cachedFeedHead(scope, 20, null, src);
    expect(calls.load).toBe(2);
    await bus.close();
  });

  it('drops on a comment only the pages that show its post, and that post’s comments', async () => {
    const scope = {};
    const { src, calls } = source();
    const page = (await cachedFeedHead(scope, 20, null, src)).items;
    const profile = await cachedProfileHead(scope, 'u1', 20, null, src);
    const threadOf = (postId: string) => cachedCommentsHead(scope, postId, 20, null, src);
    const [threadP1, threadP9] = [await threadOf('p1'), await threadOf('p9')];
    expect(calls.load).toBe(4);
    // A comment on a post that no kept page shows: every page stays, and the post's comments go.
    cachesHear(scope, 'comments', { postId: 'p9', userId: 'alice' });
    expect((await cachedFeedHead(scope, 20, null, src)).items).toBe(page);
    expect(await cachedProfileHead(scope, 'u1', 20, null, src)).toBe(profile);
    expect(await threadOf('p1')).toBe(threadP1);
    expect(await threadOf('p9')).not.toBe(threadP9);
    expect(calls.load).toBe(5);
    // A comment on p1, which both post pages show: they go, with p1's comments; p9's stay.
    cachesHear(scope, 'comments', { postId: 'p1', userId: 'alice' });
    const p9Again = await threadOf('p9');
    expect((await cachedFeedHead(scope, 20, null, src)).items).not.toBe(page);
    expect(await cachedProfileHead(scope, 'u1', 20, null, src)).not.toBe(profile);
    expect(await threadOf('p1')).not.toBe(threadP1);
    expect(await threadOf('p9')).toBe(p9Again);
    expect(calls.load).toBe(8);
  });

  it('drops on a new post the feed’s pages and its author’s, not another member’s profile', async () => {
    const scope = {};
    const { src, calls } = source();
    const feed = await cachedFeedHead(scope, 20, null, src);
    const ofAuthor = await cachedProfileHead(scope, 'u1', 20, null, src);
    const ofOther = await cachedProfileHead(scope, 'u2', 20, null, src);
    const thread = await cachedCommentsHead(scope, 'p1', 20, null, src);
    cachesHear(scope, 'posts', { postId: 'p3', authorId: 'u1' });
    expect(await cachedFeedHead(scope, 20, null, src)).not.toBe(feed);
    expect(await cachedProfileHead(scope, 'u1', 20, null, src)).not.toBe(ofAuthor);
    expect(await cachedProfileHead(scope, 'u2', 20, null, src)).toBe(ofOther);
    expect(await cachedCommentsHead(scope, 'p1', 20, null, src)).toBe(thread);
    expect(calls.load).toBe(6);
  });

  it('lets stale pages go as new ones are read, and keeps at most FEED_PAGES_MAX_HEADS', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const scope = {};
    const { src } = source();
    for (const postId of ['a', 'b', 'c']) await cachedCommentsHead(scope, postId, 20, null, src);
    expect(feedPages.store(scope).size).toBe(3);
    vi.setSystemTime(Date.now() + FEED_CACHE_TTL_MS);
    await cachedCommentsHead(scope, 'd', 20, null, src);
    expect([...feedPages.store(scope).keys()]).toEqual(['comments:d:20']);
    for (let i = 0; i < FEED_PAGES_MAX_HEADS + 5; i++)
      await cachedCommentsHead(scope, `p${i}`, 20, null, src);
    expect(feedPages.store(scope).size).toBe(FEED_PAGES_MAX_HEADS);
  });

  it('keeps no failure: the next request tries again', async () => {
    const scope = {};
    const { src, calls } = source();
    let fail = true;
    const flaky: HeadSource<PostPage> = {
      load: () => (fail ? Promise.reject(new Error('db down')) : src.load()),
      viewerMarks: (viewer, ids, authors) =>
        fail ? Promise.reject(new Error('db down')) : src.viewerMarks(viewer, ids, authors),
    };
    await expect(cachedFeedHead(scope, 20, 'alice', flaky)).rejects.toThrow('db down');
    fail = false;
    expect((await cachedFeedHead(scope, 20, 'alice', flaky)).items[1]?.isLiked).toBe(true);
    expect(calls.load).toBe(1);
  });
});
