import type { Context, Mailer } from '@cubes/api';
import type { StorageDriver } from '@cubes/storage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLimiterFactory } from './plugins/rate-limit.js';
import { type CookieSettings, clearSessionCookie, setSessionCookie } from './plugins/session.js';

export interface ContextDeps {
  limiter: RequestLimiterFactory;
  cookies: CookieSettings;
  mailer: Mailer;
  storage: StorageDriver;
}

/** The procedure context of one HTTP request (tRPC and REST alike). */
export function createRequestContext(
  deps: ContextDeps,
  req: FastifyRequest,
  reply: FastifyReply | null,
): Context {
  return {
    em: req.em,
    session: req.session ? { id: req.session.id, user: req.session.user } : null,
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
    rateLimit: deps.limiter(req),
    now: () => new Date(),
    mailer: deps.mailer,
    storage: deps.storage,
    logError: (message, error) => req.log.error({ err: error }, message),
    response: {
      setSessionCookie: (token, expiresAt) => {
        if (reply) setSessionCookie(req, reply, deps.cookies, token, expiresAt);
      },
      clearSessionCookie: () => {
        if (reply) clearSessionCookie(req, reply, deps.cookies);
      },
    },
  };
}
