/**
 * The event bus on a real PostgreSQL (LISTEN/NOTIFY between two buses, as between two
 * instances) and in memory; a listener connection killed by the server comes back by itself.
 */
import { createTestDatabase } from '@cubes/db/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BusEvent, createMemoryEventBus, type EventBus, type Topic } from './event-bus.js';
import { createPgEventBus } from './pg-event-bus.js';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

function collect(bus: EventBus, topic: Topic): BusEvent[] {
  const seen: BusEvent[] = [];
  bus.on(topic, (event) => seen.push(event));
  return seen;
}

async function until(check: () => boolean, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('PostgreSQL event bus', () => {
  it('delivers to every bus on the database, itself included, and marks its own events local', async () => {
    const one = await createPgEventBus({ connectionString: db.url });
    const two = await createPgEventBus({ connectionString: db.url });
    try {
      const atOne = collect(one, 'posts');
      const atTwo = collect(two, 'posts');
      await one.publish('posts', { postId: 'p1', authorId: 'u1' });
      await until(() => atOne.length === 1 && atTwo.length === 1);
      expect(atOne[0]).toEqual({
        topic: 'posts',
        payload: { postId: 'p1', authorId: 'u1' },
        local: true,
        withWrite: false,
      });
      expect(atTwo[0]).toEqual({
        topic: 'posts',
        payload: { postId: 'p1', authorId: 'u1' },
        local: false,
        withWrite: false,
      });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('refuses a payload over the NOTIFY limit instead of sending half of it', async () => {
    const bus = await createPgEventBus({ connectionString: db.url });
    try {
      await expect(bus.publish('posts', { postId: 'x'.repeat(9_000), authorId: 'u' })).rejects.toThrow(
        /too large/,
      );
    } finally {
      await bus.close();
    }
  });

  it('reconnects its listener after the server drops it, and says so', async () => {
    const errors: string[] = [];
    const bus = await createPgEventBus({
      connectionString: db.url,
      onError: (message) => errors.push(message),
    });
    try {
      let reconnects = 0;
      bus.onReconnect(() => {
        reconnects += 1;
      });
      const seen = collect(bus, 'feed');
      const admin = new pg.Client({ connectionString: db.url });
      await admin.connect();
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'cubes-events-listen' and datname = current_database()`,
      );
      await admin.end();
      await until(() => reconnects === 1, 5_000);
      expect(errors.length).toBeGreaterThan(0);
      await bus.publish('feed', {});
      await until(() => seen.length === 1);
    } finally {
      await bus.close();
    }
  });

  it('sends the events of one turn together: every one arrives, identical ones too, in order', async () => {
    const one = await createPgEventBus({ connectionString: db.url });
    const two = await createPgEventBus({ connectionString: db.url });
    // The statements the buses send through their pools (the listener is a Client, not counted).
    const query = vi.spyOn(pg.Pool.prototype, 'query');
    try {
      const atTwo = collect(two, 'notifications');
      // 300 events in one turn (more than one statement takes): 200, and the last 50 twice more.
      const ids = Array.from({ length: 200 }, (_, i) => `r${i}`);
      const order = [...ids, ...ids.slice(150), ...ids.slice(150)];
      await Promise.all(order.map((recipientId) => one.publish('notifications', { recipientId })));
      await until(() => atTwo.length === 300);
      expect(atTwo.map((e) => (e.payload as { recipientId: string }).recipientId)).toEqual(order);
      // Three statements of 100 events, one after the other (each NOTIFY was its own).
      const sends = query.mock.calls.filter(([text]) => String(text).includes('pg_notify'));
      expect(sends.length).toBe(3);
    } finally {
      query.mockRestore();
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('still sends what was published just before it closes', async () => {
    const one = await createPgEventBus({ connectionString: db.url });
    const two = await createPgEventBus({ connectionString: db.url });
    try {
      const atTwo = collect(two, 'feed');
      const sending = Promise.all([one.publish('feed', {}), one.publish('feed', {})]);
      await one.close();
      await sending;
      await until(() => atTwo.length === 2);
    } finally {
      await two.close();
    }
  });

  it('feeds an async iterable that ends when its signal aborts', async () => {
    const bus = await createPgEventBus({ connectionString: db.url });
    try {
      const abort = new AbortController();
      const received: string[] = [];
      const reading = (async () => {
        for await (const event of bus.subscribe('notifications', { signal: abort.signal })) {
          received.push(event.recipientId);
          if (received.length === 2) abort.abort();
        }
      })();
      // Subscribed from the call on: events published right after are not lost.
      await bus.publish('notifications', { recipientId: 'a' });
      await bus.publish('notifications', { recipientId: 'b' });
      await reading;
      expect(received).toEqual(['a', 'b']);
    } finally {
      await bus.close();
    }
  });
});

describe('memory event bus', () => {
  it('hears a keyed subscription only for its key, and from the moment of the call', async () => {
    const bus = createMemoryEventBus();
    const abort = new AbortController();
    const mine = bus.subscribe('notifications', { signal: abort.signal, key: 'me' });
    // Published before the first read: still delivered.
    await bus.publish('notifications', { recipientId: 'someone-else' });
    await bus.publish('notifications', { recipientId: 'me' });
    const iterator = mine[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ recipientId: 'me' });
    abort.abort();
    expect((await iterator.next()).done).toBe(true);
  });

  it("delivers asynchronously, never inside the publisher's call", async () => {
    const bus = createMemoryEventBus();
    const seen = collect(bus, 'feed');
    await bus.publish('feed', {});
    expect(seen).toHaveLength(0);
    await until(() => seen.length === 1);
    expect(seen[0]!.local).toBe(true);
  });

  it('keeps delivering to the other listeners when one throws', async () => {
    const bus = createMemoryEventBus();
    bus.on('feed', () => {
      throw new Error('boom');
    });
    const seen = collect(bus, 'feed');
    await bus.publish('feed', {});
    await until(() => seen.length === 1);
  });
});
