/**
 * Cubey across two server instances on one PostgreSQL, each with its own LISTEN/NOTIFY event bus
 * (as `INSTANCES=2` runs them): an answer generated on one instance is followed live from the
 * other, from the middle, whole and exactly once, and Stop sent to the other instance ends it.
 */

import type { AnswerEvent } from '@cubes/api';
import { createPgEventBus, type EventBus } from '@cubes/api';
import { initOrm, type MikroORM } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { registerUser } from './harness.js';
import { connectLive, Events, type LiveClient, waitFor } from './live-client.js';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
const instances: { app: FastifyInstance; orm: MikroORM; bus: EventBus; base: string }[] = [];
const clients: LiveClient[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  for (let i = 0; i < 2; i += 1) {
    const orm = await initOrm({ clientUrl: db.url, poolMax: 5 });
    const bus = await createPgEventBus({ connectionString: db.url });
    const app = await buildApp({
      orm,
      bus,
      config: {
        allowedOrigins: [],
        cookieSecure: false,
        trustProxy: false,
        rateLimitScale: 1000,
        logLevel: 'silent',
        webDist: null,
        cubey: { offlineDelayMs: 20, flushMs: 60, flushBytes: 80 },
      },
    });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    instances.push({ app, orm, bus, base });
  }
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const { app, orm, bus } of instances) {
    await app.close();
    await bus.close();
    await orm.close(true);
  }
  await db.drop();
});

function follow(base: string, cookie: string, messageId: string) {
  const client = connectLive(base, { cookie });
  clients.push(client);
  const events = new Events<AnswerEvent>();
  client.client.cubey.onAnswer.subscribe(
    { messageId },
    { onData: (e) => events.push((e as { data: AnswerEvent }).data), onError: events.fail },
  );
  return {
    client,
    events,
    text: () => events.items.map((e) => e.delta).join(''),
    final: () => events.items.find((e) => e.status !== 'streaming'),
  };
}

describe('Cubey on two instances', () => {
  it('follows an answer from the other instance, and stops it from there', async () => {
    const [a, b] = instances;
    const { cookie } = await registerUser(a!.app);
    const started = await a!.app.inject({
      method: 'POST',
      url: '/trpc/cubey.send',
      headers: { cookie, 'content-type': 'application/json' },
      payload: { json: { message: 'Who are you?' } },
    });
    const reply = started.json().result.data.json.reply as { id: string };

    const onA = follow(a!.base, cookie, reply.id);
    await waitFor(() => onA.text().length > 60, 5000, 'the first words on A');
    // A tab on the other instance joins in the middle.
    const onB = follow(b!.base, cookie, reply.id);
    await waitFor(
      () => onB.text().length > onA.text().length - 1 && onB.text().length > 100,
      5000,
      'B catching up',
    );
    expect(onA.text().startsWith(onB.text()) || onB.text().startsWith(onA.text())).toBe(true);

    // Stop, sent to B: the generation runs on A and hears it on the bus.
    const stop = await b!.app.inject({
      method: 'POST',
      url: '/trpc/cubey.stop',
      headers: { cookie, 'content-type': 'application/json' },
      payload: { json: { messageId: reply.id } },
    });
    expect(stop.json().result.data.json).toEqual({ stopped: true });
    await waitFor(() => onA.final() !== undefined && onB.final() !== undefined, 5000, 'the stop on both');
    expect(onA.final()!.status).toBe('stopped');
    expect(onB.final()!.status).toBe('stopped');

    const [row] = await b!.orm.em
      .fork()
      .execute<{ content: string; status: string }[]>(
        'select content, status from chat_messages where id = ?',
        [reply.id],
      );
    expect(row!.status).toBe('stopped');
    expect(onA.text()).toBe(row!.content);
    expect(onB.text()).toBe(row!.content);
    expect(row!.content).not.toContain('How do messages work?');
  });
});
