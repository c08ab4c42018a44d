/**
 * Readiness against liveness in one process, on a real PostgreSQL and the real LISTEN/NOTIFY bus:
 * each check failing on its own turns /api/ready into a 503 naming it, while /api/health stays
 * 200. (The database going away is in openapi.test.ts; the whole shutdown in ops.shutdown.test.ts.)
 */
import { createPgEventBus, type EventBus } from '@cubes/api';
import { initOrm, type MikroORM } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
let bus: EventBus;
let app: FastifyInstance;
let shuttingDown = false;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm({ clientUrl: db.url, poolMax: 3 });
  bus = await createPgEventBus({ connectionString: db.url });
  app = await buildApp({
    orm,
    bus,
    shuttingDown: () => shuttingDown,
    config: {
      allowedOrigins: [],
      cookieSecure: false,
      trustProxy: false,
      rateLimitScale: 1000,
      logLevel: 'silent',
      webDist: null,
    },
  });
}, 60_000);

afterAll(async () => {
  await app.close();
  await bus.close();
  await orm.close();
  await db.drop();
});

async function get(url: string) {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json(), connection: res.headers.connection };
}

describe('readiness and liveness', () => {
  it('is ready with every check passing', async () => {
    expect(await get('/api/ready')).toMatchObject({ status: 200, body: { ready: true, failed: [] } });
  });

  it('is not ready while shutting down, and says so on every answer', async () => {
    shuttingDown = true;
    try {
      const ready = await get('/api/ready');
      expect(ready).toMatchObject({
        status: 503,
        body: { ready: false, checks: { running: false }, failed: ['running'] },
      });
      // Answers made while draining close their connection behind them.
      expect(ready.connection).toBe('close');
      expect(await get('/api/health')).toMatchObject({ status: 200, body: { ok: true } });
    } finally {
      shuttingDown = false;
    }
    expect((await get('/api/ready')).status).toBe(200);
  });

  it('is not ready once the bus stops listening; still alive', async () => {
    await bus.close();
    expect(await get('/api/ready')).toMatchObject({
      status: 503,
      body: { ready: false, checks: { bus: false, database: true }, failed: ['bus'] },
    });
    expect(await get('/api/health')).toMatchObject({ status: 200, body: { ok: true } });
  });
});
