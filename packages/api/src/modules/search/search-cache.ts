/**
 * Search answers are the same for every viewer but for the viewer's own marks (whom they follow,
 * which posts they liked, which media they favourited) and the members they blocked or were
 * blocked by, and people search for the same words: a popular query was the most expensive read
 * there is, run again for every request (four statements, 5–50 ms of database time at a million
 * posts). The answer as a visitor sees it is kept per query, with a few spare results of each
 * kind, and each viewer's marks are laid over it with one statement, once per answer.
 *
 * An answer has two parts that go stale differently:
 * - people: the typo correction, users and media. Kept SEARCH_CACHE_TTL_MS, so a new member or
 *   medium, a new name, a follower or favourite count can be that old; dropped at once by
 *   invalidateSearch (an account was deleted).
 * - posts: read again on the next request after any write to posts, likes or comments here
 *   (invalidateSearchPosts, called where the feed cache is dropped or patched) or the bus's `feed`
 *   event from another instance, so a new post is found at once. Under a steady stream of posts
 *   the people part still saves most of the work: the posts are one statement.
 * A viewer's copy goes with the answer it was made from; a follow, an unfollow or a favourite
 * drops the member's copies (forgetSearchViewer), a block everyone's (it is a write to the feed).
 *
 * Concurrent misses share one query. Answers are shared and never edited (a viewer's copy is made
 * of new objects), so they are marked shared and a host encodes each once.
 */
import { markShared } from '../../shared-json.js';

export const SEARCH_CACHE_TTL_MS = 1_000;
/** Distinct queries kept; past that the oldest is dropped first. */
export const SEARCH_CACHE_MAX_QUERIES = 1_000;
/** Viewer copies kept per answer; past that, viewers get fresh copies until the answer turns. */
export const SEARCH_CACHE_MAX_VIEWERS = 5_000;

interface Entry<P, A> {
  people: Promise<P>;
  /** when the people part arrived; null while it is loading */
  loadedAt: number | null;
  /** the posts generation the answer was made in */
  generation: number;
  answer: Promise<A>;
  /** each viewer's copy of the answer, made once */
  viewers: Map<string, Promise<unknown>>;
}

/** How an answer is made: the people part, then the whole answer from it (the posts). */
export interface SearchParts<P, A> {
  people: () => Promise<P>;
  answer: (people: P) => Promise<A>;
}

interface Cache {
  entries: Map<string, Entry<unknown, unknown>>;
  /** bumped by every write to posts: answers of an older generation read their posts again */
  generation: number;
}

// One cache per ORM (Context.cacheScope), so two apps on two databases never share answers.
const caches = new WeakMap<object, Cache>();
function cacheFor(scope: object): Cache {
  let cache = caches.get(scope);
  if (!cache) {
    cache = { entries: new Map(), generation: 0 };
    caches.set(scope, cache);
  }
  return cache;
}

/** Drops this process's cached answers, both parts: a member they may show is gone. */
export function invalidateSearch(scope: object): void {
  caches.get(scope)?.entries.clear();
}

/** Cached answers read their posts again: a post, a like or a comment changed. */
export function invalidateSearchPosts(scope: object): void {
  const cache = caches.get(scope);
  if (cache) cache.generation += 1;
}

/** Drops one viewer's copies: they followed, unfollowed, favourited or unfavourited. */
export function forgetSearchViewer(scope: object, viewerId: string): void {
  for (const entry of caches.get(scope)?.entries.values() ?? []) entry.viewers.delete(viewerId);
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
  const known = entry.viewers.get(viewerId);
  if (known) return known as Promise<V>;
  const made = entry.answer.then(copy);
  if (entry.viewers.size < SEARCH_CACHE_MAX_VIEWERS) {
    entry.viewers.set(viewerId, made);
    made.catch(() => {
      if (entry.viewers.get(viewerId) === made) entry.viewers.delete(viewerId);
    });
  }
  return made;
}

function entryFor<P, A extends object>(
  scope: object,
  source: object,
  text: string,
  parts: SearchParts<P, A>,
): Entry<P, A> {
  const cache = cacheFor(scope);
  const { entries } = cache;
  const key = `${sourceId(source)}:${text}`;
  let entry = entries.get(key) as Entry<P, A> | undefined;
  if (entry && entry.loadedAt !== null && Date.now() - entry.loadedAt >= SEARCH_CACHE_TTL_MS) {
    entries.delete(key);
    entry = undefined;
  }
  if (!entry) {
    if (entries.size >= SEARCH_CACHE_MAX_QUERIES) entries.delete(entries.keys().next().value!);
    const people = parts.people();
    const fresh: Entry<P, A> = {
      people,
      loadedAt: null,
      generation: cache.generation,
      answer: people.then(parts.answer).then(markShared),
      viewers: new Map(),
    };
    people.then(
      () => {
        fresh.loadedAt = Date.now();
      },
      () => {
        if (entries.get(key) === fresh) entries.delete(key);
      },
    );
    fresh.answer.catch(() => {
      if (entries.get(key) === fresh) entries.delete(key);
    });
    entries.set(key, fresh as Entry<unknown, unknown>);
    return fresh;
  }
  if (entry.generation !== cache.generation) {
    // Posts changed since this answer was made: the same people, the posts read again.
    entry.generation = cache.generation;
    const answer = entry.people.then(parts.answer).then(markShared);
    answer.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    entry.answer = answer;
    entry.viewers = new Map();
  }
  return entry;
}
