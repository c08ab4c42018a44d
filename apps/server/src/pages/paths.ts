/**
 * Which paths outside /api are pages that read the database, for the hooks that run before
 * routing: the session (a feed answers a member their own view, and a member's own pages are
 * rendered with their data) and the general rate limit (each of these costs queries, like an API
 * call).
 */

/** A profile's or a tag's RSS feed (feeds.ts). */
export const FEED_PATH = /^\/(?:profile|tags)\/[^/]+\.rss$/;
const SITEMAP_PATH = /^\/sitemap(?:-[^/]*)?\.xml$/;

/** The pages rendered on the server for a visitor (render.ts): each reads the database too. */
const RENDERED_PATH = /^\/(?:posts\/[^/]+|profile\/[^/]+|tags\/[^/]+|search|gallery)?\/?$/i;

/**
 * The pages a member's request gets rendered with their own data (render.ts): home, Chat, their
 * profile, bookmarks, notifications and Settings, and the pages rendered for a visitor. Their
 * session is read before routing, as for /api.
 */
export const MEMBER_PAGE_PATH =
  /^\/(?:chat|posts\/[^/]+|profile(?:\/[^/]+)?|tags\/[^/]+|search|gallery|bookmarks|notifications|settings)?\/?$/i;

/** Whether `path` (the routed path) is a feed, a sitemap file or a page rendered on the server. */
export function isDataPage(path: string): boolean {
  return (
    FEED_PATH.test(path) || SITEMAP_PATH.test(path) || RENDERED_PATH.test(path) || MEMBER_PAGE_PATH.test(path)
  );
}
