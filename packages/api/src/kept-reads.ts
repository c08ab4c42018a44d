/**
 * The rules every read kept in memory follows, written once, for each of them: the feed's pages,
 * a member's Following pages, posts by id, the gallery's pages, search answers, trending tags, a
 * member's own lists, resolved sessions, the members a push can reach and each member's blocks
 * (docs/architecture.md, "Caches and how they are dropped", lists where each lives and what drops
 * it).
 *
 * - **A cache says which bus topics change it** (`keptRead({dependsOn})`), and what each event
 *   drops. No write path calls a cache: it publishes what happened (context.ts's `publishEvent`),
 *   every cache of this process hears it before the write answers, and the other instances hear
 *   it when the bus delivers it (the host wires `cachesHear`; this process hears its own events
 *   sent with their write there too, as they may reach a live subscription before the writer's
 *   `sentWithWrite`); the bus's reconnect drops everything (`forgetEverything`), since events
 *   may have been lost meanwhile.
 * - **One store per database** (per Context.cacheScope), so two apps on two databases in one
 *   process never share what they read.
 * - **Concurrent misses share one load.** A value is fresh from the moment its load starts
 *   until the cache's `ttlMs` after it arrived (`isFresh`): readers that come while it loads wait.
 *   (A profile's first pages alone draw each page's lifetime below the TTL and answer past it
 *   while one reload runs: `PROFILE_PAGES_TTL_MS` in modules/posts/feed.cache.ts says why.)
 * - **A failed load never stays** (`track`, `dropIfFails`): its entry leaves the map only if it
 *   is still the one there. A drop (a write) removes the entry a running load belongs to, so
 *   that load can neither fill the store after the write nor remove the newer entry.
 * - **A viewer's copy is made once per kept value** (`viewerCopy`), at most the cache's
 *   `maxViewers` of them; past that, viewers get a copy of their own each time until it turns.
 * - **A store bounded by a count is an `LRUCache`** (lru-cache): the least recently used entry
 *   goes first. `track` and `dropIfFails` take it as they take a Map (`KeyedStore`).
 */
import type { EventTopics, Topic } from './events/event-bus.js';

/** What a cache does with an event of each topic it depends on, given its store for the scope. */
export type Dependencies<S> = { [T in Topic]?: (store: S, payload: EventTopics[T]) => void };

export interface KeptReadOptions<S> {
  /** for the docs and for errors */
  name: string;
  /** how long a value may answer after it arrived, whatever happened meanwhile */
  ttlMs: number;
  /** viewer copies kept per value (`viewerCopy`) */
  maxViewers?: number;
  /** the store of one scope, made on first use */
  make: () => S;
  /** the topics whose events change what it keeps, and what each one drops */
  dependsOn: Dependencies<S>;
  /** drops everything (the bus reconnected) */
  clear: (store: S) => void;
}

export interface KeptRead<S> {
  readonly name: string;
  readonly ttlMs: number;
  readonly maxViewers: number;
  readonly topics: readonly Topic[];
  /** the store of `scope` (Context.cacheScope: one per database) */
  store(scope: object): S;
  /** whether `entry` may answer: it is loading, or arrived less than `ttlMs` ago */
  isFresh(entry: Loading): boolean;
  /** `viewerCopy` with this cache's cap */
  viewerCopy<V>(viewers: Map<string, Promise<V>>, viewerId: string, make: () => Promise<V>): Promise<V>;
}

interface Registered {
  read: KeptRead<unknown>;
  dependsOn: Dependencies<unknown>;
  clear: (store: unknown) => void;
}
const registered: Registered[] = [];

/** Declares a cache: its store, its parameters and the topics that drop what it keeps. */
export function keptRead<S>(options: KeptReadOptions<S>): KeptRead<S> {
  const store = perScope(options.make);
  const maxViewers = options.maxViewers ?? 0;
  const read: KeptRead<S> = {
    name: options.name,
    ttlMs: options.ttlMs,
    maxViewers,
    topics: Object.keys(options.dependsOn) as Topic[],
    store,
    isFresh: (entry) => isFresh(entry, options.ttlMs),
    viewerCopy: (viewers, viewerId, make) => viewerCopy(viewers, viewerId, maxViewers, make),
  };
  registered.push({
    read: read as KeptRead<unknown>,
    dependsOn: options.dependsOn as Dependencies<unknown>,
    clear: options.clear as (store: unknown) => void,
  });
  return read;
}

/**
 * An event of `topic` was published in this process (before the write answers) or delivered
 * from another instance: every cache that depends on the topic drops what it changed.
 */
export function cachesHear<T extends Topic>(scope: object, topic: T, payload: EventTopics[T]): void {
  for (const { read, dependsOn } of registered) {
    const react = dependsOn[topic] as ((store: unknown, payload: EventTopics[T]) => void) | undefined;
    react?.(read.store(scope), payload);
  }
}

/** Drops everything every cache keeps for `scope`: the bus reconnected and events may be lost. */
export function forgetEverything(scope: object): void {
  for (const { read, clear } of registered) clear(read.store(scope));
}

/** The topics some cache depends on: the host hears other instances' events of these. */
export function cacheTopics(): Topic[] {
  return [...new Set(registered.flatMap(({ read }) => read.topics))];
}

/** The caches declared, for the docs' table and tests. */
export function keptReads(): readonly KeptRead<unknown>[] {
  return registered.map(({ read }) => read);
}

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

/** What `track` and `dropIfFails` need of a store: a Map, or an LRUCache (lru-cache) bounded by count. */
export interface KeyedStore<K, E> {
  get(key: K): E | undefined;
  set(key: K, entry: E | undefined): unknown;
  delete(key: K): boolean;
}

/**
 * Puts `entry` under `key` and follows its load: `arrived` and `loadedAt` when it succeeds;
 * out of the map (if still there) when it fails.
 */
export function track<K, E extends Loading, V>(
  map: KeyedStore<K, E>,
  key: K,
  entry: NoInfer<E>,
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
export function dropIfFails<K, E>(
  map: KeyedStore<K, E>,
  key: K,
  entry: NoInfer<E>,
  work: Promise<unknown>,
): void {
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

/** A cache of whole values by key (`keptValues`): `get` answers from memory or loads once. */
export interface KeptValues<K, V> {
  readonly read: KeptRead<Map<K, Loading & { value: Promise<V> }>>;
  /** the value under `key` from memory while fresh, else from `load` (shared by concurrent callers) */
  get(scope: object, key: K, load: () => Promise<V>): Promise<V>;
}

/**
 * Values the same for every reader (trending tags, the sitemap's pages), each kept whole for at
 * most `ttlMs` and all dropped sooner by what hides content they count or list: an account
 * suspended or deleted, a post deleted or removed. Anything new waits for the TTL.
 */
export function keptValues<K, V>(name: string, ttlMs: number): KeptValues<K, V> {
  type Store = Map<K, Loading & { value: Promise<V> }>;
  const dropAll = (store: Store) => store.clear();
  const read = keptRead<Store>({
    name,
    ttlMs,
    make: () => new Map(),
    dependsOn: {
      accounts: dropAll,
      postChanges: (store, { kind }) => {
        if (kind === 'deleted') store.clear();
      },
    },
    clear: dropAll,
  });
  return {
    read,
    get(scope, key, load) {
      const store = read.store(scope);
      let kept = store.get(key);
      if (!kept || !read.isFresh(kept)) {
        const value = load();
        kept = track(store, key, { value, loadedAt: null }, value);
      }
      return kept.value;
    },
  };
}
