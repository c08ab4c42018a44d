/**
 * Builds the Fastify app: security, sessions, rate limits, the tRPC router at /trpc (HTTP and
 * WebSocket), the REST adapter at /api, and in production the built web app. No listening here:
 * main.ts listens, tests use inject().
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConsoleMailer, type Mailer, sharedJson, sweepOrphanUploads } from '@cubes/api';
import type { MikroORM } from '@cubes/db';
import { createLocalStorage, type StorageDriver } from '@cubes/storage';
import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from './env.js';
import { codeForStatus, sendError } from './errors.js';
import { registerObjects } from './plugins/objects.js';
import { registerRateLimits } from './plugins/rate-limit.js';
import { registerSecurity } from './plugins/security.js';
import { registerSession } from './plugins/session.js';
import { registerTrpc } from './plugins/trpc.js';
import { registerWeb, sendIndex } from './plugins/web.js';
import { registerRestRoutes } from './rest/adapter.js';
import { restRoutes } from './rest/routes.js';

export const JSON_BODY_LIMIT = 64 * 1024;

export interface BuildAppOptions {
  orm: MikroORM;
  config: AppConfig;
  /** A pino logger to use (main.ts shares its own); by default one is made from config.logLevel. */
  logger?: FastifyBaseLogger;
  /** Outgoing mail (reset codes); by default the codes are logged on the server console. */
  mailer?: Mailer;
  /**
   * Where uploads go (main.ts: local under DATA_DIR/objects, or S3). By default a local driver in
   * a fresh temporary directory with a random secret: fine for tests, gone after a restart.
   */
  storage?: StorageDriver;
  /** How often private uploads older than a day are swept; 0 turns the timer off. Default 1 h. */
  orphanSweepIntervalMs?: number;
}

export const ORPHAN_SWEEP_INTERVAL_MS = 60 * 60_000;

function temporaryStorage(): { driver: StorageDriver; root: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'cubes-objects-'));
  return { driver: createLocalStorage({ root, secret: randomBytes(32).toString('hex') }), root };
}

export async function buildApp({
  orm,
  config,
  logger,
  mailer,
  storage: givenStorage,
  orphanSweepIntervalMs = ORPHAN_SWEEP_INTERVAL_MS,
}: BuildAppOptions): Promise<FastifyInstance> {
  const temporary = givenStorage ? null : temporaryStorage();
  const storage = givenStorage ?? temporary!.driver;
  const app = Fastify({
    ...(logger
      ? { loggerInstance: logger }
      : {
          logger: {
            level: config.logLevel,
            // Belt and braces: we never log headers or bodies, but if anyone does, secrets stay out.
            redact: ['req.headers.cookie', 'req.headers.authorization', '*.password', '*.token'],
          },
        }),
    // Our own onResponse hook logs one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 5000 },
  });

  // Shared results (the cached feed page) are encoded once, not once per request. Fastify
  // sends a Buffer from the serializer as it is (its type only admits strings).
  app.setReplySerializer((payload) => (sharedJson(payload) ?? JSON.stringify(payload)) as string);

  // One line per request, with no query string values that could hold secrets. A hook costs on
  // every request even when its line is dropped, so with info off there is none.
  if ((app.log as unknown as Logger).isLevelEnabled('info')) {
    app.addHook('onResponse', (req, reply, done) => {
      req.log.info(
        {
          method: req.method,
          url: req.url.split('?')[0],
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
          user: req.session?.user.id,
        },
        'request',
      );
      done();
    });
  }

  await app.register(cookie);
  registerSecurity(app, config.allowedOrigins, storage.uploadOrigin ? [storage.uploadOrigin] : []);
  registerSession(app, orm, { secure: config.cookieSecure });
  const limiter = await registerRateLimits(app, config.rateLimitScale);
  await app.register(websocket, { options: { maxPayload: JSON_BODY_LIMIT } });

  const deps = {
    cacheScope: orm.em.getDriver(),
    limiter,
    cookies: { secure: config.cookieSecure },
    mailer: mailer ?? createConsoleMailer((line) => app.log.info({ component: 'mail' }, line)),
    storage,
  };
  await storage.init();
  if (temporary) app.addHook('onClose', () => rm(temporary.root, { recursive: true, force: true }));
  await registerTrpc(app, deps);
  registerRestRoutes(app, deps, restRoutes);
  registerObjects(app, storage);

  // Uploads that never became public are deleted after a day.
  if (orphanSweepIntervalMs > 0) {
    const timer = setInterval(() => {
      sweepOrphanUploads(orm.em.fork(), storage, new Date())
        .then((n) => {
          if (n > 0) app.log.info({ component: 'objects' }, `swept ${n} orphan upload(s)`);
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'orphan sweep failed'));
    }, orphanSweepIntervalMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  const serveWeb = config.webDist ? await registerWeb(app, config.webDist) : false;

  app.setNotFoundHandler((req, reply) => {
    const api = req.url.startsWith('/api/') || req.url === '/api' || req.url.startsWith('/trpc');
    if (!api && serveWeb && (req.method === 'GET' || req.method === 'HEAD')) return sendIndex(req, reply);
    return sendError(reply, 404, {
      message: `Unknown API path: ${req.method} ${req.url.split('?')[0]}`,
      code: 'NOT_FOUND',
    });
  });

  app.setErrorHandler((error: { statusCode?: number; code?: string; message?: string }, req, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      req.log.error({ err: error }, 'request failed');
      return sendError(reply, 500, { message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' });
    }
    const message =
      status === 413
        ? `Request body is too large (limit ${JSON_BODY_LIMIT / 1024} KB)`
        : status === 429
          ? 'Too many requests, please try again later'
          : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Unsupported content type: send JSON'
            : (error.message ?? 'Bad request');
    return sendError(reply, status, { message, code: codeForStatus(status) });
  });

  return app;
}
