/**
 * Several instances on one database, as `INSTANCES=2 npm start` runs them: two real server
 * processes (started by the real supervisor in main.ts) sharing a PostgreSQL, with the event bus
 * on LISTEN/NOTIFY between them. Every feature that crosses instances is checked here, on one
 * pair of processes: notifications, sessions, every kept read (cache-scenarios.ts), direct
 * messages, and posts.onChange leaving out posts hidden from a listener (hidden-changes.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BELL_WINDOW_MS, createPgEventBus } from '@cubes/api';
import { initReadOrm, type MikroORM } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheScenarios } from './cache-scenarios.js';
import { hiddenChangesScenario } from './hidden-changes.js';
import { connectLive, Events, type LiveClient } from './live-client.js';
import { freePorts, START_BOUND_MS, waitFor200 } from './ops-instances.js';
import { api, registerOver } from './over-http.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Polls `/api/health` until it answers 200. */
async function waitHealthy(url: string, timeoutMs: number): Promise<void> {
  await waitFor200(`${url}/api/health`, timeoutMs);
}

let supervisor: ChildProcess;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let a: string;
let b: string;
const output: string[] = [];
const clients: LiveClient[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-instances-'));
  const port = await freePorts(2);
  a = `http://127.0.0.1:${port}`;
  b = `http://127.0.0.1:${port + 1}`;
  supervisor = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      INSTANCES: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
      // Every scenario registers its own members from one address: room for them all.
      RATE_LIMIT_SCALE: '10',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  supervisor.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  supervisor.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  try {
    // A start takes seconds alone and passed 60 at a load average of 24 on two cores.
    await Promise.all([waitHealthy(a, START_BOUND_MS), waitHealthy(b, START_BOUND_MS)]);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${output.join('')}`);
  }
}, START_BOUND_MS + 30_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  if (supervisor.exitCode === null) {
    const exited = new Promise((resolve) => supervisor.once('exit', resolve));
    supervisor.kill('SIGTERM');
    await exited;
  }
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

let n = 0;
async function register(base: string) {
  n += 1;
  return registerOver(base, `multi${n}${Math.random().toString(36).slice(2, 6)}`);
}

type LiveEvent = { id: string; data: { type: string; message?: { id: string }; peerId?: string } };

let marker: Promise<{
  cookie: string;
  receiverId: string;
  bell: Events<{ data: { unreadCount: number } }>;
  following: boolean;
}> | null = null;
// Made before the first test: heardOnB then costs one follow or unfollow.
beforeAll(() => heardOnB(), 120_000);

/**
 * Resolves once B has heard the events of every write made through A so far. A follow (or its
 * undoing) between two members of its own, made through A after them, rings its receiver's bell
 * on B: its event leaves A by the same queue as the events A published before it, one statement
 * at a time in publish order (pg-event-bus.ts), after those a write's own statement sent at its
 * commit (the bus delivers in commit order), and an event's cache drops happen as it is
 * delivered. (A direct message would not do: its event leaves with its row, and could pass an
 * event still in A's queue.) Events coalesced in a window (`feed`, the likes' bells) are not
 * covered. No read of the tests' members shows it. B's kept answers live a second: read right
 * after this, a fresh answer is the drop's doing (on a loaded machine the second may be over too;
 * nothing fails).
 */
async function heardOnB(): Promise<void> {
  marker ??= (async () => {
    const sender = await register(a);
    const receiver = await register(a);
    const socket = connectLive(b, { cookie: receiver.cookie });
    clients.push(socket);
    const bell = new Events<{ data: { unreadCount: number } }>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    expect((await bell.next()).data.unreadCount).toBe(0);
    return { cookie: sender.cookie, receiverId: receiver.id, bell, following: false };
  })();
  const state = await marker;
  state.following = !state.following;
  const toggled = await api(
    a,
    state.following ? 'POST' : 'DELETE',
    `/api/users/${state.receiverId}/follow`,
    state.cookie,
  );
  expect(toggled.status).toBe(200);
  expect((await state.bell.next()).data.unreadCount).toBe(state.following ? 1 : 0);
}

describe('two instances on one database', () => {
  it('delivers a like made through A to the notifications subscription of a client on B', async () => {
    const author = await register(a);
    const fan = await register(b);
    const post = await api(a, 'POST', '/api/posts', author.cookie, { content: 'across instances' });
    expect(post.status).toBe(201);

    const socket = connectLive(b, { cookie: author.cookie });
    clients.push(socket);
    const bell = new Events<{ id: string; data: { unreadCount: number } }>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    expect((await bell.next(5_000)).data.unreadCount).toBe(0);

    expect((await api(a, 'POST', `/api/posts/${post.body.post.id}/like`, fan.cookie)).status).toBe(200);
    // The bell rings at the end of the like's window (BELL_WINDOW_MS); generous for a busy machine.
    expect((await bell.next(BELL_WINDOW_MS + 5_000)).data.unreadCount).toBe(1);
  });

  it('joins a like made through A to the group a client on B sees: one unread item, two actors', async () => {
    const author = await register(a);
    const first = await register(b);
    const second = await register(a);
    const post = await api(a, 'POST', '/api/posts', author.cookie, { content: 'grouped across instances' });
    const postId = post.body.post.id as string;
    expect((await api(b, 'POST', `/api/posts/${postId}/like`, first.cookie)).status).toBe(200);

    const socket = connectLive(b, { cookie: author.cookie });
    clients.push(socket);
    const bell = new Events<{ id: string; data: { unreadCount: number; newestId: string | null } }>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    const before = (await bell.next(5_000)).data;
    expect(before.unreadCount).toBe(1);
    const listed = (await api(b, 'GET', '/api/notifications', author.cookie)).body; // kept on B now
    expect(listed.map((n: { actorsCount: number }) => n.actorsCount)).toEqual([1]);

    expect((await api(a, 'POST', `/api/posts/${postId}/like`, second.cookie)).status).toBe(200);
    // The bell rings with the group's new newest row; the count stays one group.
    const after = (await bell.next(BELL_WINDOW_MS + 5_000)).data;
    expect(after.unreadCount).toBe(1);
    expect(after.newestId).not.toBe(before.newestId);
    const grouped = (await api(b, 'GET', '/api/notifications', author.cookie)).body;
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).toMatchObject({ id: after.newestId, actorsCount: 2 });
    expect(grouped[0].actors.map((x: { id: string }) => x.id)).toEqual([second.id, first.id]);
    expect(grouped[0].groupKey).toBe(listed[0].groupKey);
    const everyone = await api(b, 'GET', `/api/notifications/${grouped[0].id}/actors`, author.cookie);
    expect(everyone.status).toBe(200);
    expect(everyone.body.map((x: { id: string }) => x.id)).toEqual([second.id, first.id]);
  });

  it('rings the bell on B once for many likes through A in one window, a like taken back included', async () => {
    const author = await register(a);
    const fans = await Promise.all([register(a), register(b), register(a), register(b), register(a)]);
    const taker = await register(b);
    const post = await api(a, 'POST', '/api/posts', author.cookie, { content: 'many likes' });
    const postId = post.body.post.id as string;

    // The bus as a third instance hears it.
    const listener = await createPgEventBus({ connectionString: db.url });
    let rings = 0;
    const marks = new Events<string>();
    const stops = [
      listener.on('notifications', (event) => {
        if (event.payload.recipientId === author.id) rings += 1;
      }),
      listener.on('cubeyStop', (event) => {
        if (event.local) marks.push(event.payload.messageId);
      }),
    ];
    try {
      const socket = connectLive(b, { cookie: author.cookie });
      clients.push(socket);
      const bell = new Events<{ id: string; data: { unreadCount: number; newestId: string | null } }>();
      socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
      expect((await bell.next(5_000)).data.unreadCount).toBe(0);

      const started = Date.now();
      const like = (cookie: string) => api(a, 'POST', `/api/posts/${postId}/like`, cookie);
      const answers = await Promise.all([
        ...fans.map((fan) => like(fan.cookie)),
        // Liked and taken back before the bell rings: its notification is gone when it does.
        like(taker.cookie).then(() => api(a, 'DELETE', `/api/posts/${postId}/like`, taker.cookie)),
      ]);
      const span = Date.now() - started;
      for (const answer of answers) expect(answer.status).toBe(200);

      // The likes are one group (issue #49): the bell shows one unread item whose newest row is
      // the last like's. A keeps no stale list of the author's (its likes dropped it).
      const onA = await api(a, 'GET', '/api/notifications', author.cookie);
      expect(onA.body).toHaveLength(1);
      expect(onA.body[0].actorsCount).toBe(fans.length);
      let state = (await bell.next(BELL_WINDOW_MS + 5_000)).data;
      while (state.newestId !== onA.body[0].id) state = (await bell.next(BELL_WINDOW_MS + 5_000)).data;
      expect(state.unreadCount).toBe(1);
      // An event of our own (a stop for no answer) after the bell showed them all: the events
      // committed before it reach this listener before it.
      await listener.publish('cubeyStop', { messageId: randomUUID() });
      await marks.next(5_000);
      // One per window the seven toggles spanned (one, unless the machine held them a window
      // apart), where every toggle sent its own before.
      expect(rings).toBeGreaterThanOrEqual(1);
      expect(rings).toBeLessThanOrEqual(Math.ceil(span / BELL_WINDOW_MS) + 1);
      expect(rings).toBeLessThan(fans.length + 2);
      const onB = (await api(b, 'GET', '/api/notifications', author.cookie)).body;
      expect(onB).toHaveLength(1);
      expect(onB[0].actorsCount).toBe(fans.length);
    } finally {
      for (const stop of stops) stop();
      await listener.close();
    }
  });

  it('refuses on B a session revoked through A once B hears of it (B had it cached, for 60 s)', async () => {
    const user = await register(a);
    expect((await api(b, 'GET', '/api/auth/me', user.cookie)).status).toBe(200); // cached on B now
    const socket = connectLive(b, { cookie: user.cookie });
    clients.push(socket);
    const bell = new Events<unknown>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    await bell.next(5_000);

    expect((await api(a, 'POST', '/api/auth/logout', user.cookie)).status).toBe(200);
    // The NOTIFY left with the logout's commit, before A answered. B closes the session's socket
    // as it hears it, and from then on refuses the cookie it kept: the very next request.
    await socket.closedWith(4401);
    const me = await api(b, 'GET', '/api/auth/me', user.cookie);
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('UNAUTHORIZED');
  });

  it('drops the first feed page cached on B when a post is made through A', async () => {
    const writer = await register(a);
    const before = await api(b, 'GET', '/api/posts/feed?limit=5');
    expect(before.status).toBe(200);
    const made = await api(a, 'POST', '/api/posts', writer.cookie, { content: 'fresh on B' });
    // Once B has heard it, the very next page has it (the kept page would have lived a second).
    await heardOnB();
    const ids = (await api(b, 'GET', '/api/posts/feed?limit=5')).body.map((p: { id: string }) => p.id);
    expect(ids[0]).toBe(made.body.post.id);
  });
});

describe('a member’s kept lists on two instances', () => {
  /** B's next answer once it has heard the writes made through A (B keeps a list a second). */
  async function soonOnB<T>(read: () => Promise<T>): Promise<T> {
    await heardOnB();
    return read();
  }

  it('drops the notifications, conversations and thread B keeps when A changes them', async () => {
    const author = await register(a);
    const fan = await register(b);
    const post = await api(a, 'POST', '/api/posts', author.cookie, { content: 'kept on B' });
    const bell = () => api(b, 'GET', '/api/notifications', author.cookie).then((r) => r.body as unknown[]);
    expect(await bell()).toEqual([]); // kept on B now
    // A comment's bell is its own event, sent at once (a like's comes batched: notification.bells.ts).
    const commented = await api(a, 'POST', `/api/posts/${post.body.post.id}/comments`, fan.cookie, {
      content: 'seen on B',
    });
    expect(commented.status).toBe(201);
    expect(await soonOnB(bell)).toHaveLength(1);

    const threadOnB = () =>
      api(b, 'GET', `/api/messages/${author.id}`, fan.cookie).then((r) => r.body as { content: string }[]);
    const conversationsOnB = () =>
      api(b, 'GET', '/api/messages/conversations', fan.cookie).then(
        (r) => r.body as { lastMessage: string }[],
      );
    expect(await threadOnB()).toEqual([]);
    expect(await conversationsOnB()).toEqual([]);
    expect((await api(a, 'GET', '/api/messages/conversations', author.cookie)).body).toEqual([]); // kept on A
    const sent = await api(a, 'POST', '/api/messages', author.cookie, {
      receiverId: fan.id,
      content: 'to B',
    });
    expect(sent.status).toBe(201);
    expect(await soonOnB(conversationsOnB)).toEqual([expect.objectContaining({ lastMessage: 'to B' })]);
    expect((await soonOnB(threadOnB)).map((m) => m.content)).toEqual(['to B']);
    // The sender's own list on A, sent from SQL on A: at once.
    const onA = await api(a, 'GET', '/api/messages/conversations', author.cookie);
    expect(onA.body).toEqual([expect.objectContaining({ lastMessage: 'to B' })]);
  });
});

describe('direct messages on two instances', () => {
  it('a message sent through A reaches a client of B, and the receipt made on B reaches A', async () => {
    const sender = await register(a);
    const receiver = await register(b);
    const onB = connectLive(b, { cookie: receiver.cookie });
    const onA = connectLive(a, { cookie: sender.cookie });
    clients.push(onA, onB);
    const atB = new Events<LiveEvent>();
    const atA = new Events<LiveEvent>();
    onB.client.messages.live.subscribe({}, { onData: atB.push, onError: atB.fail });
    onA.client.messages.live.subscribe({}, { onData: atA.push, onError: atA.fail });
    expect((await atB.next(5_000)).data.type).toBe('unread');
    expect((await atA.next(5_000)).data.type).toBe('unread');

    const sent = await api(a, 'POST', '/api/messages', sender.cookie, {
      receiverId: receiver.id,
      content: 'across',
    });
    expect(sent.status).toBe(201);
    const got = await atB.next();
    expect(got.data).toMatchObject({ type: 'message', message: { id: sent.body.id } });

    expect((await api(b, 'GET', `/api/messages/${sender.id}`, receiver.cookie)).status).toBe(200);
    expect((await api(b, 'POST', `/api/messages/${sender.id}/read`, receiver.cookie)).status).toBe(200);
    expect((await atA.next()).data.type).toBe('message'); // its own send
    expect((await atA.next()).data).toMatchObject({ type: 'read', peerId: receiver.id });
  });
});

/** The operator command, as `npm run admin -- make-moderator <username>` runs it, on the pair's database. */
function makeModerator(username: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/admin.ts', 'make-moderator', username], {
      cwd: serverDir,
      env: { ...process.env, DATABASE_URL: db.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

describe('moderation on two instances', () => {
  it('a suspension made on B ends the member’s sessions on A at once, and login is refused', async () => {
    const moderator = await register(b);
    const name = (await api(b, 'GET', '/api/auth/me', moderator.cookie)).body.user.username as string;
    const made = await makeModerator(name.toUpperCase());
    expect(made, made.out).toMatchObject({ code: 0 });
    expect(made.out).toContain(`${name} is now a moderator.`);
    expect((await makeModerator('no_such_member_here')).code).toBe(1);

    const member = await register(a);
    const email = `${(await api(a, 'GET', '/api/auth/me', member.cookie)).body.user.username}@example.com`;
    expect((await api(a, 'GET', '/api/auth/me', member.cookie)).status).toBe(200); // cached on A now
    const socket = connectLive(a, { cookie: member.cookie });
    const modSocket = connectLive(b, { cookie: moderator.cookie });
    clients.push(socket, modSocket);
    const bell = new Events<unknown>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    await bell.next(5_000);

    await modSocket.client.moderation.suspend.mutate({ userId: member.id, days: null, reason: 'Spam' });
    // A closes the member's socket as it hears of the suspension, and from then on refuses the
    // session it kept: the very next request.
    await socket.closedWith(4401);
    const me = await api(a, 'GET', '/api/auth/me', member.cookie);
    expect(me.status).toBe(401);

    for (const base of [a, b]) {
      const login = await api(base, 'POST', '/api/auth/login', undefined, { email, password: 'secret12' });
      expect(login.status).toBe(403);
      expect(login.body).toEqual({
        message: 'This account has been suspended',
        code: 'FORBIDDEN',
        reason: 'ACCOUNT_SUSPENDED',
      });
    }
    const log = await modSocket.client.moderation.log.query({});
    expect(log.items[0]).toMatchObject({ action: 'suspend', moderatorUsername: name, targetId: member.id });
    // A guard against a hang, not a timing: the operator command is a process of its own, which
    // took most of a minute to start with two CPU hogs on the busy machine.
  }, 180_000);
});

describe('posts.onChange on two instances', () => {
  it(
    'a listener on B hears nothing of a change made through A to a post hidden from them',
    () =>
      hiddenChangesScenario({
        writer: a,
        reader: b,
        makeModerator: async (username) => {
          const made = await makeModerator(username);
          expect(made, made.out).toMatchObject({ code: 0 });
        },
        clients,
      }),
    180_000, // a guard: it runs the operator command too (above)
  );
});

describe('every cache on B follows the writes made through A', () => {
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await initReadOrm({ clientUrl: db.url, poolMax: 2 });
  });
  afterAll(() => orm.close(true));

  /** A gallery medium written straight to the shared database (the gallery has no upload). */
  async function addMedium(creatorId: string): Promise<string> {
    const id = randomUUID();
    await orm.em.fork().execute(
      `insert into ai_media (id, type, title, image_url, width, height, creator_id, created_at)
         values (?, 'art', 'Kept', '/objects/demo/x.png', 640, 480, ?, now())`,
      [id, creatorId],
    );
    return id;
  }

  for (const [name, scenario] of Object.entries(cacheScenarios)) {
    // B reads once it has heard a later event: well inside each cache's own lifetime (1 s, and
    // 60 s for sessions) on an idle machine, so the event explains a fresh answer.
    it(name, () => scenario({ writer: a, reader: b, heard: heardOnB, addMedium }));
  }
});

describe('follows.onChange on two instances (issue #46, bug 5)', () => {
  it('a follow and an unfollow made through A reach the member’s socket on B, and B’s Following feed follows', async () => {
    const star = await register(a);
    const fan = await register(b);
    const post = await api(a, 'POST', '/api/posts', star.cookie, { content: 'seen once followed' });
    expect(post.status).toBe(201);
    const following = async () =>
      ((await api(b, 'GET', '/api/posts/feed?scope=following', fan.cookie)).body as { id: string }[]).map(
        (p) => p.id,
      );
    // B keeps the fan's first Following page: empty.
    expect(await following()).toEqual([]);

    const socket = connectLive(b, { cookie: fan.cookie });
    clients.push(socket);
    const follows = new Events<{ id: string }>();
    socket.client.follows.onChange.subscribe(
      {},
      { onData: follows.push, onError: follows.fail, onStarted: follows.start },
    );
    const first = await follows.next();
    await follows.started;

    expect((await api(a, 'POST', `/api/users/${star.id}/follow`, fan.cookie)).status).toBe(200);
    const followed = await follows.next();
    expect(followed.id).not.toBe(first.id);
    expect(await following()).toEqual([post.body.post.id]);

    expect((await api(a, 'DELETE', `/api/users/${star.id}/follow`, fan.cookie)).status).toBe(200);
    const unfollowed = await follows.next();
    // Following no one again: the same id as before the follow.
    expect(unfollowed.id).toBe(first.id);
    expect(await following()).toEqual([]);

    // A client that comes back with the id it had hears nothing until something changes.
    const again = connectLive(b, { cookie: fan.cookie });
    clients.push(again);
    const resumed = new Events<{ id: string }>();
    again.client.follows.onChange.subscribe(
      { lastEventId: unfollowed.id },
      { onData: resumed.push, onError: resumed.fail, onStarted: resumed.start },
    );
    await resumed.started;
    expect((await api(a, 'POST', `/api/users/${star.id}/follow`, fan.cookie)).status).toBe(200);
    expect((await resumed.next()).id).toBe(followed.id);
    expect(resumed.items).toHaveLength(1);
  }, 60_000);
});

describe('polls on two instances', () => {
  it('a vote through A reaches a feed open on B (posts.onChange), and B answers the new count', async () => {
    const author = await register(a);
    const voter = await register(a);
    const created = await api(a, 'POST', '/api/posts', author.cookie, {
      content: 'a poll on two instances',
      poll: { options: ['x', 'y'], expiresInMinutes: 5 },
    });
    expect(created.status).toBe(201);
    const postId = created.body.post.id as string;
    const socket = connectLive(b, { cookie: author.cookie });
    clients.push(socket);
    const changes = new Events<{ postId: string; kind: string }>();
    socket.client.posts.onChange.subscribe(undefined, {
      onStarted: changes.start,
      onData: changes.push,
      onError: changes.fail,
    });
    await changes.started;
    const voted = await api(a, 'POST', `/api/posts/${postId}/poll/votes`, voter.cookie, { choices: [1] });
    expect(voted.status).toBe(200);
    for (;;) {
      const change = await changes.next();
      if (change.postId === postId && change.kind === 'poll') break;
    }
    const seen = await api(b, 'GET', `/api/posts/${postId}`, author.cookie);
    expect(seen.body.post.poll.options.map((o: { votesCount: number }) => o.votesCount)).toEqual([0, 1]);
  });
});

describe('reposts on two instances', () => {
  it("a repost through A reaches the reposter's follower's Following feed kept on B, and its taking back too", async () => {
    const author = await register(a);
    const reposter = await register(a);
    const reader = await register(b);
    expect((await api(b, 'POST', `/api/users/${reposter.id}/follow`, reader.cookie)).status).toBe(200);
    const post = await api(a, 'POST', '/api/posts', author.cookie, { content: 'passed on across instances' });
    expect(post.status).toBe(201);
    const following = async () =>
      (
        (await api(b, 'GET', '/api/posts/feed?scope=following', reader.cookie)).body as {
          id: string;
          repostedBy: { id: string } | null;
        }[]
      ).map((p) => [p.id, p.repostedBy?.id ?? null]);
    // B keeps the reader's first Following page: empty.
    expect(await following()).toEqual([]);

    expect((await api(a, 'POST', `/api/posts/${post.body.post.id}/repost`, reposter.cookie)).status).toBe(
      200,
    );
    await heardOnB();
    expect(await following()).toEqual([[post.body.post.id, reposter.id]]);

    expect((await api(a, 'DELETE', `/api/posts/${post.body.post.id}/repost`, reposter.cookie)).status).toBe(
      200,
    );
    await heardOnB();
    expect(await following()).toEqual([]);
  });
});
