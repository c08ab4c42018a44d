/**
 * Web push across two real server processes (main.ts) on one database, each with its job runner
 * and a shared DATA_DIR: both serve the same VAPID key (generated once into DATA_DIR/vapid.json),
 * a like made on one instance to a member subscribed on the other is pushed exactly once through
 * the job queue (also where that instance had learnt she had no browser, before she subscribed), and a subscription expired at the push service (410) is deleted by whichever
 * instance's send job meets it.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { initOrm } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectLive, Events, MIN_WAIT_MS } from './live-client.js';
import { listeningAt, type ServerProcess, START_BOUND_MS, startServer, stopServer } from './ops-instances.js';
import { api, registerOver } from './over-http.js';
import { type PushService, startPushService } from './push-service.js';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let service: PushService;
const servers: ServerProcess[] = [];
const bases: string[] = [];

/** The pushes the subscription received, once there are at least `count` (polled, with a generous bound). */
/** The pushes `clientHash` has had that `keep` keeps, once there are `count` of them. */
async function received(
  clientHash: string,
  count: number,
  keep: (push: { kind?: string; who?: string }) => boolean = () => true,
): Promise<unknown[]> {
  return vi.waitFor(
    async () => {
      const got = (await service.received(clientHash))
        .map((m) => JSON.parse(m) as { kind?: string; who?: string })
        .filter(keep);
      if (got.length < count) throw new Error(`${got.length} of ${count} pushes`);
      return got;
    },
    { timeout: MIN_WAIT_MS, interval: 100 },
  );
}

async function start(): Promise<string> {
  const server = startServer({
    PORT: '0',
    METRICS_PORT: '0',
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    PUSH_ALLOW_PRIVATE_ENDPOINTS: '1',
    LOG_LEVEL: 'info',
    JOBS_POLL_SECONDS: '0.5',
    JOBS_MAINTENANCE_SECONDS: '1',
  });
  servers.push(server);
  const base = await listeningAt(server);
  bases.push(base);
  return base;
}

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-push-'));
  service = await startPushService();
  // One after the other: the first applies the migrations.
  await start();
  await start();
}, 2 * START_BOUND_MS);

afterAll(async () => {
  for (const server of servers) await stopServer(server);
  await service?.close();
  await db?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('push on two instances', () => {
  it('shares one VAPID key through DATA_DIR, pushes a like once, and drops a 410 subscription', async () => {
    const [a, b] = bases as [string, string];
    const keyA = (await api(a, 'GET', '/api/push/key')).body.publicKey as string;
    const keyB = (await api(b, 'GET', '/api/push/key')).body.publicKey as string;
    expect(keyA).toBe(keyB);
    expect((await stat(path.join(dataDir, 'vapid.json'))).mode & 0o777).toBe(0o600);

    const suffix = Math.random().toString(36).slice(2, 7);
    const alice = await registerOver(a, `alice${suffix}`);
    const bob = await registerOver(b, `bob${suffix}`);
    // b's bus in order: a live client of b that hears a post made after an event has heard that event.
    const onB = connectLive(b, { cookie: bob.cookie });
    const postsOnB = new Events<{ data: { postId: string } }>();
    onB.client.posts.onNew.subscribe(
      {},
      {
        onStarted: postsOnB.start,
        onData: (e) => postsOnB.push(e as { data: { postId: string } }),
        onError: postsOnB.fail,
      },
    );
    await postsOnB.started;
    // Before Alice subscribes, b learns that no browser of hers waits (push.reach.ts keeps that):
    // the message's event (committed before b answered) reaches b's bus before her subscription's...
    const early = await api(b, 'POST', '/api/messages', bob.cookie, { receiverId: alice.id, content: 'hi' });
    expect(early.status).toBe(201);
    const sub = await service.subscribe(keyA);
    const saved = await api(a, 'POST', '/api/push/subscriptions', alice.cookie, {
      endpoint: sub.endpoint,
      keys: sub.keys,
    });
    expect(saved.status).toBe(201);
    // ...and her subscription on a tells b over the bus, so b's next event for her is pushed: b has
    // heard it once it has heard of a post made after it.
    const created = await api(a, 'POST', '/api/posts', alice.cookie, { content: 'across instances' });
    expect(created.status).toBe(201);
    const postId = created.body.post.id as string;
    while ((await postsOnB.next()).data.postId !== postId);
    await onB.close();

    // The early message's fan-out runs as a job: on a busy machine it can run after her
    // subscription exists, and then (rightly) pushes it. What follows counts the other pushes.
    const notEarly = (push: { kind?: string; who?: string }) =>
      !(push.kind === 'message' && push.who === `bob${suffix}`);
    // Bob likes on b; the fan-out and the send run on whichever instance's runner takes them.
    expect((await api(b, 'POST', `/api/posts/${postId}/like`, bob.cookie)).status).toBe(200);
    expect(await received(sub.clientHash, 1, notEarly)).toEqual([
      {
        kind: 'like',
        who: `bob${suffix}`,
        name: `bob${suffix}`,
        snippet: null,
        lang: 'en',
        url: `/posts/${postId}`,
      },
    ]);
    // Both instances hear the event over LISTEN/NOTIFY; only the one that published it queues.
    // No second push: a follow made after it is the next push.
    const carol = await registerOver(b, `carol${suffix}`);
    expect((await api(b, 'POST', `/api/users/${alice.id}/follow`, carol.cookie)).status).toBe(200);
    expect((await received(sub.clientHash, 2, notEarly)).slice(1)).toEqual([
      {
        kind: 'follow',
        who: `carol${suffix}`,
        name: `carol${suffix}`,
        snippet: null,
        lang: 'en',
        url: `/profile/carol${suffix}`,
      },
    ]);

    const orm = await initOrm({ clientUrl: db.url, poolMax: 1 });
    const count = async () =>
      (
        await orm.em
          .fork()
          .execute<{ n: number }[]>('select count(*)::int as n from push_subscriptions where user_id = ?', [
            alice.id,
          ])
      )[0]!.n;
    expect(await count()).toBe(1);
    // Expired at the push service: the next send meets 410 and the subscription is deleted.
    await service.expire(sub.clientHash);
    expect((await api(b, 'POST', `/api/posts/${postId}/like`, carol.cookie)).status).toBe(200);
    try {
      await vi.waitFor(async () => expect(await count()).toBe(0), { timeout: MIN_WAIT_MS, interval: 200 });
    } finally {
      await orm.close(true);
    }
  }, 90_000);
});
