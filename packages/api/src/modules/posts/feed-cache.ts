/**
 * The feed's first page is the same for every viewer but for `isLiked` and the authors a viewer
 * blocked, was blocked by or muted (left out of their copy), and it is by far the
 * most requested read. It is kept in memory for at most FEED_CACHE_TTL_MS and dropped at once by
 * every write that changes it (posts, likes, comments, author profiles): at once in the process
 * that wrote, and on the other instances when the bus's `feed` event arrives (see feedChanged).
 * Concurrent misses share one query.
 *
 * Each viewer's copy (their likes marked) lives with the page it was made from, so a viewer's
 * likes are looked up once per page, not once per request; a like or unlike drops the page and
 * with it every copy. Pages are shared between requests and never edited (a viewer's copy is
 * made of new objects), so they are marked shared and a host encodes each to JSON once.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Context, publishEvent } from '../../context.js';
import { markShared } from '../../shared-json.js';
import type { PostPage } from './post.serializer.js';

export const FEED_CACHE_TTL_MS = 1_000;
/** Viewer copies kept per page; past that, viewers get fresh (uncached) copies until the page turns. */
export const FEED_CACHE_MAX_VIEWERS = 5_000;

interface Head {
  page: Promise<PostPage>;
  /** when the page arrived; null while it is loading */
  loadedAt: number | null;
  viewers: Map<string, Promise<PostPage>>;
}

type Heads = Map<number, Head>;

// One cache per ORM (keyed by its driver: Context.cacheScope), so two apps on two databases
// never share pages.
const caches = new WeakMap<object, Heads>();
function headsFor(scope: object): Heads {
  let heads = caches.get(scope);
  if (!heads) {
    heads = new Map();
    caches.set(scope, heads);
  }
  return heads;
}

/** Drops this process's cached first pages (a write here, or the bus's news of one elsewhere). */
export function invalidateFeed(em: EntityManager): void {
  headsFor(em.getDriver()).clear();
}

/**
 * At most one `feed` event per bus in this window: under a burst of likes the other instances
 * need to hear "it changed" once, not a thousand times a second. The last write of a burst is
 * always followed by an event (trailing edge), so no instance keeps a page older than the
 * window plus the bus's delivery time.
 */
export const FEED_EVENT_WINDOW_MS = 100;
const feedEvents = new WeakMap<object, { last: number; pending: NodeJS.Timeout | null }>();

/** Call after the commit of any write that changes what the first feed page shows. */
export function feedChanged(ctx: Pick<Context, 'em' | 'bus' | 'logError'>): void {
  invalidateFeed(ctx.em);
  let state = feedEvents.get(ctx.bus);
  if (!state) {
    state = { last: 0, pending: null };
    feedEvents.set(ctx.bus, state);
  }
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

export interface FeedHeadSource {
  /** the first page as a visitor sees it (isLiked false everywhere) */
  load(): Promise<PostPage>;
  /** which of these posts the viewer likes */
  likedAmong(viewerId: string, postIds: string[]): Promise<Set<string>>;
  /** which of these authors the viewer's feeds leave out (blocks either way, mutes) */
  hiddenAuthorsAmong(viewerId: string, authorIds: string[]): Promise<Set<string>>;
}

function headOf(heads: Heads, limit: number, source: FeedHeadSource): Head {
  const current = heads.get(limit);
  if (current && (current.loadedAt === null || Date.now() - current.loadedAt < FEED_CACHE_TTL_MS)) {
    return current;
  }
  const head: Head = { page: source.load().then(markShared), loadedAt: null, viewers: new Map() };
  head.page.then(
    () => {
      head.loadedAt = Date.now();
    },
    () => {
      if (heads.get(limit) === head) heads.delete(limit);
    },
  );
  heads.set(limit, head);
  return head;
}

/** The first page of `limit` posts as `viewerId` (null: a visitor) sees it, from memory when fresh. */
export function cachedFeedHead(
  scope: object,
  limit: number,
  viewerId: string | null,
  source: FeedHeadSource,
): Promise<PostPage> {
  const heads = headsFor(scope);
  const head = headOf(heads, limit, source);
  if (viewerId === null) return head.page;
  const known = head.viewers.get(viewerId);
  if (known) return known;
  const copy = head.page.then(async (page) => {
    if (page.items.length === 0) return page;
    const [liked, hidden] = await Promise.all([
      source.likedAmong(
        viewerId,
        page.items.map((p) => p.id),
      ),
      source.hiddenAuthorsAmong(viewerId, [...new Set(page.items.map((p) => p.userId))]),
    ]);
    if (liked.size === 0 && hidden.size === 0) return page;
    // A copy without hidden authors is shorter; its nextCursor still follows the whole page, so
    // paging on from it neither repeats nor skips a post the viewer may see.
    return markShared({
      ...page,
      items: page.items
        .filter((p) => !hidden.has(p.userId))
        .map((p) => (liked.has(p.id) ? { ...p, isLiked: true } : p)),
    });
  });
  if (head.viewers.size < FEED_CACHE_MAX_VIEWERS) {
    head.viewers.set(viewerId, copy);
    copy.catch(() => {
      if (head.viewers.get(viewerId) === copy) head.viewers.delete(viewerId);
    });
  }
  return copy;
}
