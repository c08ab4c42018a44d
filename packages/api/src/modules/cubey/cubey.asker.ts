/**
 * The context Cubey's tools run in: the asking member's session, with a fresh EntityManager fork
 * for each call. An answer outlives the request that started it, so nothing of that request (its
 * fork, its reply, its rate limiter) is kept; the services see an internal call by the member.
 */
import type { AuthedContext } from '../../context.types.js';

export function askerContext(ctx: AuthedContext): () => AuthedContext {
  const { session, cacheScope, readReplica, storage, bus, mailer, cubey, jobs, logError, userAgent, ip } =
    ctx;
  const fork = () => ctx.fork();
  const now = () => ctx.now();
  return () => ({
    em: fork(),
    fork,
    cacheScope,
    ...(readReplica ? { readReplica } : {}),
    transport: 'internal',
    session,
    ip,
    userAgent,
    rateLimit: async () => ({ allowed: true }),
    response: { setSessionCookie: () => {}, clearSessionCookie: () => {} },
    now,
    mailer,
    storage,
    bus,
    ...(logError ? { logError } : {}),
    ...(cubey ? { cubey } : {}),
    ...(jobs ? { jobs } : {}),
  });
}
