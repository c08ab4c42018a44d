/**
 * The sitemap is read by crawlers, not people, and each answer reads every public profile, tag
 * and up to SITEMAP_POSTS_MAX posts: each of its pages is kept in memory for at most
 * SITEMAP_TTL_MS, and dropped sooner by what hides what it lists (a post deleted or removed, an
 * account suspended or deleted: kept-reads.ts). A new post, profile or tag waits for the TTL.
 * Concurrent misses share one query, so a crawler's burst costs one.
 */
import { keptRead, type Loading, track } from '../../kept-reads.js';
import type { SitemapPage } from './syndication.schema.js';

export const SITEMAP_TTL_MS = 5 * 60_000;

interface Kept extends Loading {
  page: Promise<SitemapPage | null>;
}
/** page number (0: /sitemap.xml) → its answer */
type Store = Map<number, Kept>;
const dropAll = (store: Store) => store.clear();

export const sitemapPages = keptRead<Store>({
  name: 'sitemap pages',
  ttlMs: SITEMAP_TTL_MS,
  make: () => new Map(),
  dependsOn: {
    accounts: dropAll,
    postChanges: (store, { kind }) => {
      if (kind === 'deleted') store.clear();
    },
  },
  clear: dropAll,
});

/** Sitemap page `page` from memory when fresh, else from `load` (shared by concurrent callers). */
export function cachedSitemapPage(
  scope: object,
  page: number,
  load: () => Promise<SitemapPage | null>,
): Promise<SitemapPage | null> {
  const store = sitemapPages.store(scope);
  let kept = store.get(page);
  if (!kept || !sitemapPages.isFresh(kept)) {
    const loading = load();
    kept = track(store, page, { page: loading, loadedAt: null }, loading);
  }
  return kept.page;
}
