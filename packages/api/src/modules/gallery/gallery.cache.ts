/**
 * The gallery's first page (per type choice and page size) is the same for every viewer but for
 * `isFavorite` and the creators a block hides, and the page polls it every 30 s: it is kept in
 * memory for at most the TTL, with each viewer's copy (their favourites marked, one primary-key
 * lookup) kept beside it, and dropped by the events `galleryPages` depends on (kept-reads.ts).
 * Concurrent misses share one query. Pages are shared and never edited, so they are marked shared
 * and a host encodes each to JSON once.
 */
import { keptRead, type Loading, track } from '../../kept-reads.js';
import { markShared } from '../../shared-json.js';
import type { GalleryPage } from './gallery.schema.js';

interface Head extends Loading {
  page: Promise<GalleryPage>;
  viewers: Map<string, Promise<GalleryPage>>;
}

type Heads = Map<string, Head>;
const dropAll = (heads: Heads) => heads.clear();

/**
 * A favourite (a count; from other instances, their windowed `feed` event), a block either way,
 * a creator's new name or avatar, or a creator who left or came back drops every page.
 */
export const galleryPages = keptRead<Heads>({
  name: "the gallery's first pages",
  ttlMs: 1_000,
  maxViewers: 5_000,
  make: () => new Map(),
  dependsOn: {
    favorites: dropAll,
    feed: dropAll,
    profiles: dropAll,
    accounts: dropAll,
    relations: (heads, { kind }) => {
      if (kind === 'block' || kind === 'unblock') heads.clear();
    },
  },
  clear: dropAll,
});

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
  const heads = galleryPages.store(scope);
  let head = heads.get(key);
  if (!head || !galleryPages.isFresh(head)) {
    const page = source.load().then(markShared);
    head = track(heads, key, { page, loadedAt: null, viewers: new Map() }, page);
  }
  if (viewerId === null) return head.page;
  const { page: kept, viewers } = head;
  return galleryPages.viewerCopy(viewers, viewerId, () =>
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
