/**
 * The benchmark's server process: the real app (on BENCH_APP_PORT) and a bare Fastify route
 * (on BENCH_BARE_PORT) in one process, so both run under the same conditions. The bare route
 * answers a fixed JSON body: a copy of a real feed page, encoded once to a Buffer as the app's
 * cached page is, so both send the same bytes the same way. GET /one-query on the bare port is
 * the floor of a route that does work: Fastify, the app's pool, one primary-key select of a post
 * (the app's own statement, prepared, `findPostById`) and the post encoded as the app's are
 * (toPostDto, Fastify's JSON), each request the next of the 200 newest posts. GET /bench-stats on the bare port
 * tells the benches what the app's pool saw: queries sent, connection-acquire timeouts (pool
 * exhaustion) and the most requests ever waiting for a connection; POST /bench-stats/reset
 * starts them again (after a warm-up).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPgEventBus, findPostById } from '@cubes/api';
import { initOrm } from '@cubes/db';
import { buildApp } from '@cubes/server';
import Fastify from 'fastify';

const url = process.env.BENCH_DATABASE_URL!;
// BENCH_POOL: the pool size (the app's default is 20).
const orm = await initOrm({ clientUrl: url, poolMax: Number(process.env.BENCH_POOL ?? 20) });
// The event bus on PostgreSQL, as in production: each write's NOTIFY is part of what it costs.
const bus = await createPgEventBus({ connectionString: url });
// knex (under MikroORM) emits every query it sends and its pool (tarn) every failed acquire.
const knex = orm.em.getConnection().getKnex();
const stats = { queries: 0, poolTimeouts: 0, maxPendingAcquires: 0 };
knex.on('query', () => {
  stats.queries += 1;
});
const pool = (
  knex.client as {
    pool: { on(event: 'acquireFail', f: () => void): void; numPendingAcquires(): number };
  }
).pool;
pool.on('acquireFail', () => {
  stats.poolTimeouts += 1;
});
setInterval(() => {
  stats.maxPendingAcquires = Math.max(stats.maxPendingAcquires, pool.numPendingAcquires());
}, 50).unref();
// BENCH_BROTLI_QUALITY, BENCH_GZIP_LEVEL: compression levels other than the app's (compress.ts).
const level = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/web/dist');
const app = await buildApp({
  orm,
  bus,
  compression: {
    ...(level('BENCH_BROTLI_QUALITY') === undefined ? {} : { brotliQuality: level('BENCH_BROTLI_QUALITY') }),
    ...(level('BENCH_GZIP_LEVEL') === undefined ? {} : { gzipLevel: level('BENCH_GZIP_LEVEL') }),
  },
  config: {
    allowedOrigins: [],
    cookieSecure: false,
    trustProxy: false,
    rateLimitScale: 1_000_000, // limits stay on (and cost what they cost), just out of reach
    logLevel: 'silent',
    // The built web app, for the pages rendered on the server (`pnpm build` makes it); none: the
    // rendered runs of feed.bench.ts are skipped.
    webDist: existsSync(path.join(webDist, '..', 'dist-ssr', 'entry-server.js')) ? webDist : null,
  },
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_APP_PORT) });

const bare = Fastify({ logger: false });
let body = Buffer.from('[]'); // replaced by a real feed page before measuring (POST /bare-body)
bare.get('/bare', async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
bare.post('/bare-body', async (req) => {
  body = Buffer.from(JSON.stringify(req.body));
  return { ok: true };
});
const postIds = (
  await orm.em
    .fork()
    .execute<{ id: string }[]>(
      'select id from posts where removed_at is null order by created_at desc limit 200',
    )
).map((r) => r.id);
let next = 0;
bare.get('/one-query', async (_req, reply) => {
  const post = await findPostById(orm.em.fork(), postIds[next++ % postIds.length]!, null);
  if (!post) return reply.code(404).send({ error: 'Post not found' });
  return { post };
});
// POST /bench-profile/start and /bench-profile/stop {file}: a V8 CPU profile of this process
// over one phase only (BENCH_PHASE_PROF in mixed.bench.ts: the mix alone, without start-up and
// the other routes that BENCH_CPU_PROF's whole-process profile mixes in).
const inspector = new Session();
inspector.connect();
bare.post('/bench-profile/start', async () => {
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.start');
  return { ok: true };
});
bare.post<{ Body: { file: string } }>('/bench-profile/stop', async (req) => {
  const { profile } = await inspector.post('Profiler.stop');
  writeFileSync(req.body.file, JSON.stringify(profile));
  return { ok: true };
});
bare.get('/bench-stats', async () => stats);
bare.post('/bench-stats/reset', async () => {
  Object.assign(stats, { queries: 0, poolTimeouts: 0, maxPendingAcquires: 0 });
  return stats;
});
await bare.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_BARE_PORT) });
process.send?.('ready');

process.on('SIGTERM', async () => {
  await app.close();
  await bare.close();
  await bus.close();
  await orm.close();
  process.exit(0);
});
