/**
 * The benchmark's server process: the real app (on BENCH_APP_PORT) and a bare Fastify route
 * (on BENCH_BARE_PORT) in one process, so both run under the same conditions. The bare route
 * answers a fixed JSON body: a copy of a real feed page, encoded once to a Buffer as the app's
 * cached page is, so both send the same bytes the same way.
 */
import { createPgEventBus } from '@cubes/api';
import { initOrm } from '@cubes/db';
import { buildApp } from '@cubes/server';
import Fastify from 'fastify';

const url = process.env.BENCH_DATABASE_URL!;
const orm = await initOrm({ clientUrl: url, poolMax: 20 });
// The event bus on PostgreSQL, as in production: each write's NOTIFY is part of what it costs.
const bus = await createPgEventBus({ connectionString: url });
const app = await buildApp({
  orm,
  bus,
  config: {
    allowedOrigins: [],
    cookieSecure: false,
    trustProxy: false,
    rateLimitScale: 1_000_000, // limits stay on (and cost what they cost), just out of reach
    logLevel: 'silent',
    webDist: null,
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
await bare.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_BARE_PORT) });
process.send?.('ready');

process.on('SIGTERM', async () => {
  await app.close();
  await bare.close();
  await bus.close();
  await orm.close();
  process.exit(0);
});
