/**
 * The rate limits (docs/api.md) on @fastify/rate-limit's store. The "anything else" row is a hook
 * on /api and /trpc keyed by user or IP that counts every procedure call: a tRPC batch
 * (`?batch=1`) counts once per call, and holds at most MAX_BATCH_CALLS of them (400 beyond);
 * the socket counts the calls of each message the same way (plugins/socket.ts). The named buckets
 * are enforced inside procedures (through the context's `rateLimit`), once per call, so /api,
 * /trpc, batches and the socket share one count. All maxima scale by RATE_LIMIT_SCALE; there is
 * no switch to turn them off.
 */

import { type RateLimitBucket, type RateLimiter, rateLimits, TOO_MANY_REQUESTS } from '@cubes/api';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from '../errors.js';

const GENERAL_PER_IP = 600;
const GENERAL_PER_USER = 1200;

/**
 * The most procedure calls one tRPC batch may hold: an HTTP request with `?batch=1`, or one
 * WebSocket message (an array). The web app's httpBatchLink sends at most this many (maxItems).
 */
export const MAX_BATCH_CALLS = 10;

export const BATCH_TOO_LARGE = `A batch may hold at most ${MAX_BATCH_CALLS} calls`;

/**
 * How many procedure calls an HTTP request to /trpc makes, read as tRPC reads it: with `batch=1`
 * (its first value) one per comma in the path. The path is decoded until it no longer changes:
 * Fastify decodes the route parameter and tRPC decodes it once more, so `%252C` is a comma too.
 */
export function trpcCallCount(url: string): number {
  if (!url.startsWith('/trpc/')) return 1;
  const query = url.indexOf('?');
  if (query === -1 || new URLSearchParams(url.slice(query + 1)).get('batch') !== '1') return 1;
  let path = url.slice('/trpc/'.length, query);
  for (let i = 0; i < 3; i += 1) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      break;
    }
    if (decoded === path) break;
    path = decoded;
  }
  return path.split(',').length;
}

/** How many keys the store keeps (the least recently counted go first when it is full). */
export const STORE_KEYS = 100_000;

/**
 * The counts, in memory: fixed windows, as @fastify/rate-limit's own LocalStore keeps them, with
 * two differences. Each hit is answered with the count as it was after that hit: LocalStore
 * hands every caller the same live object, so calls counted side by side (the calls of a batch)
 * all saw the last count and all were refused together. And it keeps STORE_KEYS keys, not 5,000,
 * so that a flood of fresh keys (logins for made-up addresses) does not push a busy account's
 * count out, and with it the account's lock.
 */
export class CountStore implements FastifyRateLimitStore {
  private readonly counts = new Map<string, { current: number; startMs: number }>();

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    const now = Date.now();
    let count = this.counts.get(key);
    if (count && count.startMs + timeWindow > now) this.counts.delete(key);
    else count = { current: 0, startMs: now };
    count.current += 1;
    this.counts.set(key, count); // last in the Map's order: the most recently counted
    if (this.counts.size > STORE_KEYS) this.counts.delete(this.counts.keys().next().value!);
    callback(null, { current: count.current, ttl: count.startMs + timeWindow - now });
  }

  child(): FastifyRateLimitStore {
    return new CountStore();
  }
}

/** Counts one hit of `req` against a named bucket under `key` (the procedure's RateLimiter). */
export type RequestLimiter = (
  req: FastifyRequest,
  ...check: Parameters<RateLimiter>
) => ReturnType<RateLimiter>;

export interface RateLimits {
  /** The named buckets, for procedures. */
  limiter: RequestLimiter;
  /**
   * The "anything else" row: `hits` hits (default one) for `req`: a request, or a message on a
   * socket, counted once per procedure call it makes.
   */
  general: (req: FastifyRequest, hits?: number) => ReturnType<RateLimiter>;
}

/** The paths the "anything else" row counts: the API, tRPC over HTTP, and the socket's upgrade. */
function counted(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/trpc/') || url === '/trpc' || url.startsWith('/trpc?');
}

export async function registerRateLimits(app: FastifyInstance, scale: number): Promise<RateLimits> {
  await app.register(rateLimit, { global: false, store: CountStore });

  // Members and visitors have separate limiters, so each has a fixed maximum.
  const perUser = app.createRateLimit({
    timeWindow: 60_000,
    max: Math.ceil(GENERAL_PER_USER * scale),
    keyGenerator: (req) => `user:${req.session!.user.id}`,
  });
  const perIp = app.createRateLimit({
    timeWindow: 60_000,
    max: Math.ceil(GENERAL_PER_IP * scale),
    keyGenerator: (req) => `ip:${req.ip}`,
  });
  const general = async (req: FastifyRequest, hits = 1): ReturnType<RateLimiter> => {
    const limit = req.session ? perUser : perIp;
    for (let hit = 0; hit < hits; hit += 1) {
      const result = await limit(req);
      // isAllowed means "on the allow list"; the verdict is isExceeded.
      if (!result.isAllowed && result.isExceeded) {
        return { allowed: false, retryAfterSeconds: result.ttlInSeconds };
      }
    }
    return { allowed: true };
  };
  app.addHook('onRequest', async (req, reply) => {
    if (!counted(req.url)) return;
    // Once per call, also for a batch refused as too large (whose calls do not run).
    const calls = trpcCallCount(req.url);
    const result = await general(req, calls);
    if (result.allowed) {
      if (calls <= MAX_BATCH_CALLS) return;
      return sendError(reply, 400, { message: BATCH_TOO_LARGE, code: 'BAD_REQUEST' });
    }
    reply.header('retry-after', String(result.retryAfterSeconds));
    return sendError(reply, 429, {
      message: TOO_MANY_REQUESTS,
      code: 'TOO_MANY_REQUESTS',
    });
  });

  // One limiter per bucket; the key of the current check is handed over through this map.
  const keys = new WeakMap<FastifyRequest, string>();
  const buckets = Object.fromEntries(
    Object.entries(rateLimits).map(([bucket, { max, windowMs }]) => [
      bucket,
      app.createRateLimit({
        max: Math.ceil(max * scale),
        timeWindow: windowMs,
        keyGenerator: (req) => `${bucket}:${keys.get(req) ?? req.ip}`,
      }),
    ]),
  ) as Record<RateLimitBucket, ReturnType<FastifyInstance['createRateLimit']>>;

  const limiter: RequestLimiter = async (req, bucket, key) => {
    keys.set(req, key);
    const result = await buckets[bucket](req);
    return result.isAllowed || !result.isExceeded
      ? { allowed: true }
      : { allowed: false, retryAfterSeconds: result.ttlInSeconds };
  };
  return { limiter, general };
}
