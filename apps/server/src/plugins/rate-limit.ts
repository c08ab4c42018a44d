/**
 * The rate limits (docs/api.md) on @fastify/rate-limit's store. The "anything else" row is a hook
 * on /api and /trpc keyed by user or IP, and counts every message on a socket too; the named buckets are enforced inside procedures (through
 * the context's `rateLimit`), so /api and /trpc share one count. All maxima scale by
 * RATE_LIMIT_SCALE; there is no switch to turn them off.
 */

import { type RateLimitBucket, type RateLimiter, rateLimits } from '@cubes/api';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from '../errors.js';

const GENERAL_PER_IP = 600;
const GENERAL_PER_USER = 1200;

/** Counts one hit of `req` against a named bucket under `key` (the procedure's RateLimiter). */
export type RequestLimiter = (
  req: FastifyRequest,
  ...check: Parameters<RateLimiter>
) => ReturnType<RateLimiter>;

export interface RateLimits {
  /** The named buckets, for procedures. */
  limiter: RequestLimiter;
  /** The "anything else" row: one hit for `req` (a request, or a message on a socket). */
  general: (req: FastifyRequest) => ReturnType<RateLimiter>;
}

/** The paths the "anything else" row counts: the API, tRPC over HTTP, and the socket's upgrade. */
function counted(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/trpc/') || url === '/trpc' || url.startsWith('/trpc?');
}

export async function registerRateLimits(app: FastifyInstance, scale: number): Promise<RateLimits> {
  await app.register(rateLimit, { global: false });

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
  const general = async (req: FastifyRequest): ReturnType<RateLimiter> => {
    const result = await (req.session ? perUser : perIp)(req);
    // isAllowed means "on the allow list"; the verdict is isExceeded.
    return result.isAllowed || !result.isExceeded
      ? { allowed: true }
      : { allowed: false, retryAfterSeconds: result.ttlInSeconds };
  };
  app.addHook('onRequest', async (req, reply) => {
    if (!counted(req.url)) return;
    const result = await general(req);
    if (result.allowed) return;
    reply.header('retry-after', String(result.retryAfterSeconds));
    return sendError(reply, 429, {
      message: 'Too many requests, please try again later',
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
