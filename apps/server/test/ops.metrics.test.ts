/**
 * Metrics and readiness on two real instances (`INSTANCES=2`, the supervisor in main.ts): each
 * serves Prometheus text on its own 127.0.0.1 listener, METRICS_PORT and METRICS_PORT+1, with
 * the named metrics after real traffic (HTTP by route pattern, the pool, the bus across the two,
 * sockets and subscriptions, a Cubey answer, Node's defaults); the public ports never serve them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive, Events, type LiveClient } from './live-client.js';
import {
  freePorts,
  labelValues,
  type ServerProcess,
  sample,
  startServer,
  stopServer,
  waitFor200,
} from './ops-instances.js';
import { api, registerOver } from './over-http.js';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let supervisor: ServerProcess;
let a: string;
let b: string;
let metricsA: string;
let metricsB: string;
const clients: LiveClient[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-ops-metrics-'));
  const port = await freePorts(2);
  const metricsPort = await freePorts(2);
  a = `http://127.0.0.1:${port}`;
  b = `http://127.0.0.1:${port + 1}`;
  metricsA = `http://127.0.0.1:${metricsPort}/metrics`;
  metricsB = `http://127.0.0.1:${metricsPort + 1}/metrics`;
  supervisor = startServer({
    INSTANCES: '2',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    RATE_LIMIT_SCALE: '10',
    CUBEY_OFFLINE_DELAY_MS: '0',
  });
  await Promise.all([
    waitFor200(`${a}/api/ready`, 150_000, supervisor.output),
    waitFor200(`${b}/api/ready`, 150_000, supervisor.output),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await stopServer(supervisor);
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

describe('metrics on two instances', () => {
  it('are served on METRICS_PORT and METRICS_PORT+1 with the named metrics after traffic', async () => {
    const author = await registerOver(a, `met${Date.now().toString(36)}`);
    const reader = await registerOver(b, `mer${Date.now().toString(36)}`);
    const post = await api(a, 'POST', '/api/posts', author.cookie, { content: 'measured' });
    expect(post.status).toBe(201);
    expect(
      (await api(a, 'PATCH', `/api/posts/${post.body.post.id}`, author.cookie, { content: 'edited' })).status,
    ).toBe(200);
    expect(
      (
        await api(a, 'PATCH', '/api/posts/00000000-0000-4000-8000-000000000000', author.cookie, {
          content: 'x',
        })
      ).status,
    ).toBe(404);
    expect((await fetch(`${a}/trpc/health.check`)).status).toBe(200);
    expect((await fetch(`${a}/api/no/such/${post.body.post.id}`)).status).toBe(404);

    // A socket on B with a live subscription; a message sent through A reaches it over the bus.
    const live = connectLive(b, { cookie: reader.cookie });
    clients.push(live);
    const events = new Events<{ data: { type: string } }>();
    live.client.messages.live.subscribe({}, { onData: events.push, onError: events.fail });
    expect((await events.next(5_000)).data.type).toBe('unread');
    const sent = await api(a, 'POST', '/api/messages', author.cookie, {
      receiverId: reader.id,
      content: 'hi',
    });
    expect(sent.status).toBe(201);
    expect((await events.next(5_000)).data.type).toBe('message');

    // One whole Cubey answer (the offline assistant) on A.
    const chat = await api(a, 'POST', '/api/cubey/chat', author.cookie, { message: 'Hello Cubey' });
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);

    const textA = await scrape(metricsA);
    const textB = await scrape(metricsB);

    // HTTP: by route pattern and status, never a raw URL or id.
    const h = 'cubes_http_request_duration_seconds_count';
    expect(sample(textA, h, { method: 'POST', route: '/api/posts', status: '201' })).toBe(1);
    expect(sample(textA, h, { method: 'PATCH', route: '/api/posts/:id', status: '200' })).toBe(1);
    expect(sample(textA, h, { method: 'PATCH', route: '/api/posts/:id', status: '404' })).toBe(1);
    expect(sample(textA, h, { route: '/trpc/health.check', status: '200' })).toBe(1);
    expect(sample(textA, h, { route: '(unmatched)', status: '404' })).toBeGreaterThanOrEqual(1);
    const routes = [...labelValues(textA, h, 'route'), ...labelValues(textB, h, 'route')];
    expect(routes.filter((r) => /[0-9a-f]{8}-[0-9a-f]{4}/.test(r))).toEqual([]);

    // The pool, on both.
    for (const text of [textA, textB]) {
      for (const name of ['cubes_db_pool_in_use', 'cubes_db_pool_idle', 'cubes_db_pool_waiting']) {
        expect(sample(text, name, { pool: 'primary' }), name).not.toBeNull();
      }
      expect(text).toContain('# TYPE cubes_db_pool_acquire_failures_total counter');
      expect(sample(text, 'cubes_bus_listening')).toBe(1);
      expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).not.toBeNull();
    }

    // The bus: A sent the message event, B heard it (with a delivery lag observed).
    expect(sample(textA, 'cubes_bus_events_sent_total', { topic: 'messages' })).toBeGreaterThanOrEqual(1);
    expect(sample(textB, 'cubes_bus_events_received_total', { topic: 'messages' })).toBeGreaterThanOrEqual(1);
    expect(
      sample(textB, 'cubes_bus_delivery_lag_seconds_count', { topic: 'messages' }),
    ).toBeGreaterThanOrEqual(1);
    expect(textB).toContain('# TYPE cubes_bus_reconnects_total counter');

    // Sockets and subscriptions: the one socket, on B only.
    expect(sample(textB, 'cubes_websockets_open')).toBe(1);
    expect(sample(textB, 'cubes_live_subscriptions')).toBe(1);
    expect(sample(textA, 'cubes_websockets_open')).toBe(0);

    // Cubey: the answer ran on A and ended done.
    expect(sample(textA, 'cubes_cubey_answers_total', { status: 'done' })).toBe(1);
    expect(sample(textA, 'cubes_cubey_answers_running')).toBe(0);
    expect(sample(textA, 'cubes_cubey_tokens_total')).toBeGreaterThan(0);
  });

  it('never serves metrics on the public ports; the metrics listener has nothing else', async () => {
    for (const base of [a, b]) {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('# TYPE');
    }
    expect((await fetch(metricsA.replace('/metrics', '/api/health'))).status).toBe(404);
  });

  it('answers liveness and readiness on both instances', async () => {
    for (const base of [a, b]) {
      expect(await (await fetch(`${base}/api/health`)).json()).toEqual({ ok: true });
      const ready = await fetch(`${base}/api/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ready: true, failed: [] });
    }
  });
});
