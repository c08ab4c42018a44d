import type { Context, Mailer } from '@cubes/api';
import type { StorageDriver } from '@cubes/storage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLimiter } from './plugins/rate-limit.js';
import { type CookieSettings, clearSessionCookie, setSessionCookie } from './plugins/session.js';

export interface ContextDeps {
  /** Context.cacheScope: the ORM's driver */
  cacheScope: object;
  limiter: RequestLimiter;
  cookies: CookieSettings;
  mailer: Mailer;
  storage: StorageDriver;
}

const now = () => new Date();

/**
 * The procedure context of one HTTP request (tRPC and REST alike). `em` is the request's fork,
 * made when a procedure first touches it: reads answered from memory never make one.
 */
export function createRequestContext(
  deps: ContextDeps,
  req: FastifyRequest,
  reply: FastifyReply | null,
): Context {
  return {
    get em() {
      return req.em;
    },
    cacheScope: deps.cacheScope,
    session: req.session ? { id: req.session.id, user: req.session.user } : null,
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
    // Methods, not arrow properties: this object is made per request, and under tsx every arrow
    // property also gets its name defined at run time.
    rateLimit(bucket, key) {
      return deps.limiter(req, bucket, key);
    },
    now,
    mailer: deps.mailer,
    storage: deps.storage,
    logError(message, error) {
      req.log.error({ err: error }, message);
    },
    response: {
      setSessionCookie(token, expiresAt) {
        if (reply) setSessionCookie(req, reply, deps.cookies, token, expiresAt);
      },
      clearSessionCookie() {
        if (reply) clearSessionCookie(req, reply, deps.cookies);
      },
    },
  };
}
