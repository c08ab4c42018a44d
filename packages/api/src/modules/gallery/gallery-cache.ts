/**
 * The gallery's first page (per type choice and page size) is the same for every viewer but for
 * `isFavorite`, and the page polls it every 30 s: it is kept in memory for at most
 * GALLERY_CACHE_TTL_MS, with each viewer's copy (their favourites marked, one primary-key lookup)
 * kept beside it. A favourite added or removed in this process drops every cached page at once;
 * other instances' pages (and a creator's new name or avatar) age out within the TTL. Concurrent
 * misses share one query. Pages are shared and never edited, so they are marked shared and a
 * host encodes each to JSON once.
 */
import { isFresh, type Loading, perScope, track, viewerCopy } from '../../kept-reads.js';
import { markShared } from '../../shared-json.js';
import type { GalleryPage } from './gallery.service.js';

export const GALLERY_CACHE_TTL_MS = 1_000;
/** Viewer copies kept per page; past that, viewers get fresh copies until the page turns. */
export const GALLERY_CACHE_MAX_VIEWERS = 5_000;

interface Head extends Loading {
  page: Promise<GalleryPage>;
  viewers: Map<string, Promise<GalleryPage>>;
}

// One cache per ORM (Context.cacheScope), so two apps on two databases never share pages.
const headsFor = perScope(() => new Map<string, Head>());

/** Drops this process's cached first pages: a favourite changed a count. */
export function invalidateGallery(scope: object): void {
  headsFor(scope).clear();
}

export interface GalleryHeadSource {
  /** the first page as a visitor sees it (isFavorite false everywhere) */
  load(): Promise<GalleryPage>;
  /**
   * In one statement: which of these items the viewer favourited, and which of these creators
   * are blocked by the viewer or block them
   */
  viewerMarks(
    viewerId: string,
    mediaIds: string[],
    creatorIds: string[],
  ): Promise<{ favorited: Set<string>; blocked: Set<string> }>;
}

/** The first page for `key` as `viewerId` (null: a visitor) sees it, from memory when fresh. */
export function cachedGalleryHead(
  scope: object,
  key: string,
  viewerId: string | null,
  source: GalleryHeadSource,
): Promise<GalleryPage> {
  const heads = headsFor(scope);
  let head = heads.get(key);
  if (!head || !isFresh(head, GALLERY_CACHE_TTL_MS)) {
    const page = source.load().then(markShared);
    head = track(heads, key, { page, loadedAt: null, viewers: new Map() }, page);
  }
  if (viewerId === null) return head.page;
  const { page: kept, viewers } = head;
  return viewerCopy(viewers, viewerId, GALLERY_CACHE_MAX_VIEWERS, () =>
    kept.then(async (page) => {
      if (page.items.length === 0) return page;
      const { favorited, blocked } = await source.viewerMarks(
        viewerId,
        page.items.map((i) => i.id),
        [...new Set(page.items.map((i) => i.creator.id))],
      );
      if (favorited.size === 0 && blocked.size === 0) return page;
      // A copy without blocked creators is shorter; its nextCursor still follows the whole page.
      return markShared({
        ...page,
        items: page.items
          .filter((i) => !blocked.has(i.creator.id))
          .map((i) => (favorited.has(i.id) ? { ...i, isFavorite: true } : i)),
      });
    }),
  );
}
