/**
 * An event a write sends in its own transaction (`bus.publish(topic, payload, tx)`, `notifySql`)
 * reaches this process's live subscriptions through the bus at the commit, and may do so before
 * the writer's `sentWithWrite` runs (the LISTEN connection can be read before the commit's own
 * answer). A client told of a deleted comment that reads the comments at once must not get them
 * from a cache that has not heard of it yet: this process's caches hear such an event when the
 * bus delivers it too. The write here stops short of `sentWithWrite`, as a writer whose commit
 * answer has not been read yet.
 */
import { createPgEventBus, type EventBus } from '@cubes/api';
import { initOrm, type MikroORM } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { api, registerOver } from './over-http.js';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
let bus: EventBus;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm({ clientUrl: db.url, poolMax: 5 });
  bus = await createPgEventBus({ connectionString: db.url });
  app = await buildApp({
    orm,
    bus,
    config: {
      allowedOrigins: [],
      cookieSecure: false,
      trustProxy: false,
      rateLimitScale: 1000,
      logLevel: 'silent',
      webDist: null,
    },
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
  await bus?.close();
  await orm?.close(true);
  await db?.drop();
});

afterEach(() => {
  vi.useRealTimers();
});

it('a comment deleted with its event in the transaction is gone from the next read once the event is here', async () => {
  const author = await registerOver(base, `wwauthor${Date.now().toString(36)}`);
  const reader = await registerOver(base, `wwreader${Date.now().toString(36)}`);
  const made = await api(base, 'POST', '/api/posts', author.cookie, { content: 'kept comments' });
  const postId = made.body.post.id as string;
  const comment = await api(base, 'POST', `/api/posts/${postId}/comments`, reader.cookie, {
    content: 'First!',
  });
  expect(comment.status).toBe(201);

  // The clock stands still: the kept first page stays within its lifetime whatever the machine's speed.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  const read = async () =>
    (await api(base, 'GET', `/api/posts/${postId}/comments`, reader.cookie)).body as { id: string }[];
  expect(await read()).toHaveLength(1);
  expect(await read()).toHaveLength(1); // kept now

  // The write and its event in one transaction, as comments.delete sends them.
  const heard = new Promise<void>((resolve) => {
    const stop = bus.on('postChanges', (event) => {
      if (event.payload.postId !== postId) return;
      stop();
      resolve();
    });
  });
  await orm.em.fork().transactional(async (em) => {
    await em.execute('delete from comments where id = ?', [comment.body.id]);
    await em.execute('update posts set comments_count = comments_count - 1 where id = ?', [postId]);
    await bus.publish('postChanges', { postId, kind: 'comments', authorId: author.id, hidden: false }, em);
  });
  await heard;

  expect(await read()).toEqual([]);
});
