/**
 * Search answers are the same for every viewer but for the viewer's own marks (whom they follow,
 * which posts they liked, which media they favourited) and the members they blocked or were
 * blocked by, and people search for the same words: a popular query was the most expensive read
 * there is, run again for every request (four statements, 5–50 ms of database time at a million
 * posts). The answer as a visitor sees it is kept per query for at most SEARCH_CACHE_TTL_MS, with
 * a few spare results of each kind, and each viewer's marks are laid over it with one statement,
 * once per answer (a viewer who follows or unfollows someone has their copies dropped).
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
/** Viewer copies kept per answer; past that, viewers get fresh copies until the answer turns. */
export const SEARCH_CACHE_MAX_VIEWERS = 5_000;

interface Entry<T> {
  answer: Promise<T>;
  /** when the answer arrived; null while it is loading */
  loadedAt: number | null;
  /** each viewer's copy of the answer, made once */
  viewers: Map<string, Promise<unknown>>;
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

/** Drops one viewer's copies (they followed or unfollowed someone). */
export function forgetSearchViewer(scope: object, viewerId: string): void {
  for (const entry of caches.get(scope)?.values() ?? []) entry.viewers.delete(viewerId);
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
  return entryFor(scope, source, text, load).answer;
}

/** The same answer as `viewerId` sees it: `copy` of the visitor's answer, made once per answer. */
export function cachedSearchFor<T extends object, V>(
  scope: object,
  source: object,
  text: string,
  load: () => Promise<T>,
  viewerId: string,
  copy: (answer: T) => Promise<V>,
): Promise<V> {
  const entry = entryFor(scope, source, text, load);
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

function entryFor<T extends object>(
  scope: object,
  source: object,
  text: string,
  load: () => Promise<T>,
): Entry<T> {
  const entries = entriesFor(scope);
  const key = `${sourceId(source)}:${text}`;
  const known = entries.get(key) as Entry<T> | undefined;
  if (known && (known.loadedAt === null || Date.now() - known.loadedAt < SEARCH_CACHE_TTL_MS)) return known;
  if (known) entries.delete(key);
  else if (entries.size >= SEARCH_CACHE_MAX_QUERIES) entries.delete(entries.keys().next().value!);
  const entry: Entry<T> = { answer: load().then(markShared), loadedAt: null, viewers: new Map() };
  entry.answer.then(
    () => {
      entry.loadedAt = Date.now();
    },
    () => {
      if (entries.get(key) === entry) entries.delete(key);
    },
  );
  entries.set(key, entry as Entry<unknown>);
  return entry;
}
