/**
 * The rate limits (docs/api.md), counted where every instance sees them (rate-limit.counts.ts:
 * PostgreSQL, with memory when it is away). The "anything else" row is a hook on /api and /trpc
 * keyed by user or IP that counts every procedure call: a tRPC batch (`?batch=1`) counts once per
 * call, and holds at most MAX_BATCH_CALLS of them (400 beyond); the socket counts the calls of
 * each message the same way (plugins/socket.ts). The hook decides on the path the router routed
 * (request-path.ts), so an encoded or absolute-form target is counted like the plain one. The
 * named buckets are enforced inside procedures (through the context's `rateLimit`), once per call,
 * so /api, /trpc, batches, the socket and every instance share one count. All maxima scale by
 * RATE_LIMIT_SCALE; there is no switch to turn them off.
 */

import { type RateLimitBucket, type RateLimiter, rateLimits, TOO_MANY_REQUESTS } from '@cubes/api';
import { ERROR_REASONS } from '@cubes/api/error-reasons';
import type { MikroORM } from '@cubes/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from '../errors.js';
import { isDataPage } from '../pages/paths.js';
import { routedPath, targetQuery } from '../request-path.js';
import { type SharedBucket, SYNC_MS, SyncedCounts, sharedBucket, storedKey } from './rate-limit.counts.js';
import { addCounts } from './rate-limit.repository.js';

const GENERAL_PER_IP = 600;

/**
 * The named buckets counted here and synced (rate-limit.counts.ts), not with a statement a hit:
 * `react` (likes, follows, bookmarks, blocks, mutes) runs on the hottest write and guards no
 * secret. Every other bucket stays a statement a hit.
 */
const SYNCED_BUCKETS: readonly RateLimitBucket[] = ['react'];
const GENERAL_PER_USER = 1200;

/**
 * The most procedure calls one tRPC batch may hold: an HTTP request with `?batch=1`, or one
 * WebSocket message (an array). The web app's httpBatchLink sends at most this many (maxItems).
 */
export const MAX_BATCH_CALLS = 10;

export const BATCH_TOO_LARGE = ERROR_REASONS.BATCH_TOO_LARGE;

/**
 * How many procedure calls a request to tRPC's route makes, read as tRPC reads it: with `batch=1`
 * (its first value) one per comma in the procedure path. The path is decoded until it no longer
 * changes: Fastify decodes the route parameter and tRPC decodes it once more, so `%252C` is a
 * comma too.
 */
export function trpcCallCount(procedurePath: string, query: string): number {
  if (new URLSearchParams(query).get('batch') !== '1') return 1;
  let path = procedurePath;
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

/** The procedure calls `req` makes: more than one only for a tRPC batch over HTTP. */
function callsOf(req: FastifyRequest, path: string): number {
  if (path !== '/trpc/:path') return 1;
  return trpcCallCount((req.params as { path?: string }).path ?? '', targetQuery(req.url));
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

/**
 * The routed paths the "anything else" row counts: the API, tRPC over HTTP, the socket, and the
 * pages outside the API that read the database (feeds, the sitemap: pages/paths.ts).
 */
function counted(path: string): boolean {
  return path.startsWith('/api/') || path.startsWith('/trpc/') || path === '/trpc' || isDataPage(path);
}

export async function registerRateLimits(
  app: FastifyInstance,
  orm: MikroORM,
  scale: number,
): Promise<RateLimits> {
  const warn = (error: unknown) =>
    app.log.warn({ err: error }, 'rate limits: the shared counts failed; counting in this process');
  /** A row counted here and synced (rate-limit.counts.ts), its keys stored under `name:`. */
  const synced = (name: string, windowMs: number) =>
    new SyncedCounts(
      (counts, now) =>
        addCounts(
          orm.em.fork(),
          counts.map((count) => ({ ...count, key: `${name}:${count.key}` })),
          now,
        ).then((rows) => rows.map((row) => ({ ...row, key: row.key.slice(name.length + 1) }))),
      windowMs,
      warn,
    );
  const generalCounts = synced('general', 60_000);
  const syncedBuckets = new Map(
    SYNCED_BUCKETS.map((bucket) => [bucket, synced(bucket, rateLimits[bucket].windowMs)]),
  );
  const allSynced = [generalCounts, ...syncedBuckets.values()];
  const timer = setInterval(() => {
    for (const counts of allSynced) void counts.sync();
  }, SYNC_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await Promise.all(allSynced.map((counts) => counts.sync()));
  });

  // Members and visitors have separate maxima.
  const perUser = Math.ceil(GENERAL_PER_USER * scale);
  const perIp = Math.ceil(GENERAL_PER_IP * scale);
  const general = async (req: FastifyRequest, hits = 1): ReturnType<RateLimiter> =>
    req.session
      ? generalCounts.hit(`user:${req.session.user.id}`, perUser, hits)
      : generalCounts.hit(`ip:${req.ip}`, perIp, hits);

  app.addHook('onRequest', async (req, reply) => {
    const path = routedPath(req);
    if (!counted(path)) return;
    // Once per call, also for a batch refused as too large (whose calls do not run).
    const calls = callsOf(req, path);
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

  const knex = orm.em.getConnection().getKnex();
  const buckets = Object.fromEntries(
    Object.entries(rateLimits).map(([bucket, { max, windowMs }], index) => {
      const scaled = Math.ceil(max * scale);
      const counts = syncedBuckets.get(bucket as RateLimitBucket);
      return [
        bucket,
        counts
          ? { hit: (key: string) => counts.hit(storedKey(key), scaled) }
          : sharedBucket(knex, bucket, { max: scaled, windowMs }, index === 0),
      ];
    }),
  ) as Record<RateLimitBucket, SharedBucket>;

  const limiter: RequestLimiter = (_req, bucket, key) => buckets[bucket].hit(key);
  return { limiter, general };
}
