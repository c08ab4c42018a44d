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
import { keptRead, type Loading, track } from '../../kept-reads.js';
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
  poll?: PollDto | null;
}
type KeptPage = Page<Item>;

interface Head extends Loading {
  page: Promise<KeptPage>;
  /** the page once it arrived (patched in place of the old one by likes); null while loading */
  current: KeptPage | null;
  viewers: Map<string, Promise<Viewer>>;
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

/**
 * By the feed page's size (a number), `after:<cursor>:<size>` for a later page of the feed,
 * `user:<id>:<size>` for a profile's first page, `comments:<postId>:<size>` for a post's first
 * comments.
 */
type Heads = Map<number | string, Head>;

const dropAll = (heads: Heads) => heads.clear();

/**
 * Pages kept at most (about 20 KB each, with their viewers' copies on top); past that the oldest
 * go first. Stale ones go as new ones come (`headOf`), so this bounds a burst, not the usual day.
 */
export const FEED_PAGES_MAX_HEADS = 2_000;

/**
 * A new post tops the feed's first pages and its author's profile. The feed's later pages start
 * after a post that is older than it, so they stay, as do other profiles and every post's comments.
 */
function dropForNewPost(heads: Heads, { authorId }: EventTopics['posts']): void {
  const profile = `user:${authorId}:`;
  for (const key of heads.keys()) {
    if (typeof key === 'number' || key.startsWith(profile)) heads.delete(key);
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

/**
 * Every write that changes what a first page shows drops the pages that show it: a new post the
 * feed's and its author's, a comment the pages its post is on. An edit or deletion, a name or
 * avatar, a block or mute, an account that left, and other instances' likes and comments
 * (`feed`) drop them all. A like made here patches the pages instead.
 */
export const feedPages = keptRead<Heads>({
  name: 'first pages of the feed, profiles and comments',
  ttlMs: 1_000,
  maxViewers: 5_000,
  make: () => new Map(),
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
    likes: patchLike,
    reposts: patchRepost,
    // Only the member's own copies show their bookmarks.
    bookmarks: (heads, { userId }) => {
      for (const head of heads.values()) head.viewers.delete(userId);
    },
  },
  clear: dropAll,
});

/**
 * A count changed by a toggle committed here (a like, a repost): the pages are patched instead of
 * dropped, with the count the write's own statement returned, and the member's own copies go
 * (their mark changed). Two toggles of one post answered out of commit order can leave the
 * patched count one behind until the next toggle or the TTL, when the page is read again.
 * `drops` names pages that go whole.
 */
function patchCount(
  heads: Heads,
  change: { postId: string; userId: string },
  count: Partial<Pick<PostPage['items'][number], 'likesCount' | 'repostsCount'>>,
  drops: (key: number | string) => boolean = () => false,
): void {
  for (const [key, head] of heads) {
    // A page still loading may have been read before this write: it cannot be patched. One past
    // its second will never answer again: it goes, so the next like does not walk it (after a
    // burst of profiles opened once, up to FEED_PAGES_MAX_HEADS stale pages stayed, and every
    // like searched them all until new pages pushed them out).
    if (drops(key) || !head.current || !feedPages.isFresh(head)) {
      heads.delete(key);
      continue;
    }
    const index = head.current.items.findIndex((p) => p.id === change.postId);
    if (index === -1) continue;
    const items = [...head.current.items];
    items[index] = { ...items[index]!, ...count } as Item; // a post: ids are unique
    head.current = markShared({ ...head.current, items });
    head.page = Promise.resolve(head.current);
    head.viewers.delete(change.userId);
  }
}

function patchLike(heads: Heads, change: EventTopics['likes']): void {
  patchCount(heads, change, { likesCount: change.likesCount });
}

/** A repost or its taking back: the reposter's profile pages go too (their Posts tab lists it). */
function patchRepost(heads: Heads, change: EventTopics['reposts']): void {
  const profile = `user:${change.userId}:`;
  patchCount(
    heads,
    change,
    { repostsCount: change.repostsCount },
    (key) => typeof key === 'string' && key.startsWith(profile),
  );
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
}

// A Map in read order, not an LRUCache: a new page first lets the stale ones at the front go,
// and the bus events drop pages as they walk them (lru-cache's walk must not change it).
function headOf(heads: Heads, key: number | string, load: () => Promise<KeptPage>): Head {
  const current = heads.get(key);
  if (current && feedPages.isFresh(current)) return current;
  // Kept in the order they were read: the stale ones at the front go as a new one comes, so
  // pages nobody reads again (a profile, a thread) do not pile up between the events that drop them.
  heads.delete(key);
  for (const [oldKey, old] of heads) {
    if (heads.size < FEED_PAGES_MAX_HEADS && feedPages.isFresh(old)) break;
    heads.delete(oldKey);
  }
  const page = load().then((loaded) => markShared(loaded));
  const head: Head = { page, current: null, loadedAt: null, viewers: new Map() };
  return track(heads, key, head, page, (loaded) => {
    head.current = loaded;
  });
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
  return cachedHead(scope, limit, viewerId, source) as Promise<PostPage>;
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
  return cachedHead(scope, `after:${cursor}:${limit}`, viewerId, source) as Promise<PostPage>;
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
  const page = (await cachedHead(scope, `user:${authorId}:${limit}`, viewerId, source)) as PostPage;
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
  return cachedHead(scope, `comments:${postId}:${limit}`, viewerId, source) as Promise<P>;
}

function cachedHead<P extends KeptPage>(
  scope: object,
  key: number | string,
  viewerId: string | null,
  source: HeadSource<P>,
): Promise<KeptPage> {
  const heads = feedPages.store(scope);
  if (viewerId !== null && source.loadWithMarks) {
    const kept = heads.get(key);
    if (!kept || !feedPages.isFresh(kept)) {
      // A miss: the page and this viewer's marks come in one statement.
      const both = source.loadWithMarks(viewerId);
      const head = headOf(heads, key, () => both.then(({ page }) => page));
      const viewer = feedPages.viewerCopy(head.viewers, viewerId, () =>
        Promise.all([head.page, both]).then(
          ([page, { marks }]): Viewer => ({ base: page, ...marks, copyOf: null, copy: null }),
        ),
      );
      return viewer.then((v) => copyFor(head.current ?? v.base, v));
    }
  }
  const head = headOf(heads, key, () => source.load());
  if (viewerId === null) return head.page;
  const viewer = feedPages.viewerCopy(head.viewers, viewerId, () =>
    head.page.then(async (page): Promise<Viewer> => {
      // Asked of an empty page too: the sources answer an empty list without a query, and a
      // post's comments ask whether the post is there for the viewer at all.
      const { liked, reposted, bookmarked, hidden, polls } = await source.viewerMarks(
        viewerId,
        page.items.map((p) => p.id),
        [...new Set(page.items.flatMap((p) => (p.quote ? [p.userId, p.quote.userId] : [p.userId])))],
      );
      return { base: page, liked, reposted, bookmarked, hidden, polls, copyOf: null, copy: null };
    }),
  );
  // The page as it is now: a like since the lookup may have patched it.
  return viewer.then((v) => copyFor(head.current ?? v.base, v));
}
