/** Per request: a forked EntityManager and the caller's session, read from the cookie. */
import { type ResolvedSession, resolveSession, SESSION_COOKIE } from '@cubes/api';
import type { EntityManager, MikroORM } from '@cubes/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    em: EntityManager;
    session: ResolvedSession | null;
  }
}

export interface CookieSettings {
  secure: boolean;
}

const NEEDS_SESSION = ['/api/', '/trpc/', '/objects/'];

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

export function registerSession(app: FastifyInstance, orm: MikroORM, settings: CookieSettings): void {
  app.decorateRequest('em', null as unknown as EntityManager);
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (req, reply) => {
    if (!NEEDS_SESSION.some((p) => req.url.startsWith(p))) return;
    req.em = orm.em.fork();
    const token = req.cookies[SESSION_COOKIE];
    req.session = await resolveSession(req.em, token, new Date());
    if (req.session?.renewedUntil && token) {
      setSessionCookie(req, reply, settings, token, req.session.renewedUntil);
    }
  });
}
