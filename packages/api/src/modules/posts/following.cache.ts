/**
 * Each member's first page of their Following feed, kept in memory until a bus event says it
 * changed (kept-reads.ts): a post by one of the authors it follows (or by the member), a like,
 * comment, edit or deletion of a post on the page, a new name or avatar of an author on it, a
 * follow, unfollow, block or mute of the member's, or an account that left or came back. The
 * page is read as the member sees it (their likes marked, hidden authors left out), so it is
 * theirs alone: nothing is shared between members, only between a member's own requests.
 *
 * A page keeps the authors whose new posts would change it (the member's followees and the
 * member), read with it.
 *
 * Later pages are read from the database each time, but which posts they show is chosen a
 * window at a time: a later page that misses chooses the next FOLLOWING_WINDOW_PAGES pages' posts
 * in one statement and keeps their ids, so the pages after it are only read by id (choosing, with
 * the followees and every filter, is the dearer of a page's two statements). A window is
 * everything after a cursor, so a new post never changes it. What does: the member's follows,
 * blocks and mutes, a deletion or removal of a post in it, and a suspension of an author in it;
 * the rest of what a page shows (counts, edits, names) is read with the posts.
 * bench/README.md ("The Following feed") has the figures.
 */
import type { EventTopics } from '../../events/event-bus.js';
import { keptRead, type Loading, track } from '../../kept-reads.js';
import { markShared } from '../../shared-json.js';
import type { ViewerMarks } from './feed.cache.js';
import type { ChosenPost } from './following.repository.js';
import type { PostCursor } from './post.repository.js';
import type { PostPage } from './post.schema.js';

interface Entry extends Loading {
  page: Promise<PostPage>;
  /** the page once it arrived (patched in place of the old one by likes); null while loading */
  current: PostPage | null;
  /** the authors whose new posts change the page; null while loading (any post drops it) */
  authors: Set<string> | null;
}

/** The posts of a few later pages of `limit`, chosen in one statement after the cursor `after`. */
interface Window extends Loading {
  limit: number;
  after: PostCursor;
  chosen: ChosenPost[];
  /** the chosen posts' ids, for the pages read from it */
  ids: Set<string>;
  /** fewer were found than asked for: the feed ends within the window */
  complete: boolean;
  /** the member's likes and bookmarks among its posts, looked up once (null until a page needs them) */
  marks: Promise<ViewerMarks> | null;
}

/** How many later pages a window chooses at a time. */
export const FOLLOWING_WINDOW_PAGES = 5;

// Maps in use order, not LRUCaches: one bound (FOLLOWING_MAX_IDS) counts the ids of both maps
// together, and windows go before pages (`evict`).
interface Store {
  /** first pages, by member, then by page size */
  members: Map<string, Map<number, Entry>>;
  /** one window of later pages per member */
  windows: Map<string, Window>;
  /** the author ids and window posts kept: what bounds the store's memory */
  idCount: number;
  /** counts the events that can change a window: one chosen across any of them is not kept */
  windowChanges: number;
}

/**
 * At most this many ids (the authors of first pages, the posts of windows) kept in all (about
 * 40 MB); the least recently read go first.
 */
export const FOLLOWING_MAX_IDS = 500_000;
/** At most this many members' pages kept (a like looks through them all), and as many windows. */
export const FOLLOWING_MAX_MEMBERS = 5_000;

/** The member's first pages go (their window stays). */
function forgetPages(store: Store, memberId: string): void {
  const pages = store.members.get(memberId);
  if (!pages) return;
  for (const entry of pages.values()) store.idCount -= entry.authors?.size ?? 0;
  store.members.delete(memberId);
}

/** All the member's kept reads go. */
function forget(store: Store, memberId: string): void {
  forgetPages(store, memberId);
  forgetWindow(store, memberId);
}

function forgetWindow(store: Store, memberId: string): void {
  const window = store.windows.get(memberId);
  if (!window) return;
  store.idCount -= window.chosen.length;
  store.windows.delete(memberId);
}

/** Drops the first pages `drops` says changed. */
function dropWhere(store: Store, drops: (entry: Entry, memberId: string) => boolean): void {
  for (const [memberId, pages] of store.members) {
    for (const [size, entry] of pages) {
      if (!drops(entry, memberId)) continue;
      store.idCount -= entry.authors?.size ?? 0;
      pages.delete(size);
    }
    if (pages.size === 0) store.members.delete(memberId);
  }
}

/** Drops the windows `drops` says changed, and counts the change for windows being chosen. */
function dropWindowsWhere(store: Store, drops: (window: Window) => boolean): void {
  store.windowChanges += 1;
  for (const [memberId, window] of store.windows) if (drops(window)) forgetWindow(store, memberId);
}

/** Still loading: it may have been read before the event's write, so any event drops it. */
const loading = (entry: Entry) => entry.current === null || entry.authors === null;
const shows = (entry: Entry, postId: string) =>
  entry.current === null || entry.current.items.some((p) => p.id === postId || p.quote?.id === postId);
const hasAuthor = (entry: Entry, userId: string) => entry.authors === null || entry.authors.has(userId);
/** The page shows something of `userId`'s: a post of theirs (reposted by a followee), or their repost. */
const showsMember = (entry: Entry, userId: string) =>
  entry.current === null ||
  entry.current.items.some((p) => p.userId === userId || p.repostedBy?.id === userId);
/**
 * Likes and bookmarks on another instance (`feed`): the first pages go, and the windows' marks;
 * the windows' posts stay (what changed is read with the posts).
 */
const clearPages = (store: Store) => {
  for (const memberId of [...store.members.keys()]) forgetPages(store, memberId);
  for (const window of store.windows.values()) window.marks = null;
};
/** The member liked, unliked or bookmarked a post: their window's marks go. */
const dropMarks = (store: Store, memberId: string) => {
  const window = store.windows.get(memberId);
  if (window) window.marks = null;
};
const clear = (store: Store) => {
  store.members.clear();
  store.windows.clear();
  store.idCount = 0;
  store.windowChanges += 1;
};

export const followingPages = keptRead<Store>({
  name: "each member's first page of the Following feed, and a window of later pages' posts",
  // The events drop a page when it changes; the TTL only bounds what a lost event could leave.
  ttlMs: 30_000,
  make: () => ({ members: new Map(), windows: new Map(), idCount: 0, windowChanges: 0 }),
  dependsOn: {
    posts: (store, { authorId }) => dropWhere(store, (entry) => hasAuthor(entry, authorId)),
    postChanges: (store, { postId, kind }) => {
      dropWhere(store, (entry) => shows(entry, postId));
      if (kind === 'deleted') dropWindowsWhere(store, (window) => window.ids.has(postId));
      // A vote or a poll's end: the marks hold the poll as the viewers who see its counts see it.
      if (kind === 'poll') {
        for (const window of store.windows.values()) if (window.ids.has(postId)) window.marks = null;
      }
    },
    comments: (store, { postId }) => dropWhere(store, (entry) => shows(entry, postId)),
    // Likes, comments and favourites on other instances: counts on any page may have moved.
    feed: clearPages,
    profiles: (store, { userId }) => {
      dropWhere(store, (entry) => hasAuthor(entry, userId) || showsMember(entry, userId));
      // A window keeps its reposters' names.
      dropWindowsWhere(store, (window) => window.chosen.some((p) => p.reposter_id === userId));
    },
    accounts: (store, { userId }) => {
      forget(store, userId);
      dropWhere(store, (entry) => hasAuthor(entry, userId) || showsMember(entry, userId));
      dropWindowsWhere(store, (window) =>
        window.chosen.some((p) => p.author_id === userId || p.reposter_id === userId),
      );
    },
    // A follow or unfollow changes the member's pages; a block or mute either member's.
    relations: (store, { userId, otherId, kind }) => {
      store.windowChanges += 1;
      forget(store, userId);
      if (kind !== 'follow' && kind !== 'unfollow') forget(store, otherId);
    },
    likes: patchLike,
    reposts: (store, { userId, postId, reposted }) => {
      // The reposter's followers' first pages (and theirs), and those that show the post (its count).
      dropWhere(store, (entry) => hasAuthor(entry, userId) || shows(entry, postId));
      forgetPages(store, userId);
      dropMarks(store, userId);
      // A repost moves the post to the top: a window holding it as it was changed. A repost
      // taken back can bring the post back at its own time, anywhere: every window goes.
      if (reposted) dropWindowsWhere(store, (window) => window.ids.has(postId));
      else dropWindowsWhere(store, () => true);
    },
    // The member's own page marks their bookmarks.
    bookmarks: (store, { userId }) => {
      forgetPages(store, userId);
      dropMarks(store, userId);
    },
  },
  clear,
});

/**
 * A like or unlike committed here: the liker's own pages go (their mark changed), the others
 * that show the post get the count the write's statement returned, as the Everyone feed's do.
 */
function patchLike(store: Store, change: EventTopics['likes']): void {
  forgetPages(store, change.userId);
  dropMarks(store, change.userId);
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
  if (known) store.idCount -= known.authors?.size ?? 0;
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
      store.idCount += entry.authors.size;
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
 * kept. A later page needs the number only to choose how to read (chooseFollowing), and the
 * member has nearly always just read their first page.
 */
function keptFolloweeCount(scope: object, memberId: string): number | null {
  for (const entry of followingPages.store(scope).members.get(memberId)?.values() ?? []) {
    // The member is among the authors too.
    if (entry.authors && followingPages.isFresh(entry)) return entry.authors.size - 1;
  }
  return null;
}

/** The least recently read windows, then members' pages, go until the store is within its bounds. */
function evict(store: Store, keep: string): void {
  const within = () => store.idCount <= FOLLOWING_MAX_IDS && store.members.size <= FOLLOWING_MAX_MEMBERS;
  for (const memberId of store.windows.keys()) {
    if (within() && store.windows.size <= FOLLOWING_MAX_MEMBERS) break;
    if (memberId !== keep) forgetWindow(store, memberId);
  }
  for (const memberId of store.members.keys()) {
    if (within()) return;
    if (memberId !== keep) forgetPages(store, memberId);
  }
}

/**
 * The posts of the page after `cursor` and one more (when there is a next page), from the
 * window: null when the window does not hold the whole page. A cursor is found only as this feed
 * wrote it, the window's start or one of its posts.
 */
function fromWindow(window: Window, cursor: PostCursor, limit: number): ChosenPost[] | null {
  if (window.limit !== limit) return null;
  const same = (key: { createdAt: string; id: string }) =>
    key.id === cursor.id && key.createdAt === cursor.createdAt;
  let start = 0;
  if (!same(window.after)) {
    const at = window.chosen.findIndex((post) => same({ createdAt: post.created_at, id: post.id }));
    if (at === -1) return null;
    start = at + 1;
  }
  const end = start + limit + 1;
  if (end > window.chosen.length && !window.complete) return null;
  return window.chosen.slice(start, end);
}

/**
 * The posts of `memberId`'s Following page of `limit` after `cursor`, and one more when there is
 * a next page (its cursor comes from them). From the member's window when it holds them; otherwise
 * `choose` picks the next FOLLOWING_WINDOW_PAGES pages' posts after the cursor (given the followee
 * count when a kept first page knows it), kept as the member's window.
 */
export async function cachedFollowingLater(
  scope: object,
  memberId: string,
  limit: number,
  cursor: PostCursor,
  choose: (count: number, followees: number | undefined) => Promise<ChosenPost[]>,
): Promise<ChosenPost[]> {
  const store = followingPages.store(scope);
  const window = store.windows.get(memberId);
  const kept = window && followingPages.isFresh(window) && fromWindow(window, cursor, limit);
  if (kept) {
    // Most recently read last, so the oldest window is the first evicted.
    store.windows.delete(memberId);
    store.windows.set(memberId, window!);
    return kept;
  }
  const count = limit * FOLLOWING_WINDOW_PAGES + 1;
  const changes = store.windowChanges;
  const chosen = await choose(count, keptFolloweeCount(scope, memberId) ?? undefined);
  // Not kept if an event that can change a window came while choosing (it could be this one).
  if (store.windowChanges === changes) {
    forgetWindow(store, memberId);
    store.windows.set(memberId, {
      limit,
      after: cursor,
      chosen,
      ids: new Set(chosen.map((p) => p.id)),
      complete: chosen.length < count,
      marks: null,
      loadedAt: Date.now(),
    });
    store.idCount += chosen.length;
    evict(store, memberId);
  }
  return chosen.slice(0, limit + 1);
}

/**
 * `memberId`'s likes and bookmarks among `postIds`: looked up once for all the posts of their
 * window when every one of `postIds` is in it (a window's pages need them one after the other),
 * otherwise with `load` each time.
 */
export function cachedWindowMarks(
  scope: object,
  memberId: string,
  postIds: string[],
  load: (postIds: string[]) => Promise<ViewerMarks>,
): Promise<ViewerMarks> {
  const window = followingPages.store(scope).windows.get(memberId);
  if (!window || !followingPages.isFresh(window) || !postIds.every((id) => window.ids.has(id))) {
    return load(postIds);
  }
  if (!window.marks) {
    const marks = load([...window.ids]);
    window.marks = marks;
    // A failed look-up never stays.
    marks.catch(() => {
      if (window.marks === marks) window.marks = null;
    });
  }
  return window.marks;
}
