/**
 * Mentions and tag pages across two real server processes on one database: a mention written
 * through A rings the bell of a client on B, and a tagged post written through A reaches the
 * tag page's subscription on B, while an untagged one and one by a blocked member do not.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive, Events, type LiveClient } from './live-client.js';
import { listeningAt, type ServerProcess, startServer, stopServer } from './ops-instances.js';
import { api, registerOver } from './over-http.js';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
const servers: ServerProcess[] = [];
const clients: LiveClient[] = [];
let a: string;
let b: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-tags-'));
  const env = {
    PORT: '0',
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    RATE_LIMIT_SCALE: '10',
  };
  servers.push(startServer(env), startServer(env));
  const [first, second] = await Promise.all(servers.map((s) => listeningAt(s)));
  if (!first || !second) throw new Error('two servers were to start');
  a = first;
  b = second;
}, 90_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => stopServer(s)));
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

let n = 0;
const register = (base: string) => {
  n += 1;
  return registerOver(base, `tags${n}${Math.random().toString(36).slice(2, 6)}`);
};

describe('mentions and tags on two instances', () => {
  it('a mention made through A rings the bell of a client on B', async () => {
    const author = await register(a);
    const mentioned = await register(b);
    const name = (await api(b, 'GET', '/api/auth/me', mentioned.cookie)).body.user.username as string;
    const socket = connectLive(b, { cookie: mentioned.cookie });
    clients.push(socket);
    const bell = new Events<{ id: string; data: { unreadCount: number } }>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    expect((await bell.next(5_000)).data.unreadCount).toBe(0);
    const made = await api(a, 'POST', '/api/posts', author.cookie, {
      content: `hello @${name.toUpperCase()}`,
    });
    expect(made.status).toBe(201);
    expect((await bell.next(2_000)).data.unreadCount).toBe(1);
    const list = await api(b, 'GET', '/api/notifications', mentioned.cookie);
    expect(list.body[0]).toMatchObject({
      type: 'mention',
      message: 'mentioned you',
      postId: made.body.post.id,
    });
  });

  it('a tagged post written through A reaches the tag page open on B; others do not', async () => {
    const tag = `live${Math.random().toString(36).slice(2, 7)}`;
    const viewer = await register(b);
    const writer = await register(a);
    const blocked = await register(a);
    expect((await api(b, 'POST', `/api/users/${blocked.id}/block`, viewer.cookie)).status).toBe(200);
    const socket = connectLive(b, { cookie: viewer.cookie });
    clients.push(socket);
    const page = new Events<{ id: string; data: { postId: string } }>();
    socket.client.tags.onNew.subscribe({ tag }, { onData: page.push, onError: page.fail });
    await new Promise((r) => setTimeout(r, 300)); // the subscription is listening
    await api(a, 'POST', '/api/posts', writer.cookie, { content: 'no tag here' });
    await api(a, 'POST', '/api/posts', blocked.cookie, { content: `#${tag} from a blocked member` });
    const made = await api(a, 'POST', '/api/posts', writer.cookie, { content: `#${tag.toUpperCase()} live` });
    expect((await page.next(2_000)).data.postId).toBe(made.body.post.id);
    expect(page.items).toHaveLength(1);
    // The page and counts on B after a reload agree.
    const posts = await api(b, 'GET', `/api/tags/${tag}/posts`, viewer.cookie);
    expect(posts.body.map((p: { id: string }) => p.id)).toEqual([made.body.post.id]);
    expect((await api(b, 'GET', `/api/tags/${tag}`)).body).toEqual({ tag, postsCount: 2, peopleCount: 2 });
  });
});
