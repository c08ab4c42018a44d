/**
 * The rules every read kept in memory follows, written once: the feed's, a profile's and a
 * post's first pages (feed-cache.ts), the gallery's (gallery-cache.ts), search answers
 * (search-cache.ts), a member's own lists (member-reads.ts) and resolved sessions.
 *
 * - **One store per database** (`perScope`, keyed by Context.cacheScope), so two apps on two
 *   databases in one process never share what they read.
 * - **Concurrent misses share one load.** A value is fresh from the moment its load starts
 *   until `ttlMs` after it arrived (`isFresh`): readers that come while it loads wait for it.
 * - **A failed load never stays** (`track`, `dropIfFails`): its entry leaves the map only if it
 *   is still the one there. A drop (a write) removes the entry a running load belongs to, so
 *   that load can neither fill the store after the write nor remove the newer entry.
 * - **A viewer's copy is made once per kept value** (`viewerCopy`), at most `max` of them; past
 *   that, viewers get a copy of their own each time until the value turns.
 */

/** A store per scope (Context.cacheScope: one per database), made on first use. */
export function perScope<T>(make: () => T): (scope: object) => T {
  const stores = new WeakMap<object, T>();
  return (scope) => {
    let store = stores.get(scope);
    if (store === undefined) {
      store = make();
      stores.set(scope, store);
    }
    return store;
  };
}

export interface Loading {
  /** when the value arrived; null while it is loading */
  loadedAt: number | null;
}

/** Whether `entry` may answer: it is loading, or it arrived less than `ttlMs` ago. */
export function isFresh(entry: Loading, ttlMs: number): boolean {
  return entry.loadedAt === null || Date.now() - entry.loadedAt < ttlMs;
}

/**
 * Puts `entry` under `key` and follows its load: `arrived` and `loadedAt` when it succeeds;
 * out of the map (if still there) when it fails.
 */
export function track<K, E extends Loading, V>(
  map: Map<K, E>,
  key: K,
  entry: E,
  load: Promise<V>,
  arrived?: (value: V) => void,
): E {
  map.set(key, entry);
  // One `then` with both handlers: a failure is handled here, never reported as unhandled.
  load.then(
    (value) => {
      arrived?.(value);
      entry.loadedAt = Date.now();
    },
    () => {
      if (map.get(key) === entry) map.delete(key);
    },
  );
  return entry;
}

/** Takes `entry` out of `map` if `work` fails while `entry` is still the one under `key`. */
export function dropIfFails<K, E>(map: Map<K, E>, key: K, entry: E, work: Promise<unknown>): void {
  work.catch(() => {
    if (map.get(key) === entry) map.delete(key);
  });
}

/** `viewerId`'s copy from `viewers`, or `make`s it (kept when there is room and it succeeds). */
export function viewerCopy<V>(
  viewers: Map<string, Promise<V>>,
  viewerId: string,
  max: number,
  make: () => Promise<V>,
): Promise<V> {
  const known = viewers.get(viewerId);
  if (known) return known;
  const made = make();
  if (viewers.size < max) {
    viewers.set(viewerId, made);
    dropIfFails(viewers, viewerId, made, made);
  }
  return made;
}
