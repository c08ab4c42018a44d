/**
 * Pages as the server rendered them (render.ts), kept: a render costs far more CPU than
 * the JSON it is made of (React over a page of cards; bench/README.md, "Pages rendered on the
 * server"), and every visitor asking for a path is shown the same page. What the page shows
 * changes with a new post, an edit, a deletion or removal, a comment, a favourite, a name or
 * avatar, a follow, a block or an account hidden: each drops every kept page (a page shows posts of
 * many members, so no finer key is sound). Other instances' likes and comments come as `feed`.
 * A like here is not an event the pages hear: a visitor's count may be up to the TTL behind, as
 * are the relative times ("2 minutes ago"; the browser moves them on as it hydrates).
 *
 * Keyed by origin and path with query (an origin named by the Host when PUBLIC_URL is unset), at
 * most RENDERED_PAGES_MAX (the least recently read go first). Concurrent misses share one render.
 * The nonce is not part of it: each answer gets its own when the page is put into index.html.
 *
 * A member's own pages (home, Chat, their profile, bookmarks, notifications and Settings, and the public
 * pages, rendered with their data) are kept apart, per member, for the same time: dropped by the
 * same events and by everything of a member's own they show (a like, a repost, a bookmark, a
 * message or its reading, a notification or its reading, a session ended; a follow, a block, a
 * mute and a setting are among the events above). Only that member reads such a page, so it
 * spares a render only when they load it again meanwhile (a reload, a second tab, Back).
 */
import { type Dependencies, keptRead, type Loading, track } from '@cubes/api';
import { LRUCache } from 'lru-cache';

/** How long a kept page may answer, whatever happened meanwhile. */
export const RENDERED_PAGES_TTL_MS = 10_000;
/** At most this many pages kept (a home page is about 150 KB). */
export const RENDERED_PAGES_MAX = 200;

interface Kept<P> extends Loading {
  page: Promise<P>;
}

type Store = LRUCache<string, Kept<unknown>>;
const dropAll = (store: Store) => store.clear();

/** What every rendered page shows of everyone: each of these drops them all. */
const PAGE_TOPICS = {
  posts: dropAll,
  postChanges: dropAll,
  comments: dropAll,
  feed: dropAll,
  favorites: dropAll,
  profiles: dropAll,
  relations: dropAll,
  accounts: dropAll,
} satisfies Dependencies<Store>;

export const renderedPages = keptRead<Store>({
  name: "visitors' rendered pages",
  ttlMs: RENDERED_PAGES_TTL_MS,
  make: () => new LRUCache({ max: RENDERED_PAGES_MAX }),
  dependsOn: PAGE_TOPICS,
  clear: dropAll,
});

/** At most this many members' own pages kept (one member's home is about 150 KB). */
export const MEMBER_PAGES_MAX = 100;

export const memberPages = keptRead<Store>({
  name: "members' own rendered pages",
  ttlMs: RENDERED_PAGES_TTL_MS,
  make: () => new LRUCache({ max: MEMBER_PAGES_MAX }),
  dependsOn: {
    ...PAGE_TOPICS,
    // What a member's own page shows of them.
    likes: dropAll,
    reposts: dropAll,
    bookmarks: dropAll,
    messages: dropAll,
    notifications: dropAll,
    sessions: dropAll,
  },
  clear: dropAll,
});

/**
 * The page kept under `key` in `read` (a visitor's or a member's shell by default) when fresh,
 * else `render()`'s (shared by concurrent callers).
 */
export function keptPage<P>(
  scope: object,
  key: string,
  render: () => Promise<P>,
  read: typeof renderedPages = renderedPages,
): Promise<P> {
  const store = read.store(scope);
  let kept = store.get(key) as Kept<P> | undefined;
  if (!kept || !read.isFresh(kept)) {
    const loading = render();
    kept = track(store as LRUCache<string, Kept<P>>, key, { page: loading, loadedAt: null }, loading);
  }
  return kept.page;
}
