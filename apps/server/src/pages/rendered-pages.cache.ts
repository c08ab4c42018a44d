/**
 * Visitors' pages as the server rendered them (render.ts), kept: a render costs far more CPU than
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
 */
import { keptRead, type Loading, track } from '@cubes/api';
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

export const renderedPages = keptRead<Store>({
  name: "visitors' rendered pages",
  ttlMs: RENDERED_PAGES_TTL_MS,
  make: () => new LRUCache({ max: RENDERED_PAGES_MAX }),
  dependsOn: {
    posts: dropAll,
    postChanges: dropAll,
    comments: dropAll,
    feed: dropAll,
    favorites: dropAll,
    profiles: dropAll,
    relations: dropAll,
    accounts: dropAll,
  },
  clear: dropAll,
});

/** The page kept under `key` when fresh, else `render()`'s (shared by concurrent callers). */
export function keptPage<P>(scope: object, key: string, render: () => Promise<P>): Promise<P> {
  const store = renderedPages.store(scope);
  let kept = store.get(key) as Kept<P> | undefined;
  if (!kept || !renderedPages.isFresh(kept)) {
    const loading = render();
    kept = track(store as LRUCache<string, Kept<P>>, key, { page: loading, loadedAt: null }, loading);
  }
  return kept.page;
}
