/**
 * Which paths outside /api are pages that read the database, for the hooks that run before
 * routing: the session (a feed answers a member their own view) and the general rate limit
 * (each of these costs queries, like an API call).
 */

/** A profile's or a tag's RSS feed (feeds.ts). */
export const FEED_PATH = /^\/(?:profile|tags)\/[^/]+\.rss$/;
const SITEMAP_PATH = /^\/sitemap(?:-[^/]*)?\.xml$/;

/** Whether `path` (the routed path) is a feed or a sitemap file. */
export function isDataPage(path: string): boolean {
  return FEED_PATH.test(path) || SITEMAP_PATH.test(path);
}
