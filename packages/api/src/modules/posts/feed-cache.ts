/**
 * The feed's first page is the same for every viewer but for `isLiked` and the authors a viewer
 * blocked, was blocked by or muted (left out of their copy), and it is by far the
 * most requested read. A member's profile opens on the first page of their posts, the same for
 * every viewer but for `isLiked` and a block either way (which empties it): it is kept the same
 * way, beside the feed's (cachedProfileHead). It is kept in memory for at most FEED_CACHE_TTL_MS and dropped at once by
 * every write that changes it (posts, comments, author profiles; likes patch it, see below): at
 * once in the process that wrote, and on the other instances when the bus's `feed` event
 * arrives (see feedChanged; a like elsewhere drops it too).
 * Concurrent misses share one query.
 *
 * Each viewer's likes and hidden authors among the page's posts live with the page, so they are
 * looked up once per page, not once per request. A like or unlike made here does not drop the
 * page (under mixed load that would drop it all the time): it replaces the page by one with the
 * post's new likesCount and forgets the liker's own likes (looked up again on their next read);
 * every other viewer's copy is remade from the new page without a query. Pages are shared
 * between requests and never edited (a patched page or a viewer's copy is made of new objects),
 * so they are marked shared and a host encodes each to JSON once.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Context, publishEvent } from '../../context.js';
import { isFresh, type Loading, perScope, track, viewerCopy } from '../../kept-reads.js';
import type { Page } from '../../paging.js';
import { markShared } from '../../shared-json.js';
import { forgetSearchViewer, invalidateSearchPosts, searchPostsAdded } from '../search/search-cache.js';
import type { PostPage } from './post.serializer.js';

export const FEED_CACHE_TTL_MS = 1_000;
/** Viewer copies kept per page; past that, viewers get fresh (uncached) copies until the page turns. */
export const FEED_CACHE_MAX_VIEWERS = 5_000;

/** What a kept page lists: posts, or a post's comments (which nobody likes). */
interface Item {
  id: string;
  userId: string;
  isLiked?: boolean;
}
type KeptPage = Page<Item>;

interface Head extends Loading {
  page: Promise<KeptPage>;
  /** the page once it arrived (patched in place of the old one by likes); null while loading */
  current: KeptPage | null;
  viewers: Map<string, Promise<Viewer>>;
}

/** What sets one viewer's copy apart, looked up once per page, and their copy of the page as it is. */
interface Viewer {
  /** the page the lookup was made for */
  base: KeptPage;
  liked: Set<string>;
  hidden: Set<string>;
  copyOf: KeptPage | null;
  copy: KeptPage | null;
}

/**
 * By the feed page's size (a number), `user:<id>:<size>` for a profile's first page,
 * `comments:<postId>:<size>` for a post's first comments.
 */
type Heads = Map<number | string, Head>;

// One cache per ORM (keyed by its driver: Context.cacheScope), so two apps on two databases
// never share pages.
const headsFor = perScope<Heads>(() => new Map());

/** Drops this process's cached first pages (a write here, or the bus's news of one elsewhere). */
export function invalidateFeed(em: EntityManager): void {
  headsFor(em.getDriver()).clear();
  // Search answers show posts too.
  invalidateSearchPosts(em.getDriver());
}

/**
 * What a write changed, for search answers (search-cache.ts): a new post (merged into them), only
 * counts (a comment: they age out within their second), or anything else (read again).
 */
export type FeedChange = { added: string } | 'counts' | 'posts';

/**
 * At most one `feed` event per bus in this window: under a burst of likes the other instances
 * need to hear "it changed" once, not a thousand times a second. The last write of a burst is
 * always followed by an event (trailing edge), so no instance keeps a page older than the
 * window plus the bus's delivery time.
 */
export const FEED_EVENT_WINDOW_MS = 100;
/** Per bus: when its last `feed` event left, and the one waiting for the window to pass. */
const feedEventsOf = perScope<{ last: number; pending: NodeJS.Timeout | null }>(() => ({
  last: 0,
  pending: null,
}));

/** Call after the commit of any write that changes what the first feed page shows. */
export function feedChanged(
  ctx: Pick<Context, 'em' | 'bus' | 'logError' | 'cacheScope'>,
  change: FeedChange = 'posts',
): void {
  const scope = ctx.em.getDriver();
  headsFor(scope).clear();
  if (change === 'posts') invalidateSearchPosts(scope);
  else if (change !== 'counts') searchPostsAdded(scope, change.added);
  tellOtherInstances(ctx);
}

/**
 * Call after a like or unlike committed. This process patches its cached pages instead of
 * dropping them: the post's likesCount is the count the write's own statement returned. Two
 * toggles of one post answered out of commit order can leave the patched count one behind
 * until the next toggle or at most FEED_CACHE_TTL_MS, when the page is read again. Other
 * instances hear the usual (windowed) `feed` event and drop theirs.
 */
export function likeChanged(
  ctx: Pick<Context, 'em' | 'bus' | 'logError' | 'cacheScope'>,
  change: { postId: string; userId: string; likesCount: number },
): void {
  const heads = headsFor(ctx.em.getDriver());
  for (const [key, head] of heads) {
    // A page still loading may have been read before this write: it cannot be patched.
    if (!head.current) {
      heads.delete(key);
      continue;
    }
    const index = head.current.items.findIndex((p) => p.id === change.postId);
    if (index === -1) continue;
    const items = [...head.current.items];
    items[index] = { ...items[index]!, likesCount: change.likesCount } as Item; // a post: ids are unique
    head.current = markShared({ ...head.current, items });
    head.page = Promise.resolve(head.current);
    head.viewers.delete(change.userId);
  }
  // Search answers keep their counts (and the rank they are part of) for their second; the
  // liker's own copies go, so their like shows at once.
  forgetSearchViewer(ctx.em.getDriver(), change.userId);
  tellOtherInstances(ctx);
}

function tellOtherInstances(ctx: Pick<Context, 'em' | 'bus' | 'logError' | 'cacheScope'>): void {
  const state = feedEventsOf(ctx.bus);
  if (state.pending) return;
  const wait = state.last + FEED_EVENT_WINDOW_MS - Date.now();
  const send = () => {
    state.pending = null;
    state.last = Date.now();
    publishEvent(ctx, 'feed', {});
  };
  if (wait <= 0) send();
  else {
    state.pending = setTimeout(send, wait);
    state.pending.unref();
  }
}

/** What a viewer's copy of a kept page differs by. */
export interface ViewerMarks {
  /** the posts on the page the viewer likes */
  liked: Set<string>;
  /** the authors the viewer's copy leaves out */
  hidden: Set<string>;
}
export const NO_MARKS: ViewerMarks = { liked: new Set(), hidden: new Set() };

export interface HeadSource<P> {
  /** the first page as a visitor sees it (isLiked false everywhere) */
  load(): Promise<P>;
  /**
   * The viewer's marks on these posts by these authors, in one statement: which posts they like
   * (none for comments) and which authors their copy leaves out (the feed's: blocks either way
   * and mutes; a profile's and comments': blocks either way). It may throw to refuse the page.
   */
  viewerMarks(viewerId: string, postIds: string[], authorIds: string[]): Promise<ViewerMarks>;
}

function headOf(heads: Heads, key: number | string, source: HeadSource<KeptPage>): Head {
  const current = heads.get(key);
  if (current && isFresh(current, FEED_CACHE_TTL_MS)) return current;
  const page = source.load().then((loaded) => markShared(loaded));
  const head: Head = { page, current: null, loadedAt: null, viewers: new Map() };
  return track(heads, key, head, page, (loaded) => {
    head.current = loaded;
  });
}

/** The viewer's copy of `page`: the page itself when they like none of it and hide no one. */
function copyFor(page: KeptPage, viewer: Viewer): KeptPage {
  if (viewer.copyOf === page && viewer.copy) return viewer.copy;
  const { liked, hidden } = viewer;
  const copy =
    (liked.size === 0 && hidden.size === 0) || page.items.length === 0
      ? page
      : // A copy without hidden authors is shorter; its nextCursor still follows the whole page, so
        // paging on from it neither repeats nor skips a post the viewer may see.
        markShared({
          ...page,
          items: page.items
            .filter((p) => !hidden.has(p.userId))
            .map((p) => (liked.has(p.id) ? { ...p, isLiked: true } : p)),
        });
  viewer.copyOf = page;
  viewer.copy = copy;
  return copy;
}

/** The first page of `limit` posts as `viewerId` (null: a visitor) sees it, from memory when fresh. */
export function cachedFeedHead(
  scope: object,
  limit: number,
  viewerId: string | null,
  source: HeadSource<PostPage>,
): Promise<PostPage> {
  return cachedHead(scope, limit, viewerId, source) as Promise<PostPage>;
}

/**
 * The first page of `limit` posts by `authorId` as `viewerId` sees it, from memory when fresh.
 * `source.viewerMarks` says whether a block stands between them: a viewer's copy without
 * the author is empty and has no next page.
 */
export async function cachedProfileHead(
  scope: object,
  authorId: string,
  limit: number,
  viewerId: string | null,
  source: HeadSource<PostPage>,
): Promise<PostPage> {
  const page = (await cachedHead(scope, `user:${authorId}:${limit}`, viewerId, source)) as PostPage;
  return page.items.length === 0 && page.nextCursor !== null ? EMPTY_PAGE : page;
}
const EMPTY_PAGE: PostPage = markShared({ items: [], nextCursor: null });

/**
 * The first `limit` comments on `postId` as `viewerId` sees them, from memory when fresh: kept
 * with the posts' pages, since every write that changes them (a comment, its author's profile, a
 * block) drops those too. A viewer's copy leaves out the comments of members blocked either way.
 */
export function cachedCommentsHead<P extends Page<Item>>(
  scope: object,
  postId: string,
  limit: number,
  viewerId: string | null,
  source: HeadSource<P>,
): Promise<P> {
  return cachedHead(scope, `comments:${postId}:${limit}`, viewerId, source) as Promise<P>;
}

function cachedHead<P extends KeptPage>(
  scope: object,
  key: number | string,
  viewerId: string | null,
  source: HeadSource<P>,
): Promise<KeptPage> {
  const heads = headsFor(scope);
  const head = headOf(heads, key, source);
  if (viewerId === null) return head.page;
  const viewer = viewerCopy(head.viewers, viewerId, FEED_CACHE_MAX_VIEWERS, () =>
    head.page.then(async (page): Promise<Viewer> => {
      // Asked of an empty page too: the sources answer an empty list without a query, and a
      // post's comments ask whether the post is there for the viewer at all.
      const { liked, hidden } = await source.viewerMarks(
        viewerId,
        page.items.map((p) => p.id),
        [...new Set(page.items.map((p) => p.userId))],
      );
      return { base: page, liked, hidden, copyOf: null, copy: null };
    }),
  );
  // The page as it is now: a like since the lookup may have patched it.
  return viewer.then((v) => copyFor(head.current ?? v.base, v));
}
