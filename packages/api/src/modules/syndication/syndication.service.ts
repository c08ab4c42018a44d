/**
 * What the public pages outside the app read that no procedure answers: the sitemap's entries
 * (sitemap.xml: every public profile, every tag with a shown post and the newest shown posts,
 * split into pages of SITEMAP_URLS_MAX behind an index past that) and the stored type and size
 * of a post's images (the enclosures of the RSS feeds). The host turns them into XML; the feeds'
 * posts come from the same procedures as the app's (users.posts, tags.posts).
 */
import { type Context, readEm } from '../../context.js';
import { keyFromObjectPath } from '../objects/objects.schema.js';
import { cachedSitemapPage } from './sitemap.cache.js';
import { countSitemapRows, findPublicObjects, listSitemapRows } from './syndication.repository.js';
import type { SitemapPage } from './syndication.schema.js';

/** The most URLs one sitemap file may list (sitemaps.org). */
export const SITEMAP_URLS_MAX = 50_000;
/** The newest shown posts the sitemap lists; older ones are reached through profiles and tags. */
export const SITEMAP_POSTS_MAX = 50_000;

export type { SitemapKind, SitemapPage, SitemapRow } from './syndication.schema.js';

/**
 * Page 0 is /sitemap.xml: every entry when they fit in one file, else the index. Pages 1..n are
 * the index's files; null when there is no such page (nothing to split, or past the last).
 */
export function sitemapPage(
  ctx: Pick<Context, 'em' | 'readReplica' | 'cacheScope'>,
  page: number,
  limits: { urlsMax?: number; postsMax?: number } = {},
): Promise<SitemapPage | null> {
  const urlsMax = limits.urlsMax ?? SITEMAP_URLS_MAX;
  const postsMax = limits.postsMax ?? SITEMAP_POSTS_MAX;
  if (!Number.isSafeInteger(page) || page < 0) return Promise.resolve(null);
  const load = async (): Promise<SitemapPage | null> => {
    const em = readEm(ctx);
    const count = await countSitemapRows(em, postsMax);
    const pages = Math.ceil(count / urlsMax);
    if (page === 0) {
      return pages <= 1
        ? { kind: 'urlset', rows: await listSitemapRows(em, postsMax, 0, urlsMax) }
        : { kind: 'index', pages };
    }
    if (pages <= 1 || page > pages) return null;
    return { kind: 'urlset', rows: await listSitemapRows(em, postsMax, (page - 1) * urlsMax, urlsMax) };
  };
  // Limits other than the defaults are for tests, which must not share kept pages.
  return limits.urlsMax || limits.postsMax ? load() : cachedSitemapPage(ctx.cacheScope, page, load);
}

/** The stored type and size of each image URL of ours among `urls` that is public. */
export async function storedImages(
  ctx: Pick<Context, 'em' | 'readReplica'>,
  urls: readonly string[],
): Promise<Map<string, { contentType: string | null; size: number | null }>> {
  const keys = new Map<string, string>();
  for (const url of urls) {
    const key = keyFromObjectPath(url);
    if (key) keys.set(key, url);
  }
  const found = await findPublicObjects(readEm(ctx), [...keys.keys()]);
  return new Map([...found].map(([key, facts]) => [keys.get(key)!, facts]));
}
