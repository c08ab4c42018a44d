/**
 * Where the rate limits count (docs/security.md, "Rate limits"): in PostgreSQL, so that every
 * instance sees every hit and N instances do not allow N times each budget.
 *
 * - A named bucket (login, password checks, codes, messages, Cubey…) costs one statement a hit:
 *   rate-limiter-flexible's PostgreSQL store (`insert … on conflict … returning` on
 *   `rate_limit_counts`). Every hit is also counted in this process's memory, and judged there
 *   first: past the maximum here, it is refused without a round trip. When PostgreSQL fails or
 *   takes over STORE_TIMEOUT_MS, the memory's verdict stands, which has seen every hit of this
 *   process (so a slow database on a busy machine never lets one instance pass a maximum):
 *   limits never turn off.
 * - The general row ("anything else") runs on every request, where a round trip each would cost
 *   the hot reads that reach no database at all (bench/README.md, "Shared rate limits"), and the
 *   likes bucket (`react`) runs on the hottest write, where its statement was a third of a
 *   toggle's cost (bench/README.md, "The like toggle and the shared limits"). Both count here and
 *   add their counts to the same table every SYNC_MS, in one statement for all keys, reading back
 *   what every instance counted (SyncedCounts). A hit is judged on that shared count plus what
 *   this process counted since. A key's first hit in a window, and a hit that would leave more
 *   than a tenth of the maximum unconfirmed here, wait for a sync (one statement for every key
 *   waiting), so N instances together pass a maximum by at most N tenths of it, however a
 *   client spreads its hits. No library syncs counts in batches, so this one is ours.
 */
import { createHash } from 'node:crypto';
import type { RateLimitResult } from '@cubes/api';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';
import { type CountsToAdd, RATE_LIMIT_TABLE, type SharedCount } from './rate-limit.repository.js';

/** How long a named bucket waits for PostgreSQL before it counts in memory. */
export const STORE_TIMEOUT_MS = 1_000;
/** How often the synced rows' counts are added to the shared ones. */
export const SYNC_MS = 250;
/** How many keys the general row keeps in memory (the least recently counted go first). */
export const STORE_KEYS = 100_000;
/** Keys longer than this are stored as their SHA-256 (an index entry has a size limit). */
const KEY_CHARS = 200;

export function storedKey(key: string): string {
  return key.length <= KEY_CHARS ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

function retryAfter(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export interface SharedBucket {
  hit(key: string): Promise<RateLimitResult>;
}

/**
 * A named bucket counted in PostgreSQL. `knex` is the ORM's own (its pool); `sweep` makes this
 * bucket delete rows whose window ended an hour ago, every five minutes (one bucket an instance
 * is enough: they share the table).
 */
export function sharedBucket(
  knex: unknown,
  name: string,
  limit: { max: number; windowMs: number },
  sweep: boolean,
): SharedBucket {
  const duration = limit.windowMs / 1000;
  const memory = new RateLimiterMemory({ keyPrefix: name, points: limit.max, duration });
  const store = new RLWrapperTimeouts({
    limiter: new RateLimiterPostgres({
      storeClient: knex,
      storeType: 'knex',
      tableName: RATE_LIMIT_TABLE,
      tableCreated: true,
      clearExpiredByTimeout: sweep,
      keyPrefix: name,
      points: limit.max,
      duration,
    }),
    timeoutMs: STORE_TIMEOUT_MS,
  });
  const refused = (res: RateLimiterRes): RateLimitResult => ({
    allowed: false,
    retryAfterSeconds: retryAfter(res.msBeforeNext),
  });
  return {
    async hit(key) {
      const stored = storedKey(key);
      try {
        await memory.consume(stored);
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return refused(refusal);
        throw refusal;
      }
      try {
        await store.consume(stored);
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return refused(refusal);
        // PostgreSQL failed or was slow: this process's count (above) allowed the hit.
      }
      return { allowed: true };
    },
  };
}

interface Entry {
  /** Every instance's hits in the window, as of the last sync (this one's included). */
  shared: number;
  /** This process's hits since they were last sent. */
  pending: number;
  expiresAt: number;
  /** Whether a sync has answered this window's shared count (or failed trying). */
  synced: boolean;
}

/** Adds hits to the shared counts and answers them (rate-limit.repository.ts#addCounts). */
export type AddCounts = (counts: CountsToAdd[], nowMs: number) => Promise<SharedCount[]>;

/**
 * A row counted here and synced with the other instances every SYNC_MS (see above): the general
 * row, and the buckets of SYNCED_BUCKETS (rate-limit.ts).
 */
export class SyncedCounts {
  // A Map in use order, not an LRUCache: every sync (SYNC_MS) walks all keys to send and expire
  // them, and lru-cache's walk took 2-5 times a Map's over 100,000 keys.
  private readonly entries = new Map<string, Entry>();
  private syncing: Promise<void> | null = null;
  /** Whether the last sync failed: `onError` hears the first failure of a run of them only. */
  private failing = false;

  constructor(
    private readonly add: AddCounts,
    private readonly windowMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Counts `hits` hits of `key`, one at a time, up to the first over `max`. A key not yet synced
   * in this window, or one that would hold more than a tenth of `max` unconfirmed, first waits for
   * a sync (at most STORE_TIMEOUT_MS; past it, or when the sync fails, it is judged here).
   */
  async hit(key: string, max: number, hits = 1): Promise<RateLimitResult> {
    const unconfirmed = Math.max(1, Math.floor(max / 10));
    const deadline = Date.now() + STORE_TIMEOUT_MS;
    // Hits that arrive together wait together and are counted in the order the syncs let them.
    for (;;) {
      const entry = this.entryOf(key);
      if (entry.synced && (entry.pending === 0 || entry.pending + hits <= unconfirmed)) break;
      if (this.failing || !(await this.confirm(deadline))) break;
    }
    return this.count(key, max, hits);
  }

  /** The key's entry in the current window, made most recently used. */
  private entryOf(key: string): Entry {
    const now = Date.now();
    let entry = this.entries.get(key);
    if (entry) this.entries.delete(key); // set again below: last in the Map, the most recent
    if (!entry || entry.expiresAt <= now)
      entry = { shared: 0, pending: 0, expiresAt: now + this.windowMs, synced: false };
    this.entries.set(key, entry);
    if (this.entries.size > STORE_KEYS) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  /**
   * Waits for a sync that sends what is counted now (one already under way read its counts
   * before, so a second follows it), until `deadline`: false when that came first.
   */
  private async confirm(deadline: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
    });
    const synced = (async () => {
      if (this.syncing) await this.syncing;
      await this.sync();
      return true as const;
    })();
    try {
      return await Promise.race([synced, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private count(key: string, max: number, hits: number): RateLimitResult {
    const now = Date.now();
    const entry = this.entryOf(key);
    for (let hit = 0; hit < hits; hit += 1) {
      entry.pending += 1;
      if (entry.shared + entry.pending > max)
        return { allowed: false, retryAfterSeconds: retryAfter(entry.expiresAt - now) };
    }
    return { allowed: true };
  }

  /** Sends what was counted since the last sync and takes every instance's counts back. */
  sync(): Promise<void> {
    this.syncing ??= this.send().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async send(): Promise<void> {
    const now = Date.now();
    const sent = new Map<string, { entry: Entry; points: number }>();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
      } else if (entry.pending > 0 || !entry.synced) {
        // A key not synced yet is sent with what it has (maybe nothing), to read its shared count.
        sent.set(key, { entry, points: entry.pending });
        // Counted as shared from now on: the hits are on their way, and stay counted if the
        // statement fails (then this process alone knows of them).
        entry.shared += entry.pending;
        entry.pending = 0;
      }
    }
    if (sent.size === 0) return;
    const counts = [...sent].map(([key, { entry, points }]) => ({ key, points, expire: entry.expiresAt }));
    let rows: SharedCount[];
    try {
      rows = await this.add(counts, now);
    } catch (error) {
      if (!this.failing) this.onError(error);
      this.failing = true;
      // Judged here until PostgreSQL is back: the hits are counted, and waiting again would
      // make every request wait for a failing statement.
      for (const { entry } of sent.values()) entry.synced = true;
      return;
    }
    this.failing = false;
    for (const row of rows) {
      const { entry } = sent.get(row.key)!;
      // The shared window: begun by whichever instance counted first. Hits counted here while
      // the statement ran stay pending.
      entry.shared = row.points;
      entry.expiresAt = row.expire;
      entry.synced = true;
    }
  }
}
