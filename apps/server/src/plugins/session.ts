/**
 * Per request: the caller's session, read from the cookie, and a forked EntityManager, made on
 * first use (most requests to the hot reads are answered from memory and never need one).
 */
import { type ResolvedSession, resolveSession, resolveSessionFromCache, SESSION_COOKIE } from '@cubes/api';
import type { EntityManager, MikroORM } from '@cubes/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FEED_PATH, MEMBER_PAGE_PATH } from '../pages/paths.js';
import { routedPath } from '../request-path.js';

declare module 'fastify' {
  interface FastifyRequest {
    em: EntityManager;
    session: ResolvedSession | null;
  }
}

export interface CookieSettings {
  secure: boolean;
}

const NEEDS_SESSION = ['/api/', '/trpc/', '/objects/', '/exports/'];

/** The WebSocket endpoint (tRPC subscriptions): its upgrade request carries the session cookie. */
export const SOCKET_PATH = '/trpc';

export function setSessionCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  settings: CookieSettings,
  token: string,
  expiresAt: Date,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure || req.protocol === 'https',
    expires: expiresAt,
  });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure || req.protocol === 'https',
  });
}

const FORK = Symbol('em');
type WithFork = { [FORK]: EntityManager | null };

export function registerSession(app: FastifyInstance, orm: MikroORM, settings: CookieSettings): void {
  app.decorateRequest(FORK, null);
  app.decorateRequest('em', {
    getter(this: FastifyRequest) {
      const self = this as unknown as WithFork;
      self[FORK] ??= orm.em.fork();
      return self[FORK];
    },
  });
  app.decorateRequest('session', null);
  app.addHook('onRequest', (req, reply, done) => {
    // The routed path: an encoded or absolute-form target reaches the same routes (request-path.ts).
    const path = routedPath(req);
    if (
      !NEEDS_SESSION.some((p) => path.startsWith(p)) &&
      path !== SOCKET_PATH &&
      !FEED_PATH.test(path) &&
      !MEMBER_PAGE_PATH.test(path)
    ) {
      return done();
    }
    const token = req.cookies[SESSION_COOKIE];
    const now = new Date();
    // Sessions are read and renewed with plain SQL on the connection: no fork needed.
    const cached = resolveSessionFromCache(orm.em, token, now);
    if (cached !== undefined) {
      req.session = cached;
      return done();
    }
    resolveSession(orm.em, token, now)
      .then((session) => {
        req.session = session;
        if (session?.renewedUntil && token)
          setSessionCookie(req, reply, settings, token, session.renewedUntil);
      })
      .then(() => done(), done);
  });
}
