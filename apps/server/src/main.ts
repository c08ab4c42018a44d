/**
 * Starts Cubes: configuration, database (embedded unless DATABASE_URL), migrations, the demo
 * seed, then the HTTP server. With INSTANCES=n (n > 1) this process only prepares the database
 * and runs n app processes on PORT, PORT+1, … that share it (instances.ts).
 */
import path from 'node:path';
import {
  createConsoleMailer,
  createJobRunner,
  createPgEventBus,
  createSmtpMailer,
  DEFAULT_MAIL_FROM,
  formatDemoAccounts,
  seedDemoCommunity,
} from '@cubes/api';
import { initOrm, initReadOrm, isDatabaseUnavailable, resolveDatabase } from '@cubes/db';
import { buildApp } from './app.js';
import {
  createStorage,
  cubeyConfig,
  jobsConfig,
  publicUrlOf,
  pushConfig,
  readEnv,
  testSettingsWarning,
} from './env.js';
import { INSTANCE_ENV, superviseInstances } from './instances.js';
import { createLogger } from './logger.js';
import { collectNodeMetrics } from './metrics/metrics.registry.js';
import { startMetricsServer } from './metrics/metrics.server.js';

// Milliseconds since the process began: what loading the program's modules took (tsx
// compiling TypeScript, or the built JavaScript), before anything below runs.
const startedAt = performance.now();

/** The longest requests in flight may take to finish once a shutdown began. */
const SHUTDOWN_DRAIN_MS = 10_000;

/**
 * Work to finish or hand back on shutdown, after HTTP has drained and before the database
 * closes (the job runner's stop), run in order.
 */
const onShutdown: Array<() => Promise<void>> = [];
const env = readEnv();
const instance = process.env[INSTANCE_ENV];
const log = createLogger(env.LOG_LEVEL, instance ? { instance: Number(instance) } : {});
// Once, by the process started (not again by each of its instances).
const testSettings = instance ? null : testSettingsWarning(env.NODE_ENV, process.env);
if (testSettings) log.warn(testSettings);

const database = await resolveDatabase({
  databaseUrl: env.DATABASE_URL,
  dataDir: env.PG_DATA_DIR ?? path.join(env.DATA_DIR, 'pg'),
  port: env.PG_PORT,
  log: (line) => log.debug({ component: 'postgres' }, line),
  // Meanwhile requests answer 503 and the pool reconnects once it is back (docs/architecture.md, "Failure handling").
  notice: (line) => log.warn({ component: 'postgres' }, line),
});
if (database.embedded) {
  log.info(
    `embedded PostgreSQL on 127.0.0.1:${database.embedded.port}, data in ${database.embedded.dataDir}`,
  );
}

const orm = await initOrm({
  clientUrl: database.url,
  logger: (message) => log.info({ component: 'orm' }, message),
});
// Reset codes go out by SMTP when configured; otherwise (the demo) they are logged here.
const mailer = env.SMTP_URL
  ? createSmtpMailer({ url: env.SMTP_URL, from: env.MAIL_FROM ?? DEFAULT_MAIL_FROM })
  : createConsoleMailer((line) => log.info({ component: 'mail' }, line));

// Made before any instance starts, so the upload-signing secret is created once, not raced.
const storage = createStorage(env);
await storage.init();

// First start on an empty database: a small demo community, its passwords logged this once.
// With several instances the supervisor does it, before either instance serves.
if (env.SEED_DEMO !== '0' && !instance) {
  const accounts = await seedDemoCommunity(orm.em.fork(), storage);
  if (accounts) log.info({ component: 'demo' }, formatDemoAccounts(accounts));
}

if (env.INSTANCES > 1 && !instance) {
  await orm.close();
  await superviseInstances({
    count: env.INSTANCES,
    port: env.PORT,
    metricsPort: env.METRICS_PORT,
    databaseUrl: database.url,
    log,
    databaseStopping: () => database.embedded?.stopping(),
    stopDatabase: async () => {
      await database.embedded?.stop();
    },
  });
} else {
  log.info({ component: 'mail' }, env.SMTP_URL ? 'mail: SMTP' : 'mail: console (SMTP_URL not set)');
  log.info(
    { component: 'objects' },
    `objects: ${storage.kind === 's3' ? `S3 bucket ${env.S3_BUCKET}` : `local, ${path.join(env.DATA_DIR, 'objects')}`}`,
  );
  // Heavy reads that may lag a little go to the replica; everything else stays on the primary.
  const readOrm = env.DATABASE_READ_URL
    ? await initReadOrm({
        clientUrl: env.DATABASE_READ_URL,
        logger: (message) => log.info({ component: 'orm' }, message),
      })
    : null;
  log.info(
    { component: 'orm' },
    readOrm
      ? 'reads: replica (DATABASE_READ_URL) for feed pages, search, gallery, profiles'
      : 'reads: primary',
  );
  let closing = false;
  // Prometheus metrics on their own listener, on 127.0.0.1 only (METRICS_PORT=0: none).
  collectNodeMetrics();
  // A port already taken costs the metrics, not the app: said once, and the server starts anyway.
  const metrics =
    env.METRICS_PORT === 0
      ? null
      : await startMetricsServer(env.METRICS_PORT).catch((error: unknown) => {
          log.warn(
            { component: 'metrics', reason: error instanceof Error ? error.message : String(error) },
            `metrics: port ${env.METRICS_PORT} unavailable; no metrics listener`,
          );
          return null;
        });
  if (metrics) log.info({ component: 'metrics' }, `metrics on 127.0.0.1 port ${metrics.port}, path /metrics`);

  const bus = await createPgEventBus({
    connectionString: database.url,
    // Warnings: the bus reconnects by itself, and its consumers catch up from the database. A
    // database that went away (restarting, or stopped by the Ctrl+C that reached this process
    // too) is an expected cause, said in one line without a stack; while shutting down, not at all.
    onError: (message, error) => {
      if (closing) return;
      if (isDatabaseUnavailable(error)) {
        log.warn(
          { component: 'events', reason: error instanceof Error ? error.message : String(error) },
          `${message}: the database is unavailable; the bus reconnects by itself`,
        );
      } else log.warn({ component: 'events', err: error }, message);
    },
  });

  // Background work, shared with the other instances through the database (docs/operations.md, "Jobs").
  const jobsSettings = jobsConfig(env);
  const jobs = createJobRunner({
    connectionString: database.url,
    pollSeconds: jobsSettings.pollSeconds,
    maintenanceSeconds: jobsSettings.maintenanceSeconds,
    // Like the bus: an unavailable database is one warning line (the runner retries by itself).
    logError: (message, error) => {
      if (closing) return;
      if (isDatabaseUnavailable(error)) {
        log.warn(
          { component: 'jobs', reason: error instanceof Error ? error.message : String(error) },
          `${message}: the database is unavailable`,
        );
      } else log.error({ component: 'jobs', err: error }, message);
    },
    logDebug: (fields, message) => log.debug(fields, message),
  });
  // Running jobs finish (at most 5 s); the rest go back to the queue for another instance.
  onShutdown.push(() => jobs.stop());

  const app = await buildApp({
    orm,
    readOrm,
    logger: log,
    mailer,
    storage,
    bus,
    jobs: { runner: jobs, config: jobsSettings },
    shuttingDown: () => closing,
    config: {
      allowedOrigins: env.APP_ORIGIN ? env.APP_ORIGIN.split(',').map((o) => o.trim()) : [],
      cookieSecure: env.COOKIE_SECURE,
      trustProxy: env.TRUST_PROXY,
      rateLimitScale: env.RATE_LIMIT_SCALE,
      logLevel: env.LOG_LEVEL,
      webDist: env.NODE_ENV === 'production' ? env.WEB_DIST : null,
      publicUrl: publicUrlOf(env),
      cubey: cubeyConfig(env),
      push: pushConfig(env),
      linkPreviews: { allowPrivate: env.LINK_PREVIEW_ALLOW_PRIVATE },
    },
  });

  /**
   * Graceful shutdown (SIGTERM, SIGINT), in this order:
   * 1. readiness answers 503 at once (`closing`), so a load balancer stops sending here; on
   *    SIGTERM the server goes on serving for SHUTDOWN_GRACE_MS while it notices;
   * 2. app.close(): sockets close with 1012 (the web app reconnects at once, elsewhere), no new
   *    connection is accepted, and requests in flight finish, each answer closing its connection;
   *    after SHUTDOWN_DRAIN_MS whatever is still open is cut;
   * 3. the onShutdown hooks run (running jobs finish or are handed back);
   * 4. the bus, the pools and the embedded database close, and the process exits.
   */
  async function shutdown(signal: string) {
    if (closing) return;
    closing = true;
    database.embedded?.stopping();
    const grace = signal === 'SIGTERM' ? env.SHUTDOWN_GRACE_MS : 0;
    log.info(`${signal}: shutting down (readiness off; draining in ${grace} ms)`);
    const started = performance.now();
    const force = setTimeout(
      () => {
        log.error('shutdown took too long; exiting');
        process.exit(1);
      },
      grace + SHUTDOWN_DRAIN_MS + 10_000,
    );
    force.unref();
    if (grace > 0) await new Promise((resolve) => setTimeout(resolve, grace));
    let code = 0;
    try {
      const closed = app.close();
      const drained = await Promise.race([
        closed.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), SHUTDOWN_DRAIN_MS).unref()),
      ]);
      if (!drained) {
        log.warn(`requests still open after ${SHUTDOWN_DRAIN_MS} ms: closing their connections`);
        app.server.closeAllConnections();
        await closed;
      }
      for (const hook of onShutdown) {
        await hook().catch((error: unknown) => {
          code = 1;
          log.error({ err: error }, 'shutdown hook failed');
        });
      }
      await metrics?.close();
      await bus.close();
      await orm.close();
      await readOrm?.close();
      await database.embedded?.stop();
      log.info({ shutdownMs: Math.round(performance.now() - started) }, 'stopped');
    } catch (error) {
      code = 1;
      log.error({ err: error }, 'shutdown failed');
    } finally {
      process.exit(code);
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: env.HOST, port: env.PORT });
  log.info(
    // startupMs: from here to listening (database, migrations, app); loadMs: the modules before it.
    { startupMs: Math.round(performance.now() - startedAt), loadMs: Math.round(startedAt) },
    `Cubes is running at http://localhost:${env.PORT}`,
  );
}
