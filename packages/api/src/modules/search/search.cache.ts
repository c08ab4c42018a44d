/**
 * Search answers are the same for every viewer but for the viewer's own marks (whom they follow,
 * which posts they liked, which media they favourited) and the members they blocked or were
 * blocked by, and people search for the same words, while a search of a common word is the most
 * expensive read there is (bench/README.md, "Search"). The answer as a visitor sees it is kept
 * per query, with a few spare results of each kind, and each viewer's marks are laid over it
 * with one statement, once per answer.
 *
 * An answer has two parts that go stale differently:
 * - people: the typo correction, users and media. Kept for the TTL (10 s), so a new member or
 *   medium, a follower or favourite count can be that old; dropped at once when a member changes
 *   their name, leaves, is suspended or reinstated (`searchAnswers` below), and read again when
 *   the next suspension ends by its date (`SearchParts.peopleUntil`), which no event announces.
 *   Ranking every member or medium a common word matches is most of what a search costs the
 *   database (21 of 28 ms at 10,000 members, bench/README.md), and who is found by a word
 *   changes far more slowly than what is posted.
 * - posts: a new post is found at once: the next request asks whether the posts written since
 *   the answer was made match it (one lookup by id) and merges those that do by rank, instead of
 *   searching again. Any other change to posts (an edit, a deletion, a block) and other
 *   instances' counts read the posts again. A like, comment or repost made here reads again
 *   only the answers that show its post (the member who liked it asks again at once, and must
 *   see their own like counted); other instances' counts, with the rank they are part of, are at
 *   most SEARCH_POSTS_TTL_MS old. So under a steady stream of posts and likes most answers are
 *   kept whole for their second.
 * A viewer's copy goes with the answer it was made from; a follow, a like or a favourite drops
 * the member's own copies.
 *
 * Concurrent misses share one query. Answers are shared and never edited (a viewer's copy is made
 * of new objects), so they are marked shared and a host encodes each once. The kept answer's own
 * pieces live here too: the spare results beyond a page (CACHED_LIMITS) and a viewer's copy
 * (`viewerCopy`), pure functions of the answer and the viewer's marks.
 */
import { LRUCache } from 'lru-cache';
import { dropIfFails, keptRead, type Loading, track } from '../../kept-reads.js';
import { markShared } from '../../shared-json.js';
import type { PollDto } from '../polls/poll.schema.js';
import { toPollDto } from '../polls/poll.serializer.js';
import { markedFor, NO_MARKS } from '../posts/feed.cache.js';
import type { PostRank, RankedPosts } from './search.ranking.js';
import type { SearchMarks } from './search.repository.js';
import {
  SEARCH_LIMITS,
  type SearchMedia,
  type SearchPost,
  type SearchResult,
  type SearchUser,
} from './search.schema.js';
import type { QueryText } from './search.typo.js';

/** Distinct queries kept; past that the least recently asked is dropped first. */
export const SEARCH_CACHE_MAX_QUERIES = 1_000;

/** How long the posts of an answer are kept; the people part is kept for the cache's TTL. */
export const SEARCH_POSTS_TTL_MS = 1_000;

/** `loadedAt`: when the people part arrived. */
interface Entry<P, A> extends Loading {
  people: Promise<P>;
  /** when the answer's posts were last read (a merge of new posts is no read) */
  postsReadAt: number;
  /** when the people part must be read again at the latest, once it arrived (null: the TTL) */
  peopleUntil: number | null;
  /** the posts generation the answer was made in */
  generation: number;
  /** how many posts had been written here (Cache.added) when the answer's posts were read */
  addedSeen: number;
  answer: Promise<A>;
  /** the posts the answer shows once it has arrived (SearchParts.postIds); null while it loads */
  postIds: ReadonlySet<string> | null;
  /** each viewer's copy of the answer, made once */
  viewers: Map<string, Promise<unknown>>;
}

/** How an answer is made: the people part, then the whole answer from it (the posts). */
export interface SearchParts<P, A> {
  people: () => Promise<P>;
  answer: (people: P) => Promise<A>;
  /** `answer` with those of these new posts that match the query merged in by rank */
  merge: (answer: A, postIds: string[]) => Promise<A>;
  /** when these people must be read again at the latest, sooner than the TTL (null: the TTL) */
  peopleUntil?: (people: P) => number | null;
  /** the posts an answer shows: a like, comment or repost of one reads the answer's posts again */
  postIds?: (answer: A) => readonly string[];
}

/** Posts written here, remembered for answers made before them; an older answer is read again. */
export const SEARCH_ADDED_POSTS_KEPT = 64;

interface Cache {
  entries: LRUCache<string, Entry<unknown, unknown>>;
  /** bumped by every write to posts but new ones: answers of an older generation read their posts again */
  generation: number;
  /** how many posts were written here, and the ids of the last SEARCH_ADDED_POSTS_KEPT, oldest first */
  added: { count: number; ids: string[] };
}

const dropAll = (cache: Cache) => cache.entries.clear();

/** Cached answers read their posts again: posts changed otherwise than by a new one. */
const readPostsAgain = (cache: Cache) => {
  cache.generation += 1;
};

/**
 * The answers that show `postId` read their posts again at the next request: its counts changed.
 * So do those still loading, whose reading may have begun before the change.
 */
function readCountsAgain(cache: Cache, postId: string): void {
  for (const entry of cache.entries.values()) {
    if (entry.postIds === null || entry.postIds.has(postId)) entry.postsReadAt = Number.NEGATIVE_INFINITY;
  }
}

/** Notes the posts `answer` shows on `entry` once it arrives, unless a newer answer replaced it. */
function noteShown<P, A>(entry: Entry<P, A>, answer: Promise<A>, parts: SearchParts<P, A>): void {
  entry.postIds = null;
  answer.then(
    (arrived) => {
      if (entry.answer === answer) entry.postIds = new Set(parts.postIds?.(arrived) ?? []);
    },
    () => {},
  );
}

/** A member's own copies go: their follows, likes, bookmarks or favourites are marked in them. */
function forgetViewer(cache: Cache, viewerId: string): void {
  for (const entry of cache.entries.values()) entry.viewers.delete(viewerId);
}

/**
 * What drops search answers, as the comment at the top says: a new post is merged in; an edit,
 * a deletion, a block or mute, a new name or avatar, and other instances' counts read the posts
 * again; a like, comment or repost reads again the answers that show its post; a member who left
 * or came back drops them whole; a follow, like or favourite drops the member's own copies.
 */
export const searchAnswers = keptRead<Cache>({
  name: 'search answers',
  ttlMs: 10_000,
  maxViewers: 5_000,
  make: () => ({
    entries: new LRUCache({ max: SEARCH_CACHE_MAX_QUERIES }),
    generation: 0,
    added: { count: 0, ids: [] },
  }),
  dependsOn: {
    posts: (cache, { postId }) => postAdded(cache, postId),
    postChanges: readPostsAgain,
    feed: readPostsAgain,
    profiles: dropAll,
    accounts: dropAll,
    relations: (cache, { userId, kind }) => {
      if (kind === 'follow' || kind === 'unfollow') forgetViewer(cache, userId);
      else readPostsAgain(cache);
    },
    likes: (cache, { userId, postId }) => {
      forgetViewer(cache, userId);
      readCountsAgain(cache, postId);
    },
    comments: (cache, { postId }) => readCountsAgain(cache, postId),
    reposts: (cache, { userId, postId }) => {
      forgetViewer(cache, userId);
      readCountsAgain(cache, postId);
    },
    bookmarks: (cache, { userId }) => forgetViewer(cache, userId),
    favorites: (cache, { userId }) => forgetViewer(cache, userId),
  },
  clear: dropAll,
});

/** A post was written (after its commit): cached answers merge it in if it matches. */
function postAdded(cache: Cache, postId: string): void {
  const { added } = cache;
  added.count += 1;
  added.ids.push(postId);
  if (added.ids.length > SEARCH_ADDED_POSTS_KEPT) added.ids.shift();
}

// An app reading from a replica keeps its answers apart from one reading the primary.
const sourceIds = new WeakMap<object, number>();
let sources = 0;
function sourceId(source: object): number {
  let id = sourceIds.get(source);
  if (id === undefined) {
    sources += 1;
    id = sources;
    sourceIds.set(source, id);
  }
  return id;
}

/**
 * The answer to the query `text`, read from `source` (the driver of the database searched), as a
 * visitor sees it; from memory while fresh.
 */
export function cachedSearch<P, A extends object>(
  scope: object,
  source: object,
  text: string,
  parts: SearchParts<P, A>,
): Promise<A> {
  return entryFor(scope, source, text, parts).answer;
}

/** The same answer as `viewerId` sees it: `copy` of the visitor's answer, made once per answer. */
export function cachedSearchFor<P, A extends object, V>(
  scope: object,
  source: object,
  text: string,
  parts: SearchParts<P, A>,
  viewerId: string,
  copy: (answer: A) => Promise<V>,
): Promise<V> {
  const entry = entryFor(scope, source, text, parts);
  const viewers = entry.viewers as Map<string, Promise<V>>;
  return searchAnswers.viewerCopy(viewers, viewerId, () => entry.answer.then(copy));
}

function entryFor<P, A extends object>(
  scope: object,
  source: object,
  text: string,
  parts: SearchParts<P, A>,
): Entry<P, A> {
  const cache = searchAnswers.store(scope);
  const { entries } = cache;
  const key = `${sourceId(source)}:${text}`;
  let entry = entries.get(key) as Entry<P, A> | undefined;
  if (
    entry &&
    (!searchAnswers.isFresh(entry) || (entry.peopleUntil !== null && Date.now() >= entry.peopleUntil))
  ) {
    entries.delete(key);
    entry = undefined;
  }
  if (!entry) {
    const people = parts.people();
    const fresh: Entry<P, A> = {
      people,
      postsReadAt: Date.now(),
      peopleUntil: null,
      loadedAt: null,
      generation: cache.generation,
      addedSeen: cache.added.count,
      answer: people.then(parts.answer).then(markShared),
      postIds: null,
      viewers: new Map(),
    };
    noteShown(fresh, fresh.answer, parts);
    track(entries, key, fresh as Entry<unknown, unknown>, people, (arrived) => {
      fresh.peopleUntil = parts.peopleUntil?.(arrived) ?? null;
    });
    dropIfFails(entries, key, fresh as Entry<unknown, unknown>, fresh.answer);
    return fresh;
  }
  const unseen = cache.added.count - entry.addedSeen;
  const postsStale = Date.now() - entry.postsReadAt >= SEARCH_POSTS_TTL_MS;
  if (!postsStale && entry.generation === cache.generation && unseen === 0) return entry;
  let answer: Promise<A>;
  if (postsStale || entry.generation !== cache.generation || unseen > cache.added.ids.length) {
    // Posts changed since this answer was made, or it is SEARCH_POSTS_TTL_MS old: the same
    // people, the posts read again.
    answer = entry.people.then(parts.answer);
    entry.postsReadAt = Date.now();
  } else {
    // Only new posts since: those that match are merged in. One that the answer's own reading
    // already saw is merged once (the merge keeps one of each post).
    const ids = cache.added.ids.slice(-unseen);
    answer = entry.answer.then((previous) => parts.merge(previous, ids));
  }
  entry.generation = cache.generation;
  entry.addedSeen = cache.added.count;
  entry.answer = answer.then(markShared);
  noteShown(entry, entry.answer, parts);
  dropIfFails(entries, key, entry as Entry<unknown, unknown>, entry.answer);
  entry.viewers = new Map();
  return entry;
}

/**
 * Results of each kind kept beyond the page in a cached answer, so that a viewer's copy can leave
 * out members they blocked (or who blocked them) and still be full.
 */
export const SEARCH_SPARE = 5;
export const CACHED_LIMITS = {
  users: SEARCH_LIMITS.users + SEARCH_SPARE,
  posts: SEARCH_LIMITS.posts + SEARCH_SPARE,
  aiMedia: SEARCH_LIMITS.aiMedia + SEARCH_SPARE,
};

/** The people part of a kept answer: the corrected query, users and media. */
export interface SearchPeople {
  text: QueryText;
  users: SearchUser[];
  aiMedia: SearchMedia[];
  /** when the next suspension ends (ms), if one does: its member is found again from then */
  until?: number | null;
}

/** A kept answer. */
export interface CachedAnswer {
  /** what a visitor gets: the first SEARCH_LIMITS of each kind */
  visitor: SearchResult;
  /** the same answer with the spare results */
  full: SearchResult;
  /** the query as searched, and where each of full.posts stands: new posts are merged by it */
  text: QueryText;
  ranks: PostRank[];
}

export function cachedAnswer(people: SearchPeople, posts: RankedPosts<SearchPost>): CachedAnswer {
  const full = { users: people.users, posts: posts.posts, aiMedia: people.aiMedia };
  const visitor = {
    users: full.users.slice(0, SEARCH_LIMITS.users),
    posts: full.posts.slice(0, SEARCH_LIMITS.posts),
    aiMedia: full.aiMedia.slice(0, SEARCH_LIMITS.aiMedia),
  };
  return { visitor: markShared(visitor), full, text: people.text, ranks: posts.ranks };
}

/** The ids a viewer's marks are read for (search.repository's searchMarks). */
export function markedIds(full: SearchResult): {
  people: string[];
  users: string[];
  posts: string[];
  media: string[];
} {
  const people = new Set<string>([
    ...full.users.map((u) => u.id),
    ...full.posts.map((p) => p.userId),
    // A quoted post's author: a quote of someone blocked either way shows as unavailable.
    ...full.posts.flatMap((p) => (p.quote ? [p.quote.userId] : [])),
    ...full.aiMedia.map((m) => m.creator.id),
  ]);
  return {
    people: [...people],
    users: full.users.map((u) => u.id),
    posts: full.posts.map((p) => p.id),
    media: full.aiMedia.map((m) => m.id),
  };
}

/** The polls whose results the viewer sees, as they see them. */
function pollsOf(marks: SearchMarks): Map<string, PollDto> {
  const polls = new Map<string, PollDto>();
  for (const { id, poll } of marks.polls ?? []) {
    const dto = toPollDto(poll);
    if (dto) polls.set(id, dto);
  }
  return polls;
}

/**
 * `full` as a viewer with `marks` sees it: without the people blocked either way, with their
 * follows, likes, reposts, bookmarks and favourites marked; null when their blocks leave a kind
 * short of its page while the query may have more (only a query of their own can tell).
 */
export function viewerCopy(full: SearchResult, marks: SearchMarks): SearchResult | null {
  const blocked = new Set(marks.blocked);
  const following = new Set(marks.following);
  const liked = new Set(marks.liked);
  const reposted = new Set(marks.reposted);
  const bookmarked = new Set(marks.bookmarked);
  const favorited = new Set(marks.favorited);
  const kept = <T>(items: T[], limit: number, visible: (item: T) => boolean): T[] | null => {
    const shown = items.filter(visible);
    return shown.length < limit && shown.length < items.length && items.length === limit + SEARCH_SPARE
      ? null
      : shown.slice(0, limit);
  };
  const users = kept(full.users, SEARCH_LIMITS.users, (u) => !blocked.has(u.id));
  const posts = kept(full.posts, SEARCH_LIMITS.posts, (p) => !blocked.has(p.userId));
  const aiMedia = kept(full.aiMedia, SEARCH_LIMITS.aiMedia, (m) => !blocked.has(m.creator.id));
  if (!users || !posts || !aiMedia) return null;
  // Kept with the cached answer and sent to this viewer until it turns: encoded once.
  return markShared({
    users: users.map((u) => (following.has(u.id) ? { ...u, isFollowing: true } : u)),
    // Blocked authors are left out above, with the people and media.
    posts: markedFor(posts, {
      ...NO_MARKS,
      liked,
      reposted,
      bookmarked,
      hidden: blocked,
      polls: pollsOf(marks),
    }),
    aiMedia: aiMedia.map((m) => (favorited.has(m.id) ? { ...m, isFavorite: true } : m)),
  });
}
