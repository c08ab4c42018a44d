/**
 * The feed's first page is the same for every viewer but for `isLiked`, and it is by far the
 * most requested read. It is kept in memory for at most FEED_CACHE_TTL_MS and dropped at once by
 * every write in this process that changes it (posts, likes, comments, author profiles); another
 * instance's writes show within that second. Concurrent misses share one query.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PostPage } from './post.serializer.js';

export const FEED_CACHE_TTL_MS = 1_000;

interface FeedCache {
  version: number;
  pages: Map<number, { page: PostPage; loadedAt: number }>;
  loading: Map<number, Promise<PostPage>>;
}

// One cache per ORM (keyed by its driver), so two apps on two databases never share pages.
const caches = new WeakMap<object, FeedCache>();
function cacheFor(em: EntityManager): FeedCache {
  const driver = em.getDriver();
  let cache = caches.get(driver);
  if (!cache) {
    cache = { version: 0, pages: new Map(), loading: new Map() };
    caches.set(driver, cache);
  }
  return cache;
}

/** Call after any write that changes what the first feed page shows. */
export function invalidateFeed(em: EntityManager): void {
  const cache = cacheFor(em);
  cache.version += 1;
  cache.pages.clear();
  cache.loading.clear();
}

/** The first page of `limit` posts as a visitor sees it (isLiked false), from memory when fresh. */
export function cachedFeedHead(
  em: EntityManager,
  limit: number,
  load: () => Promise<PostPage>,
): Promise<PostPage> {
  const cache = cacheFor(em);
  const hit = cache.pages.get(limit);
  if (hit && Date.now() - hit.loadedAt < FEED_CACHE_TTL_MS) return Promise.resolve(hit.page);
  let pending = cache.loading.get(limit);
  if (!pending) {
    const version = cache.version;
    pending = load().finally(() => {
      if (cache.loading.get(limit) === pending) cache.loading.delete(limit);
    });
    void pending.then(
      (page) => {
        // A write during the load may have changed the page: then it is not kept.
        if (cache.version === version) cache.pages.set(limit, { page, loadedAt: Date.now() });
      },
      () => {},
    );
    cache.loading.set(limit, pending);
  }
  return pending;
}
