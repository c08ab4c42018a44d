/**
 * Where the rate limits count (docs/security.md, "Rate limits"): in PostgreSQL, so that every
 * instance sees every hit and N instances do not allow N times each budget.
 *
 * - A named bucket (login, password checks, codes, messages, Cubey…) costs one statement a hit:
 *   rate-limiter-flexible's PostgreSQL store (`insert … on conflict … returning` on
 *   `rate_limit_counts`). When PostgreSQL fails or takes over STORE_TIMEOUT_MS, the hit is
 *   counted in this process's memory instead (the library's insurance limiter): limits never
 *   turn off.
 * - The general row ("anything else") runs on every request, where a round trip each would cost
 *   the hot reads that reach no database at all (bench/README.md, "Shared rate limits"). It
 *   counts here and adds its counts to the same table every SYNC_MS, in one statement for all
 *   keys, reading back what every instance counted (SyncedCounts). A hit is judged on that
 *   shared count plus what this process counted since; N instances can together go over by what
 *   they count in one SYNC_MS. No library syncs counts in batches, so this one is ours.
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
/** How often the general row's counts are added to the shared ones. */
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
    insuranceLimiter: memory,
    timeoutMs: STORE_TIMEOUT_MS,
  });
  return {
    async hit(key) {
      try {
        await store.consume(storedKey(key));
        return { allowed: true };
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes)
          return { allowed: false, retryAfterSeconds: retryAfter(refusal.msBeforeNext) };
        throw refusal;
      }
    },
  };
}

interface Entry {
  /** Every instance's hits in the window, as of the last sync (this one's included). */
  shared: number;
  /** This process's hits since they were last sent. */
  pending: number;
  expiresAt: number;
}

/** Adds hits to the shared counts and answers them (rate-limit.repository.ts#addCounts). */
export type AddCounts = (counts: CountsToAdd[], nowMs: number) => Promise<SharedCount[]>;

/** The general row: counted here, synced with the other instances every SYNC_MS (see above). */
export class SyncedCounts {
  private readonly entries = new Map<string, Entry>();
  private syncing: Promise<void> | null = null;
  /** Whether the last sync failed: `onError` hears the first failure of a run of them only. */
  private failing = false;

  constructor(
    private readonly add: AddCounts,
    private readonly windowMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Counts `hits` hits of `key`, one at a time, up to the first over `max`. */
  hit(key: string, max: number, hits = 1): RateLimitResult {
    const now = Date.now();
    let entry = this.entries.get(key);
    if (entry) this.entries.delete(key); // set again below: last in the Map, the most recent
    if (!entry || entry.expiresAt <= now) entry = { shared: 0, pending: 0, expiresAt: now + this.windowMs };
    this.entries.set(key, entry);
    if (this.entries.size > STORE_KEYS) this.entries.delete(this.entries.keys().next().value!);
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
      } else if (entry.pending > 0) {
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
      return;
    }
    this.failing = false;
    for (const row of rows) {
      const { entry } = sent.get(row.key)!;
      // The shared window: begun by whichever instance counted first. Hits counted here while
      // the statement ran stay pending.
      entry.shared = row.points;
      entry.expiresAt = row.expire;
    }
  }
}
