/**
 * The feed's first page is the same for every viewer but for `isLiked`, `isBookmarked` and the
 * authors a viewer blocked, was blocked by or muted (left out of their copy), and it is by far the
 * most requested read. A member's profile opens on the first page of their posts, and a post on
 * its first comments, each the same for every viewer but for the same marks: all three are kept
 * here, for at most the TTL, and dropped by the bus events `feedPages` depends on (kept-reads.ts).
 *
 * Each viewer's likes, bookmarks and hidden authors among a page's posts live with the page, so
 * they are looked up once per page, not once per request. A like made here patches the page
 * instead of dropping it (under mixed load a drop per like would empty it all the time), and
 * forgets the liker's own copy; every other viewer's copy is remade from the new page without a
 * query. Pages are shared between requests and never edited (a patched page or a viewer's copy is
 * made of new objects), so they are marked shared and a host encodes each to JSON once.
 */
import type { EventTopics } from '../../events/event-bus.js';
import { type KeptRead, keptRead, type Loading, track } from '../../kept-reads.js';
import type { Page } from '../../paging.js';
import { markShared } from '../../shared-json.js';
import type { PollDto } from '../polls/poll.schema.js';
import type { PostPage } from './post.schema.js';

/** What a kept page lists: posts, or a post's comments (which nobody likes). */
interface Item {
  id: string;
  userId: string;
  isLiked?: boolean;
  isReposted?: boolean;
  isBookmarked?: boolean;
  /** a post's quoted post: its author may be hidden from a viewer too */
  quote?: { userId: string } | null;
  /** the id of the post it quotes (its edits and deletion change the page too) */
  quotePostId?: string | null;
  poll?: PollDto | null;
}
type KeptPage = Page<Item>;

interface Head extends Loading {
  page: Promise<KeptPage>;
  /** the page once it arrived (patched in place of the old one by likes); null while loading */
  current: KeptPage | null;
  viewers: Map<string, Promise<Viewer>>;
  /** when it stops being fresh (`Heads.lifetime`); null while loading */
  expiresAt: number | null;
  /** a reload runs behind it while it answers past its lifetime (profiles: `headOf`) */
  reloading?: boolean;
}

/** What sets one viewer's copy apart, looked up once per page, and their copy of the page as it is. */
interface Viewer {
  /** the page the lookup was made for */
  base: KeptPage;
  liked: Set<string>;
  reposted: Set<string>;
  bookmarked: Set<string>;
  hidden: Set<string>;
  polls?: Map<string, PollDto>;
  copyOf: KeptPage | null;
  copy: KeptPage | null;
}

type Key = number | string;

/**
 * The kept pages by key, in read order: by the feed page's size (a number), `after:<cursor>:<size>`
 * for a later page of the feed, `comments:<postId>:<size>` for a post's first comments,
 * `user:<id>:<size>` for a profile's first page (`profilePages`).
 *
 * It also knows which arrived pages show each post (as an item, or as the post an item quotes),
 * so a like patches only those: with 2,000 profiles' pages kept for 30 s, walking every page at
 * each like would cost more than the like. Pages still loading are listed apart: they may have
 * been read before the write, so they can only be dropped. Every way out of the map (a drop,
 * `clear`, a failed load through `track`) goes through `delete` or `clear`, which keep all three
 * in step; a page that arrives is indexed only while it is still the one under its key.
 */
/** How long a store's pages answer. */
interface Lifetimes {
  ttlMs: number;
  /** each page's lifetime is drawn between (1 − spread) × ttlMs and ttlMs as it arrives */
  spread: number;
  /** past its lifetime, a page answers while one reload runs behind it, until this long after it arrived; 0: never */
  staleForMs: number;
}

class Heads extends Map<Key, Head> {
  private readonly showing = new Map<string, Set<Key>>();
  private readonly loading = new Set<Key>();

  constructor(readonly lifetimes: Lifetimes) {
    super();
  }

  /** A page's lifetime from its arrival. */
  lifetime(): number {
    const { ttlMs, spread } = this.lifetimes;
    return spread === 0 ? ttlMs : ttlMs * (1 - spread * Math.random());
  }

  /** Whether `head`, past its lifetime, answers while a reload runs behind it. */
  answersStale(head: Head): boolean {
    return (
      head.current !== null &&
      head.loadedAt !== null &&
      Date.now() - head.loadedAt < this.lifetimes.staleForMs
    );
  }

  override set(key: Key, head: Head): this {
    this.delete(key);
    super.set(key, head);
    if (head.current) this.index(key, head.current);
    else this.loading.add(key);
    return this;
  }

  /** `head`'s page arrived (`head.current`): indexed, if `head` is still the one under `key`. */
  arrived(key: Key, head: Head): void {
    if (this.get(key) !== head || !head.current) return;
    this.loading.delete(key);
    this.index(key, head.current);
  }

  override delete(key: Key): boolean {
    const head = this.get(key);
    if (!head) return false;
    this.loading.delete(key);
    // A patched page shows the same posts as the one indexed.
    if (head.current) {
      for (const id of shownIds(head.current)) {
        const keys = this.showing.get(id);
        keys?.delete(key);
        if (keys?.size === 0) this.showing.delete(id);
      }
    }
    return super.delete(key);
  }

  override clear(): void {
    this.showing.clear();
    this.loading.clear();
    super.clear();
  }

  /** The keys of the pages that show `postId`, and of those still loading (they may). */
  touching(postId: string): Key[] {
    return [...(this.showing.get(postId) ?? []), ...this.loading];
  }

  private index(key: Key, page: KeptPage): void {
    for (const id of shownIds(page)) {
      let keys = this.showing.get(id);
      if (!keys) {
        keys = new Set();
        this.showing.set(id, keys);
      }
      keys.add(key);
    }
  }
}

function shownIds(page: KeptPage): string[] {
  return page.items.flatMap((p) => (p.quotePostId ? [p.id, p.quotePostId] : [p.id]));
}

const dropAll = (heads: Heads) => heads.clear();

/**
 * Pages kept at most (about 20 KB each, with their viewers' copies on top); past that the oldest
 * go first. Stale ones go as new ones come (`headOf`), so this bounds a burst, not the usual day.
 */
export const FEED_PAGES_MAX_HEADS = 2_000;

/**
 * A new post tops the feed's first pages. The feed's later pages start after a post that is older
 * than it, so they stay, as do every post's comments.
 */
function dropForNewPost(heads: Heads): void {
  for (const key of heads.keys()) {
    if (typeof key === 'number') heads.delete(key);
  }
}

/**
 * A comment here changes one post's count, on whichever page shows that post, and that post's own
 * first comments; every other page stays. A page still loading may have been read before the
 * comment, and may show the post: it goes too.
 */
function dropForComment(heads: Heads, { postId }: EventTopics['comments']): void {
  const comments = `comments:${postId}:`;
  for (const [key, head] of heads) {
    if (typeof key === 'string' && key.startsWith('comments:')) {
      if (key.startsWith(comments)) heads.delete(key);
    } else if (!head.current || head.current.items.some((p) => p.id === postId)) {
      heads.delete(key);
    }
  }
}

/** Only the member's own copies show their bookmarks. */
function dropBookmarker(heads: Heads, { userId }: EventTopics['bookmarks']): void {
  for (const head of heads.values()) head.viewers.delete(userId);
}

/**
 * Every write that changes what a page of the feed or a post's first comments shows drops the
 * pages that show it: a new post the feed's first pages, a comment the pages its post is on. An
 * edit or deletion, a name or avatar, a block or mute, an account that left, and other instances'
 * likes and comments (`feed`) drop them all. A like made here patches the pages instead.
 */
const FEED_PAGES_TTL_MS = 1_000;

export const feedPages = keptRead<Heads>({
  name: 'pages of the feed and first comments',
  ttlMs: FEED_PAGES_TTL_MS,
  maxViewers: 5_000,
  make: () => new Heads({ ttlMs: FEED_PAGES_TTL_MS, spread: 0, staleForMs: 0 }),
  dependsOn: {
    posts: dropForNewPost,
    postChanges: dropAll,
    comments: dropForComment,
    profiles: dropAll,
    accounts: dropAll,
    feed: dropAll,
    relations: (heads, { kind }) => {
      if (kind !== 'follow' && kind !== 'unfollow') heads.clear();
    },
    likes: (heads, change) => patchCount(heads, change, { likesCount: change.likesCount }),
    reposts: (heads, change) => patchCount(heads, change, { repostsCount: change.repostsCount }),
    bookmarks: dropBookmarker,
  },
  clear: dropAll,
});

/** A profile's first pages (one per page size). */
function dropProfileOf(heads: Heads, memberId: string): void {
  const profile = `user:${memberId}:`;
  for (const key of heads.keys()) {
    if (typeof key === 'string' && key.startsWith(profile)) heads.delete(key);
  }
}

/** The pages that show `postId` (or quote it), and those still loading. */
function dropTouching(heads: Heads, postId: string): void {
  for (const key of heads.touching(postId)) heads.delete(key);
}

/**
 * How long a profile's first page is fresh at most. Every write that changes one drops or patches
 * it at once (`profilePages`); the one change no event announces is a suspension that ends by its
 * date, which brings back its member's posts that others reposted: those show within this (and
 * one reload). Kept longer than the feed's second because profiles are many and each is asked
 * seldom: with a second, a community reading a thousand profiles read nearly every one from the
 * database (issue #45's miss path, bench/README.md).
 *
 * Two things keep the reloads from piling up. Each page's lifetime is drawn between 75 % and all
 * of this as it arrives, so pages read in the same second (a burst of readers) are not all read
 * again in the same second. And a page past its lifetime still answers while one reload runs
 * behind it (for up to another lifetime; `headOf`), so its readers never wait for the database:
 * only a page nobody has, or one an event dropped, is read while its reader waits.
 */
export const PROFILE_PAGES_TTL_MS = 30_000;

/** Whether `head` answers as it is: it is loading, or still within its lifetime. */
function isFresh(head: Head): boolean {
  return head.loadedAt === null || head.expiresAt === null || Date.now() < head.expiresAt;
}

/**
 * The first pages of each profile's posts, as a visitor sees them, with each viewer's copy. The
 * page changes only where what it shows changes, so events drop only those pages: a new post by
 * its member (or a repost, or a pin: `profiles`), a comment, edit, deletion, vote or link card of
 * a post it shows or quotes; a name or avatar (`profiles`), an account that left or came back, and
 * other instances' counts (`feed`) drop them all. A block or unblock changes only the two members'
 * own copies (a visitor's page is the same), a bookmark the member's; a like here patches the
 * pages that show its post.
 */
export const profilePages = keptRead<Heads>({
  name: 'first pages of profiles',
  ttlMs: PROFILE_PAGES_TTL_MS,
  // Pages live long here and are many: past this, a reader's copy is made again at each read
  // (from their kept marks, `keptMarks`: no statement), so memory stays bounded.
  maxViewers: 100,
  make: () => new Heads({ ttlMs: PROFILE_PAGES_TTL_MS, spread: 0.25, staleForMs: 2 * PROFILE_PAGES_TTL_MS }),
  dependsOn: {
    posts: (heads, { authorId }) => dropProfileOf(heads, authorId),
    postChanges: (heads, { postId, authorId }) => {
      dropTouching(heads, postId);
      dropProfileOf(heads, authorId);
    },
    comments: (heads, { postId }) => dropTouching(heads, postId),
    profiles: dropAll,
    accounts: dropAll,
    feed: dropAll,
    relations: (heads, { userId, otherId, kind }) => {
      if (kind !== 'block' && kind !== 'unblock') return;
      for (const head of heads.values()) {
        head.viewers.delete(userId);
        head.viewers.delete(otherId);
      }
    },
    likes: (heads, change) => patchCount(heads, change, { likesCount: change.likesCount }),
    // The reposter's own pages list the post, or no longer do: they go.
    reposts: (heads, change) => {
      dropProfileOf(heads, change.userId);
      patchCount(heads, change, { repostsCount: change.repostsCount });
    },
    bookmarks: dropBookmarker,
  },
  clear: dropAll,
});

/**
 * A count changed by a toggle committed here (a like, a repost): the pages that show the post are
 * patched instead of dropped, with the count the write's own statement returned, and the member's
 * own copies of them go (their mark changed). Two toggles of one post answered out of commit order
 * can leave the patched count one behind until the next toggle or the TTL, when the page is read
 * again. A page still loading may have been read before this write, and one past its TTL will be
 * read again anyway: both go.
 */
function patchCount(
  heads: Heads,
  change: { postId: string; userId: string },
  count: Partial<Pick<PostPage['items'][number], 'likesCount' | 'repostsCount'>>,
): void {
  for (const key of heads.touching(change.postId)) {
    const head = heads.get(key);
    if (!head) continue;
    if (!head.current || !isFresh(head)) {
      heads.delete(key);
      continue;
    }
    const index = head.current.items.findIndex((p) => p.id === change.postId);
    if (index === -1) continue; // it only quotes the post
    const items = [...head.current.items];
    items[index] = { ...items[index]!, ...count } as Item; // a post: ids are unique
    head.current = markShared({ ...head.current, items });
    head.page = Promise.resolve(head.current);
    head.viewers.delete(change.userId);
  }
}

/** What a viewer's copy of a kept page differs by. */
export interface ViewerMarks {
  /** the posts on the page the viewer likes */
  liked: Set<string>;
  /** the posts on the page the viewer reposted */
  reposted: Set<string>;
  /** the posts on the page the viewer bookmarked */
  bookmarked: Set<string>;
  /** the authors the viewer's copy leaves out */
  hidden: Set<string>;
  /**
   * the polls on the page as the viewer sees them, where that differs from a visitor's (theirs,
   * or voted in: the counts and their choices); kept pages hold a visitor's poll
   */
  polls?: Map<string, PollDto>;
}
export const NO_MARKS: ViewerMarks = {
  liked: new Set(),
  reposted: new Set(),
  bookmarked: new Set(),
  hidden: new Set(),
};

export interface HeadSource<P> {
  /** the first page as a visitor sees it (isLiked false everywhere) */
  load(): Promise<P>;
  /**
   * The viewer's marks on these posts by these authors, in one statement: which posts they like
   * (none for comments) and which authors their copy leaves out (the feed's: blocks either way
   * and mutes; a profile's and comments': blocks either way). It may throw to refuse the page.
   */
  viewerMarks(viewerId: string, postIds: string[], authorIds: string[]): Promise<ViewerMarks>;
  /**
   * The page as `load` reads it and the viewer's marks on it, in one statement: a miss of a
   * member costs one round trip instead of two (`load`, then `viewerMarks`). Optional.
   */
  loadWithMarks?(viewerId: string): Promise<{ page: P; marks: ViewerMarks }>;
  /**
   * The viewer's marks on `page` from what is kept of them, without a statement (a page kept for
   * many readers: each new reader costs none); null when that cannot tell, and `viewerMarks`
   * asks. Optional.
   */
  keptMarks?(viewerId: string, page: P): Promise<ViewerMarks | null>;
}

// A Map in read order, not an LRUCache: a new page first lets the stale ones at the front go,
// and the bus events drop pages as they walk them (lru-cache's walk must not change it).
function headOf(heads: Heads, key: Key, load: () => Promise<KeptPage>): Head {
  const current = heads.get(key);
  if (current && isFresh(current)) return current;
  if (current && heads.answersStale(current)) {
    reloadBehind(heads, key, current, load);
    return current;
  }
  // Kept in the order they were read: the stale ones at the front go as a new one comes, so
  // pages nobody reads again (a profile, a thread) do not pile up between the events that drop them.
  heads.delete(key);
  for (const [oldKey, old] of heads) {
    if (heads.size < FEED_PAGES_MAX_HEADS && isFresh(old)) break;
    heads.delete(oldKey);
  }
  const page = load().then((loaded) => markShared(loaded));
  const head: Head = { page, current: null, loadedAt: null, expiresAt: null, viewers: new Map() };
  return track(heads, key, head, page, (loaded) => {
    head.current = loaded;
    head.expiresAt = Date.now() + heads.lifetime();
    heads.arrived(key, head);
  });
}

/**
 * Reads `stale`'s page again while it answers; the new page takes its place under `key` only if
 * `stale` is still there: an event that dropped it may have come after this read began.
 */
function reloadBehind(heads: Heads, key: Key, stale: Head, load: () => Promise<KeptPage>): void {
  if (stale.reloading) return;
  stale.reloading = true;
  const page = load().then((loaded) => markShared(loaded));
  page.then(
    (loaded) => {
      if (heads.get(key) !== stale) return;
      const now = Date.now();
      const fresh: Head = {
        page,
        current: loaded,
        loadedAt: now,
        expiresAt: now + heads.lifetime(),
        viewers: new Map(),
      };
      heads.set(key, fresh);
    },
    () => {
      stale.reloading = false;
    },
  );
}

/**
 * `items` as a viewer with `marks` sees them: the authors they hide left out, their likes and
 * bookmarks marked. An item that changes is a new object; the others are the same.
 */
export function markedFor<T extends Item>(
  items: readonly T[],
  { liked, reposted, bookmarked, hidden, polls }: ViewerMarks,
): T[] {
  return items
    .filter((p) => !hidden.has(p.userId))
    .map((p) => {
      // A quote of someone hidden from the viewer: the card says the post is unavailable.
      const quoteHidden = p.quote != null && hidden.has(p.quote.userId);
      return liked.has(p.id) || reposted.has(p.id) || bookmarked.has(p.id) || quoteHidden || polls?.has(p.id)
        ? {
            ...p,
            isLiked: p.isLiked || liked.has(p.id),
            // Comments have no reposts: the field stays off them.
            ...(reposted.has(p.id) ? { isReposted: true } : {}),
            ...(quoteHidden ? { quote: null } : {}),
            isBookmarked: p.isBookmarked || bookmarked.has(p.id),
            ...(polls?.has(p.id) ? { poll: polls.get(p.id) } : {}),
          }
        : p;
    });
}

/** The authors a page shows: of its posts and of the posts they quote. */
export function authorsOf(page: Page<Item>): string[] {
  return [...new Set(page.items.flatMap((p) => (p.quote ? [p.userId, p.quote.userId] : [p.userId])))];
}

/** The viewer's copy of `page`: the page itself when they like none of it and hide no one. */
function copyFor(page: KeptPage, viewer: Viewer): KeptPage {
  if (viewer.copyOf === page && viewer.copy) return viewer.copy;
  const { liked, reposted, bookmarked, hidden, polls } = viewer;
  const copy =
    (liked.size === 0 && reposted.size === 0 && bookmarked.size === 0 && hidden.size === 0 && !polls?.size) ||
    page.items.length === 0
      ? page
      : // A copy without hidden authors is shorter; its nextCursor still follows the whole page, so
        // paging on from it neither repeats nor skips a post the viewer may see.
        markShared({ ...page, items: markedFor(page.items, viewer) });
  viewer.copyOf = page;
  viewer.copy = copy;
  return copy;
}

/** The first page of `limit` posts as `viewerId` (null: a visitor) sees it, from memory when fresh. */
export function cachedFeedHead(
  scope: object,
  limit: number,
  viewerId: string | null,
  source: HeadSource<PostPage>,
): Promise<PostPage> {
  return cachedHead(feedPages, scope, limit, viewerId, source) as Promise<PostPage>;
}

/**
 * The feed's page of `limit` posts after `cursor` (encoded, as a page's nextCursor is) as `viewerId`
 * sees it, from memory when fresh. Everyone who scrolls the feed asks for the same pages: the
 * first page's next cursor is the same for all while it is kept, and so is each page's after it.
 */
export function cachedFeedPage(
  scope: object,
  cursor: string,
  limit: number,
  viewerId: string | null,
  source: HeadSource<PostPage>,
): Promise<PostPage> {
  return cachedHead(feedPages, scope, `after:${cursor}:${limit}`, viewerId, source) as Promise<PostPage>;
}

/**
 * The first page of `limit` posts by `authorId` as `viewerId` sees it, from memory when fresh.
 * `source.viewerMarks` says whether a block stands between them: a viewer's copy without
 * the author is empty and has no next page.
 */
export async function cachedProfileHead(
  scope: object,
  authorId: string,
  limit: number,
  viewerId: string | null,
  source: HeadSource<PostPage>,
): Promise<PostPage> {
  const page = (await cachedHead(
    profilePages,
    scope,
    `user:${authorId}:${limit}`,
    viewerId,
    source,
  )) as PostPage;
  return page.items.length === 0 && page.nextCursor !== null ? EMPTY_PAGE : page;
}
const EMPTY_PAGE: PostPage = markShared({ items: [], nextCursor: null });

/**
 * The first `limit` comments on `postId` as `viewerId` sees them, from memory when fresh: kept
 * with the posts' pages, since every write that changes them (a comment, its author's profile, a
 * block) drops those too. A viewer's copy leaves out the comments of members blocked either way.
 */
export function cachedCommentsHead<P extends Page<Item>>(
  scope: object,
  postId: string,
  limit: number,
  viewerId: string | null,
  source: HeadSource<P>,
): Promise<P> {
  return cachedHead(feedPages, scope, `comments:${postId}:${limit}`, viewerId, source) as Promise<P>;
}

function cachedHead<P extends KeptPage>(
  read: KeptRead<Heads>,
  scope: object,
  key: number | string,
  viewerId: string | null,
  source: HeadSource<P>,
): Promise<KeptPage> {
  const heads = read.store(scope);
  if (viewerId !== null && source.loadWithMarks) {
    const kept = heads.get(key);
    if (!kept || !(isFresh(kept) || heads.answersStale(kept))) {
      // A miss: the page and this viewer's marks come in one statement.
      const both = source.loadWithMarks(viewerId);
      const head = headOf(heads, key, () => both.then(({ page }) => page));
      const viewer = read.viewerCopy(head.viewers, viewerId, () =>
        Promise.all([head.page, both]).then(
          ([page, { marks }]): Viewer => ({ base: page, ...marks, copyOf: null, copy: null }),
        ),
      );
      return viewer.then((v) => copyFor(head.current ?? v.base, v));
    }
  }
  const head = headOf(heads, key, () => source.load());
  if (viewerId === null) return head.page;
  const viewer = read.viewerCopy(head.viewers, viewerId, () =>
    head.page.then(async (page): Promise<Viewer> => {
      // Asked of an empty page too: the sources answer an empty list without a query, and a
      // post's comments ask whether the post is there for the viewer at all.
      const { liked, reposted, bookmarked, hidden, polls } =
        (await source.keptMarks?.(viewerId, page as P)) ??
        (await source.viewerMarks(
          viewerId,
          page.items.map((p) => p.id),
          authorsOf(page),
        ));
      return { base: page, liked, reposted, bookmarked, hidden, polls, copyOf: null, copy: null };
    }),
  );
  // The page as it is now: a like since the lookup may have patched it.
  return viewer.then((v) => copyFor(head.current ?? v.base, v));
}
