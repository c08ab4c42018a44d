/**
 * Each member's first page of their Following feed, kept in memory until a bus event says it
 * changed (kept-reads.ts): a post by one of the authors it follows (or by the member), a like,
 * comment, edit or deletion of a post on the page, a new name or avatar of an author on it, a
 * follow, unfollow, block or mute of the member's, or an account that left or came back. The
 * page is read as the member sees it (their likes marked, hidden authors left out), so it is
 * theirs alone: nothing is shared between members, only between a member's own requests.
 *
 * A page keeps the authors whose new posts would change it (the member's followees and the
 * member), read with it. Pages past the first are never kept: they are read from the database.
 * bench/README.md ("The Following feed") has the figures behind the choice.
 */
import type { EventTopics } from '../../events/event-bus.js';
import { keptRead, type Loading, track } from '../../kept-reads.js';
import { markShared } from '../../shared-json.js';
import type { PostPage } from './post.schema.js';

interface Entry extends Loading {
  page: Promise<PostPage>;
  /** the page once it arrived (patched in place of the old one by likes); null while loading */
  current: PostPage | null;
  /** the authors whose new posts change the page; null while loading (any post drops it) */
  authors: Set<string> | null;
}

/** By member, then by page size. */
interface Store {
  members: Map<string, Map<number, Entry>>;
  /** the authors kept over every page: what bounds the store's memory */
  authorCount: number;
}

/** At most this many author ids kept over all pages (about 40 MB); the oldest pages go first. */
export const FOLLOWING_MAX_AUTHOR_IDS = 500_000;
/** At most this many members' pages kept (a like looks through them all). */
export const FOLLOWING_MAX_MEMBERS = 5_000;

function forget(store: Store, memberId: string): void {
  const pages = store.members.get(memberId);
  if (!pages) return;
  for (const entry of pages.values()) store.authorCount -= entry.authors?.size ?? 0;
  store.members.delete(memberId);
}

/** Drops the pages `drops` says changed. */
function dropWhere(store: Store, drops: (entry: Entry, memberId: string) => boolean): void {
  for (const [memberId, pages] of store.members) {
    for (const [size, entry] of pages) {
      if (!drops(entry, memberId)) continue;
      store.authorCount -= entry.authors?.size ?? 0;
      pages.delete(size);
    }
    if (pages.size === 0) store.members.delete(memberId);
  }
}

/** Still loading: it may have been read before the event's write, so any event drops it. */
const loading = (entry: Entry) => entry.current === null || entry.authors === null;
const shows = (entry: Entry, postId: string) =>
  entry.current === null || entry.current.items.some((p) => p.id === postId);
const hasAuthor = (entry: Entry, userId: string) => entry.authors === null || entry.authors.has(userId);
const clear = (store: Store) => {
  store.members.clear();
  store.authorCount = 0;
};

export const followingPages = keptRead<Store>({
  name: "each member's first page of the Following feed",
  // The events drop a page when it changes; the TTL only bounds what a lost event could leave.
  ttlMs: 30_000,
  make: () => ({ members: new Map(), authorCount: 0 }),
  dependsOn: {
    posts: (store, { authorId }) => dropWhere(store, (entry) => hasAuthor(entry, authorId)),
    postChanges: (store, { postId }) => dropWhere(store, (entry) => shows(entry, postId)),
    comments: (store, { postId }) => dropWhere(store, (entry) => shows(entry, postId)),
    // Likes, comments and favourites on other instances: counts on any page may have moved.
    feed: clear,
    profiles: (store, { userId }) => dropWhere(store, (entry) => hasAuthor(entry, userId)),
    accounts: (store, { userId }) => {
      forget(store, userId);
      dropWhere(store, (entry) => hasAuthor(entry, userId));
    },
    // A follow or unfollow changes the member's page; a block or mute either member's.
    relations: (store, { userId, otherId, kind }) => {
      forget(store, userId);
      if (kind !== 'follow' && kind !== 'unfollow') forget(store, otherId);
    },
    likes: patchLike,
    // The member's own page marks their bookmarks.
    bookmarks: (store, { userId }) => forget(store, userId),
  },
  clear,
});

/**
 * A like or unlike committed here: the liker's own pages go (their mark changed), the others
 * that show the post get the count the write's statement returned, as the Everyone feed's do.
 */
function patchLike(store: Store, change: EventTopics['likes']): void {
  forget(store, change.userId);
  dropWhere(store, (entry) => {
    if (loading(entry)) return true;
    const current = entry.current!;
    const index = current.items.findIndex((p) => p.id === change.postId);
    if (index === -1) return false;
    const items = [...current.items];
    items[index] = { ...items[index]!, likesCount: change.likesCount };
    entry.current = markShared({ ...current, items });
    entry.page = Promise.resolve(entry.current);
    return false;
  });
}

/** What a miss reads: the page as the member sees it, and its followees. */
export interface FollowingLoad {
  page: PostPage;
  followees: string[];
}

/** `memberId`'s first Following page of `limit` posts, from memory while no event changed it. */
export function cachedFollowingHead(
  scope: object,
  memberId: string,
  limit: number,
  load: () => Promise<FollowingLoad>,
): Promise<PostPage> {
  const store = followingPages.store(scope);
  const known = store.members.get(memberId)?.get(limit);
  if (known && followingPages.isFresh(known)) return known.page;
  if (known) store.authorCount -= known.authors?.size ?? 0;
  const loaded = load();
  const page = loaded.then(({ page }) => markShared(page));
  const entry: Entry = { page, current: null, authors: null, loadedAt: null };
  let pages = store.members.get(memberId);
  if (!pages) {
    pages = new Map();
    store.members.set(memberId, pages);
  } else {
    // Most recently used last, so the oldest member is the first evicted.
    store.members.delete(memberId);
    store.members.set(memberId, pages);
  }
  const kept = pages;
  track(kept, limit, entry, page, (arrived) => {
    entry.current = arrived;
  });
  loaded.then(
    ({ followees }) => {
      // Dropped meanwhile (an event, or evicted): it keeps nothing.
      if (kept.get(limit) !== entry || store.members.get(memberId) !== kept) return;
      entry.authors = new Set([...followees, memberId]);
      store.authorCount += entry.authors.size;
      evict(store, memberId);
    },
    () => {
      if (kept.size === 0 && store.members.get(memberId) === kept) store.members.delete(memberId);
    },
  );
  return page;
}

/**
 * How many members `memberId` follows, as their kept first page read it, or null when none is
 * kept. A later page needs the number only to choose how to read (findFollowingPage), and the
 * member has nearly always just read their first page.
 */
export function keptFolloweeCount(scope: object, memberId: string): number | null {
  for (const entry of followingPages.store(scope).members.get(memberId)?.values() ?? []) {
    // The member is among the authors too.
    if (entry.authors && followingPages.isFresh(entry)) return entry.authors.size - 1;
  }
  return null;
}

/** The least recently read members' pages go until the store is within its bounds. */
function evict(store: Store, keep: string): void {
  for (const memberId of store.members.keys()) {
    if (store.authorCount <= FOLLOWING_MAX_AUTHOR_IDS && store.members.size <= FOLLOWING_MAX_MEMBERS) return;
    if (memberId !== keep) forget(store, memberId);
  }
}
