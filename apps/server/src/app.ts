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
import {
  appRouter,
  cachesHear,
  cacheTopics,
  createConsoleMailer,
  createCubeyRuntime,
  createMemoryEventBus,
  createOfflineProvider,
  createOpenAiProvider,
  DEFAULT_LINK_PREVIEW_SETTINGS,
  type EventBus,
  followBusForPush,
  followLikesForBells,
  forgetEverything,
  generateVapidKeys,
  type JobRunner,
  type Mailer,
  registerAppJobs,
  restRows,
  sharedJson,
  watchCubeyUsage,
} from '@cubes/api';
import type { MikroORM } from '@cubes/db';
import { createLocalStorage, type StorageDriver } from '@cubes/storage';
import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import { registerCacheControl } from './cache-control.js';
import type { ContextDeps } from './context.js';
import { type AppConfig, fastifyTrustProxy, type JobsConfig, trustProxyExposure } from './env.js';
import { createErrorHandler, handleClientError, registerTrpcRouteErrors, sendError } from './errors.js';
import { loggerOptions } from './logger.js';
import { registerHttpMetrics } from './metrics/metrics.http.js';
import { watchPool } from './metrics/metrics.registry.js';
import { registerFeeds } from './pages/feeds.js';
import { loadPageRenderer } from './pages/render.js';
import { registerSitemap } from './pages/sitemap.js';
import { type CompressionOptions, registerCompression } from './plugins/compress.js';
import { registerExports } from './plugins/exports.js';
import { registerObjects } from './plugins/objects.js';
import { registerRateLimits } from './plugins/rate-limit.js';
import { registerSecurity } from './plugins/security.js';
import { registerSession } from './plugins/session.js';
import { closeSocketsForRestart, registerSocket } from './plugins/socket.js';
import { registerTrpc } from './plugins/trpc.js';
import { registerWeb } from './plugins/web.js';
import { routedPath } from './request-path.js';
import { registerRestRoutes } from './rest/adapter.js';

export const JSON_BODY_LIMIT = 64 * 1024;

export interface BuildAppOptions {
  orm: MikroORM;
  /**
   * A read replica's ORM (main.ts: DATABASE_READ_URL) for the heavy reads that may lag a little
   * (Context.readReplica); without one everything reads from `orm`. The caller closes it.
   */
  readOrm?: MikroORM | null;
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
  /**
   * The job runner (main.ts: one per instance, on the app's database), not started yet: the app
   * registers its jobs (jobs.handlers.ts) and starts it. Without one there is no scheduled work
   * (sweeps, expiries) and data exports are built in the requesting process: fine for tests. The
   * caller stops the runner it gives.
   */
  jobs?: { runner: JobRunner; config?: Partial<Omit<JobsConfig, 'pollSeconds' | 'maintenanceSeconds'>> };
  /**
   * Events between instances (main.ts: PostgreSQL LISTEN/NOTIFY). By default one in memory: fine
   * for a single process and for tests. The caller closes the bus it gives.
   */
  bus?: EventBus;
  /** Levels and threshold of answer compression (plugins/compress.ts); its defaults otherwise. */
  compression?: CompressionOptions;
  /**
   * True once the host began shutting down (main.ts, on SIGTERM): readiness answers 503 and every
   * answer carries `Connection: close`, so no client keeps a connection to this process.
   */
  shuttingDown?: () => boolean;
}

function temporaryStorage(): { driver: StorageDriver; root: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'cubes-objects-'));
  return { driver: createLocalStorage({ root, secret: randomBytes(32).toString('hex') }), root };
}

export async function buildApp({
  orm,
  readOrm,
  config,
  logger,
  mailer,
  storage: givenStorage,
  jobs,
  bus: givenBus,
  compression,
  shuttingDown = () => false,
}: BuildAppOptions): Promise<FastifyInstance> {
  const bus = givenBus ?? createMemoryEventBus();
  const temporary = givenStorage ? null : temporaryStorage();
  const storage = givenStorage ?? temporary!.driver;
  const errorHandler = createErrorHandler(JSON_BODY_LIMIT);
  const app = Fastify({
    ...(logger
      ? { loggerInstance: logger }
      : {
          logger: loggerOptions(config.logLevel),
        }),
    // Our own onResponse hook logs one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: { maxParamLength: 5000 },
    // While closing, a request that arrives on a connection already open (a proxy's kept-alive
    // one) is served, with `Connection: close`, instead of Fastify's default 503: a proxy does not
    // resend a POST that got an answer, so that 503 reached the member (deploy:check's SIGTERM).
    return503OnClosing: false,
    // Errors raised before routing (malformed URLs) or by Node's parser answer in our shape too.
    frameworkErrors: errorHandler,
    clientErrorHandler: handleClientError,
  });
  // Set before any plugin is registered: an encapsulated plugin keeps the handler it was given.
  app.setErrorHandler(errorHandler);
  // JSON is the only body the app reads (the upload target takes its bytes in a scope of its own,
  // plugins/objects.ts): without Fastify's text/plain parser, a text body is a 415 like any other
  // that is not JSON, not a string handed to a procedure that wants an object (a 400).
  app.removeContentTypeParser('text/plain');

  // Shared results (the cached feed page) are encoded once, not once per request. Fastify
  // sends a Buffer from the serializer as it is (its type only admits strings).
  app.setReplySerializer((payload) => (sharedJson(payload) ?? JSON.stringify(payload)) as string);
  // Answers over 1 KB in Brotli or gzip; a kept page's copies are made once, beside its JSON.
  registerCompression(app, compression);

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

  registerHttpMetrics(app, appRouter);
  // Draining: an answer still being made when the shutdown began closes its connection behind it
  // (a kept-alive connection would otherwise hold the server open for its whole keep-alive time).
  app.addHook('onSend', (_req, reply, _payload, done) => {
    if (shuttingDown()) reply.header('connection', 'close');
    done();
  });
  const unwatchPools = [watchPool(orm, 'primary'), ...(readOrm ? [watchPool(readOrm, 'replica')] : [])];
  app.addHook('onClose', async () => {
    for (const unwatch of unwatchPools) unwatch();
  });

  await app.register(cookie);
  // First among the hooks: its own onRequest hook marks upgrade requests, so that a refusal by any
  // later hook (a rate limit, say) still ends the upgrade's connection.
  // On close, sockets are told to reconnect elsewhere at once (closeSocketsForRestart).
  await app.register(websocket, {
    options: { maxPayload: JSON_BODY_LIMIT },
    preClose: closeSocketsForRestart,
  });
  registerSecurity(
    app,
    config.allowedOrigins,
    storage.uploadOrigin ? [storage.uploadOrigin] : [],
    config.cookieSecure,
  );
  registerSession(app, orm, { secure: config.cookieSecure });
  // Before tRPC and the REST rows: every /api and /trpc answer gets its Cache-Control there.
  registerCacheControl(app);
  const { limiter, general } = await registerRateLimits(app, orm, config.rateLimitScale);
  registerTrpcRouteErrors(app, '/trpc', subscriptionPaths(appRouter));

  // Cubey: a model when one is configured, otherwise the offline assistant.
  const cubeySettings = config.cubey ?? {};
  const cubey = createCubeyRuntime(bus, {
    provider: cubeySettings.baseUrl
      ? createOpenAiProvider({
          baseUrl: cubeySettings.baseUrl,
          apiKey: cubeySettings.apiKey,
          model: cubeySettings.model ?? 'gpt-4o-mini',
          ...(cubeySettings.timeoutMs ? { timeoutMs: cubeySettings.timeoutMs } : {}),
          ...(cubeySettings.contextTokens ? { contextTokens: cubeySettings.contextTokens } : {}),
        })
      : createOfflineProvider({
          ...(cubeySettings.offlineDelayMs === undefined
            ? {}
            : { tokenDelayMs: cubeySettings.offlineDelayMs }),
          ...(cubeySettings.offlineThinkMs === undefined ? {} : { thinkMs: cubeySettings.offlineThinkMs }),
        }),
    ...(cubeySettings.flushMs === undefined ? {} : { flushMs: cubeySettings.flushMs }),
    ...(cubeySettings.flushBytes === undefined ? {} : { flushBytes: cubeySettings.flushBytes }),
    ...(cubeySettings.heartbeatMs === undefined ? {} : { heartbeatMs: cubeySettings.heartbeatMs }),
    ...(cubeySettings.staleMs === undefined ? {} : { staleMs: cubeySettings.staleMs }),
    ...(cubeySettings.sweepMs === undefined ? {} : { sweepMs: cubeySettings.sweepMs }),
    ...(cubeySettings.sweepClock === undefined ? {} : { sweepClock: cubeySettings.sweepClock }),
    ...(cubeySettings.dailyTokens === undefined ? {} : { dailyTokens: cubeySettings.dailyTokens }),
    ...(cubeySettings.maxRunning === undefined ? {} : { maxRunning: cubeySettings.maxRunning }),
    ...(cubeySettings.toolRounds === undefined ? {} : { toolRounds: cubeySettings.toolRounds }),
  });
  // The day's Cubey tokens in the metrics, read at each scrape.
  watchCubeyUsage(() => orm.em.fork());
  // Answers still running end (marked failed) and are saved before the database closes.
  app.addHook('onClose', () => cubey.close());

  // Web push: the configured keys (main.ts: VAPID_* or DATA_DIR/vapid.json), or a pair for this
  // process only (tests): subscriptions made with it die with the process.
  const push = config.push ?? {
    ...generateVapidKeys(),
    subject: 'mailto:postmaster@localhost',
    allowPrivateEndpoints: false,
  };

  const linkPreviews = config.linkPreviews ?? DEFAULT_LINK_PREVIEW_SETTINGS;
  const deps: ContextDeps = {
    push,
    linkPreviews,
    cubey,
    orm,
    readOrm: readOrm ?? null,
    cacheScope: orm.em.getDriver(),
    bus,
    limiter,
    cookies: { secure: config.cookieSecure },
    mailer: mailer ?? createConsoleMailer((line) => app.log.info({ component: 'mail' }, line)),
    storage,
    jobs: jobs?.runner ?? null,
    readiness: {
      shuttingDown,
      pendingMigrations: async () =>
        (await orm.getMigrator().getPendingMigrations()).map((migration) => migration.name),
    },
  };
  await storage.init();
  if (temporary) app.addHook('onClose', () => rm(temporary.root, { recursive: true, force: true }));
  // Believing X-Forwarded-For on a port clients can reach directly lets them pick their address.
  app.addHook('onListen', async () => {
    const warning = trustProxyExposure(
      config.trustProxy,
      app.addresses().map((listening) => (typeof listening === 'string' ? listening : listening.address)),
    );
    if (warning) app.log.warn({ component: 'http' }, warning);
  });
  await registerTrpc(app, deps);
  registerSocket(app, deps, { allowedOrigins: config.allowedOrigins, general });
  const allowedMethods = registerRestRoutes(app, deps, restRows);
  listenForCacheEvents(app, orm, bus);
  // Pushes follow the notifications and messages events this instance published (push.dispatch.ts).
  const stopPush = followBusForPush(bus, {
    fork: () => orm.em.fork(),
    cacheScope: orm.em.getDriver(),
    settings: push,
    queue: jobs?.runner ?? null,
    logError: (message, error) => app.log.error({ err: error }, message),
    logWarn: (fields, message) => app.log.warn(fields, message),
  });
  app.addHook('onClose', async () => stopPush());
  if (!givenBus) app.addHook('onClose', () => bus.close());
  // A like's bell follows its event, once per member per window (notification.bells.ts). Added
  // after the bus's close: onClose hooks run last added first, so what waits rings before it closes.
  const stopBells = followLikesForBells(bus, {
    cacheScope: orm.em.getDriver(),
    logError: (message, error) => app.log.error({ err: error }, message),
  });
  app.addHook('onClose', async () => stopBells());
  registerObjects(app, storage);
  registerExports(app, storage);
  // Public pages outside the app: RSS feeds, the sitemap and robots.txt (src/pages/).
  registerFeeds(app, deps, config.publicUrl ?? null);
  registerSitemap(app, deps, config.publicUrl ?? null);

  // Background work, once across all instances (jobs.handlers.ts): the upload sweep, export
  // builds and expiry, held usernames, and Cubey's answers left streaming by an instance that died.
  if (jobs) {
    registerAppJobs(jobs.runner, {
      fork: () => orm.em.fork(),
      storage,
      bus,
      cubey,
      logError: (message, error) => app.log.error({ err: error }, message),
      logInfo: (fields, message) => app.log.info(fields, message),
      logWarn: (fields, message) => app.log.warn(fields, message),
      ...(jobs.config?.sweepSeconds ? { sweepSeconds: jobs.config.sweepSeconds } : {}),
      ...(jobs.config?.exports ? { exports: jobs.config.exports } : {}),
      push,
      linkCards: { settings: linkPreviews, cacheScope: orm.em.getDriver() },
    });
    await jobs.runner.start();
  }
  const sendIndex = config.webDist
    ? await registerWeb(app, config.webDist, {
        renderer: await loadPageRenderer(config.webDist, deps, app.log),
        publicUrl: config.publicUrl ?? null,
      })
    : null;

  app.setNotFoundHandler((req, reply) => {
    // Decided on the path as the router read it: `/%61pi/…` and `http://x/api/…` are API paths too.
    const path = routedPath(req);
    const api = path.startsWith('/api/') || path === '/api' || path.startsWith('/trpc');
    if (!api && sendIndex && (req.method === 'GET' || req.method === 'HEAD')) return sendIndex(req, reply);
    // A REST path asked with a method it does not have: 405 naming those it has.
    const allow = api ? allowedMethods(path) : null;
    if (allow) {
      return sendError(reply.header('allow', allow.join(', ')), 405, {
        message: `${req.method} is not allowed on ${path}; it takes ${allow.join(', ')}`,
        code: 'METHOD_NOT_SUPPORTED',
      });
    }
    return sendError(reply, 404, {
      message: `Unknown API path: ${req.method} ${path}`,
      code: 'NOT_FOUND',
    });
  });

  return app;
}

/** The dotted paths of the router's subscriptions ('posts.onNew'). */
function subscriptionPaths(router: AnyRouter): Set<string> {
  return new Set(
    Object.entries(router._def.procedures as Record<string, AnyProcedure>)
      .filter(([, procedure]) => procedure._def.type === 'subscription')
      .map(([path]) => path),
  );
}

/**
 * In-process caches hear of other instances' writes through the bus, for every topic some cache
 * depends on (kept-reads.ts). This process's own writes were heard when they were published,
 * except those sent with their write (`withWrite`): the bus delivers them at the commit, which
 * can be before the writer reads the commit's answer and calls `sentWithWrite`, and this
 * listener runs before the live subscriptions that tell clients to read again (it was added
 * first). Those are heard here too: a client told of a deleted comment must not read it back
 * from a kept page. What they drop is dropped twice, which changes nothing.
 */
function listenForCacheEvents(app: FastifyInstance, orm: MikroORM, bus: EventBus): void {
  const scope = orm.em.getDriver();
  const stops = [
    ...cacheTopics().map((topic) =>
      bus.on(topic, (event) => {
        if (!event.local || event.withWrite) cachesHear(scope, topic, event.payload);
      }),
    ),
    // Events sent while the bus was reconnecting are lost: drop everything.
    bus.onReconnect(() => forgetEverything(scope)),
  ];
  app.addHook('onClose', async () => {
    for (const stop of stops) stop();
  });
}
