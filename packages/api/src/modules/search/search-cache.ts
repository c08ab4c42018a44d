/**
 * Search answers are the same for every viewer but for the viewer's own marks (whom they follow,
 * which posts they liked, which media they favourited) and the members they blocked or were
 * blocked by, and people search for the same words: a popular query was the most expensive read
 * there is, run again for every request (four statements, 5–50 ms of database time at a million
 * posts). The answer as a visitor sees it is kept per query for at most SEARCH_CACHE_TTL_MS, with
 * a few spare results of each kind, and each viewer's marks are laid over it with one statement.
 *
 * Freshness: any write that changes a post, a like count, a profile, a block or the gallery drops
 * every cached answer of this process at once (invalidateSearch, called where the feed and gallery
 * caches are dropped), and the bus's `feed` event does the same for other instances' writes, so a
 * new post is found at once. A newly registered member or a follower count can be up to the TTL
 * old. Concurrent misses share one query. Answers are shared and never edited (a viewer's copy
 * is made of new objects), so visitors' answers are marked shared and a host encodes each once.
 */
import { markShared } from '../../shared-json.js';

export const SEARCH_CACHE_TTL_MS = 1_000;
/** Distinct queries kept; past that the oldest is dropped first. */
export const SEARCH_CACHE_MAX_QUERIES = 1_000;

interface Entry<T> {
  answer: Promise<T>;
  /** when the answer arrived; null while it is loading */
  loadedAt: number | null;
}

// One cache per ORM (Context.cacheScope), so two apps on two databases never share answers.
const caches = new WeakMap<object, Map<string, Entry<unknown>>>();
function entriesFor(scope: object): Map<string, Entry<unknown>> {
  let entries = caches.get(scope);
  if (!entries) {
    entries = new Map();
    caches.set(scope, entries);
  }
  return entries;
}

/** Drops this process's cached answers: something they show changed. */
export function invalidateSearch(scope: object): void {
  caches.get(scope)?.clear();
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
export function cachedSearch<T extends object>(
  scope: object,
  source: object,
  text: string,
  load: () => Promise<T>,
): Promise<T> {
  const entries = entriesFor(scope);
  const key = `${sourceId(source)}:${text}`;
  const known = entries.get(key);
  if (known && (known.loadedAt === null || Date.now() - known.loadedAt < SEARCH_CACHE_TTL_MS)) {
    return known.answer as Promise<T>;
  }
  if (known) entries.delete(key);
  else if (entries.size >= SEARCH_CACHE_MAX_QUERIES) entries.delete(entries.keys().next().value!);
  const entry: Entry<T> = { answer: load().then(markShared), loadedAt: null };
  entry.answer.then(
    () => {
      entry.loadedAt = Date.now();
    },
    () => {
      if (entries.get(key) === entry) entries.delete(key);
    },
  );
  entries.set(key, entry);
  return entry.answer;
}
