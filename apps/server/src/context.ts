/**
 * The outer context builders, one per transport. Both read the session and the client's address
 * off a Fastify request (for a socket: its upgrade request) and fill in the same Context that
 * `createContextInner` describes; procedures cannot tell them apart but by `transport`.
 */
import type {
  Context,
  CubeyRuntime,
  EventBus,
  JobQueue,
  LinkPreviewSettings,
  Mailer,
  PushSettings,
  ReadinessProbe,
} from '@cubes/api';
import type { MikroORM } from '@cubes/db';
import type { StorageDriver } from '@cubes/storage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLimiter } from './plugins/rate-limit.js';
import { type CookieSettings, clearSessionCookie, setSessionCookie } from './plugins/session.js';

export interface ContextDeps {
  orm: MikroORM;
  /** The read replica (DATABASE_READ_URL) for Context.readReplica, or null: all reads on `orm`. */
  readOrm: MikroORM | null;
  /** Context.cacheScope: the ORM's driver */
  cacheScope: object;
  limiter: RequestLimiter;
  cookies: CookieSettings;
  mailer: Mailer;
  storage: StorageDriver;
  bus: EventBus;
  cubey: CubeyRuntime;
  /** The job runner's queue, or null (no runner: background work runs in the process). */
  jobs: JobQueue | null;
  readiness: ReadinessProbe;
  push: PushSettings;
  linkPreviews: LinkPreviewSettings;
}

const now = () => new Date();

/**
 * The context of one HTTP request (tRPC and REST alike). `em` is the request's fork, made when a
 * procedure first touches it: reads answered from memory never make one.
 */
export function createHttpContext(
  deps: ContextDeps,
  req: FastifyRequest,
  reply: FastifyReply | null,
): Context {
  const readOrm = deps.readOrm;
  return {
    get em() {
      return req.em;
    },
    ...(readOrm ? { readReplica: () => readOrm.em.fork() } : {}),
    // Methods, not arrow properties: this object is made per request, and under tsx every arrow
    // property also gets its name defined at run time.
    fork() {
      return deps.orm.em.fork();
    },
    cacheScope: deps.cacheScope,
    transport: 'http',
    session: req.session ? { id: req.session.id, user: req.session.user } : null,
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
    rateLimit(bucket, key) {
      return deps.limiter(req, bucket, key);
    },
    now,
    mailer: deps.mailer,
    storage: deps.storage,
    bus: deps.bus,
    cubey: deps.cubey,
    ...(deps.jobs ? { jobs: deps.jobs } : {}),
    readiness: deps.readiness,
    push: deps.push,
    linkPreviews: deps.linkPreviews,
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

/**
 * The context of a WebSocket connection, made once when it opens, from its upgrade request (the
 * session cookie was read then). Each call over it gets its own fork (the base procedure sees
 * `transport: 'ws'`); nothing can set a cookie on a socket, so a login must go over HTTP.
 */
export function createWsContext(deps: ContextDeps, upgrade: FastifyRequest): Context {
  const ctx = createHttpContext(deps, upgrade, null);
  // Never the upgrade request's lazy fork, which would live as long as the socket: the base
  // procedure gives every call a fork of its own, and this getter is only the fallback.
  Object.defineProperty(ctx, 'em', { get: () => deps.orm.em.fork(), enumerable: true });
  ctx.transport = 'ws';
  return ctx;
}
