/**
 * The sitemap is read by crawlers, not people, and each answer reads every public profile, tag
 * and up to SITEMAP_POSTS_MAX posts: each of its pages is kept in memory for at most
 * SITEMAP_TTL_MS, and dropped sooner by what hides what it lists (kept-reads.ts, `keptValues`).
 * A new post, profile or tag waits for the TTL. Concurrent misses share one query, so a
 * crawler's burst costs one.
 */
import { keptValues } from '../../kept-reads.js';
import type { SitemapPage } from './syndication.schema.js';

export const SITEMAP_TTL_MS = 5 * 60_000;

/** page number (0: /sitemap.xml) → its answer */
const sitemapPages = keptValues<number, SitemapPage | null>('sitemap pages', SITEMAP_TTL_MS);

/** Sitemap page `page` from memory when fresh, else from `load` (shared by concurrent callers). */
export function cachedSitemapPage(
  scope: object,
  page: number,
  load: () => Promise<SitemapPage | null>,
): Promise<SitemapPage | null> {
  return sitemapPages.get(scope, page, load);
}
