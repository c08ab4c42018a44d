/**
 * DATABASE_READ_URL on two databases: the "replica" is a second database that this test fills
 * differently from the primary (through an app of its own), so every answer shows which one it
 * was read from. Named heavy reads come from the replica; writes and the caller's own
 * read-your-writes paths stay on the primary.
 */
import { randomUUID } from 'node:crypto';
import { initReadOrm, type MikroORM } from '@cubes/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect } from 'vitest';
import { buildApp } from '../src/app.js';
import type { AppConfig } from '../src/env.js';
import { itWith } from './fixtures.js';
import { createPost, newUserInput, registerUser, type TestApp } from './harness.js';

let filler: FastifyInstance;
let replica: MikroORM;
let ghost: Awaited<ReturnType<typeof registerUser>>;
let alice: Awaited<ReturnType<typeof registerUser>>;

const config: AppConfig = {
  allowedOrigins: [],
  cookieSecure: false,
  trustProxy: false,
  rateLimitScale: 1000,
  logLevel: 'silent',
  webDist: null,
};

async function get(t: TestApp, url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
}

async function count(orm: MikroORM, sql: string, params: unknown[]): Promise<number> {
  const rows = await orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n ${sql}`, params);
  return rows[0]!.n;
}

async function addMedia(orm: MikroORM, creatorId: string, title: string, at: Date): Promise<void> {
  await orm.em.fork().execute(
    `insert into ai_media (id, type, title, image_url, width, height, creator_id, created_at)
       values (?, 'art', ?, '/objects/demo/x.png', 640, 480, ?, ?)`,
    [randomUUID(), title, creatorId, at],
  );
}

const it = itWith({ replica: true });
it.beforeAll(async ({ t }) => {
  replica = t.readOrm!;
  // What only the replica holds, written through the real app on the replica's database.
  filler = await buildApp({ orm: replica, config });
  ghost = await registerUser(filler, newUserInput('ghost'));
  await createPost(filler, ghost.cookie, 'quokka seen only on the replica');
  await addMedia(replica, ghost.user.id, 'Replica painting', new Date(Date.now() - 60_000));
  // Then the primary, through the app under test.
  alice = await registerUser(t.app, newUserInput('alice'));
  await createPost(t.app, alice.cookie, 'wombat on the primary, one');
  await createPost(t.app, alice.cookie, 'wombat on the primary, two');
  await addMedia(t.orm, alice.user.id, 'Primary painting new', new Date());
  await addMedia(t.orm, alice.user.id, 'Primary painting old', new Date(Date.now() - 30_000));
});

afterAll(async () => {
  await filler?.close();
});

describe('DATABASE_READ_URL: a read replica', () => {
  it('sends writes to the primary only', async ({ t }) => {
    expect(await count(t.orm, `from posts where content like 'wombat%'`, [])).toBe(2);
    expect(await count(replica, `from posts where content like 'wombat%'`, [])).toBe(0);
    expect(await count(t.orm, 'from users where id = ?', [alice.user.id])).toBe(1);
    expect(await count(replica, 'from users where id = ?', [alice.user.id])).toBe(0);
    const liked = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${(await get(t, '/api/posts/feed?limit=1')).json()[0].id}/like`,
      headers: { cookie: alice.cookie },
    });
    expect(liked.statusCode, liked.body).toBe(200);
    expect(await count(t.orm, 'from likes where user_id = ?', [alice.user.id])).toBe(1);
    expect(await count(replica, 'from likes', [])).toBe(0);
  });

  it('reads the feed’s first page from the primary and later pages from the replica', async ({ t }) => {
    for (const cookie of [undefined, alice.cookie]) {
      const first = await get(t, '/api/posts/feed?limit=1', cookie);
      expect(first.statusCode).toBe(200);
      expect(first.json().map((p: { content: string }) => p.content)).toEqual(['wombat on the primary, two']);
      const cursor = String(first.headers['x-next-cursor']);
      const next = await get(t, `/api/posts/feed?limit=5&cursor=${encodeURIComponent(cursor)}`, cookie);
      expect(next.statusCode).toBe(200);
      // 'wombat … one' is older than the cursor, but the replica never had it.
      expect(next.json().map((p: { content: string }) => p.content)).toEqual([
        'quokka seen only on the replica',
      ]);
    }
  });

  it('searches the replica', async ({ t }) => {
    for (const cookie of [undefined, alice.cookie]) {
      const found = await get(t, '/api/search?q=quokka', cookie);
      expect(found.statusCode).toBe(200);
      expect(found.json().posts.map((p: { content: string }) => p.content)).toEqual([
        'quokka seen only on the replica',
      ]);
      expect((await get(t, '/api/search?q=wombat', cookie)).json().posts).toEqual([]);
    }
  });

  it('reads other people’s profiles from the replica and the viewer’s own from the primary', async ({
    t,
  }) => {
    const other = await get(t, `/api/users/by-username/${ghost.user.username}`, alice.cookie);
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().stats.postsCount).toBe(1);
    expect((await get(t, `/api/users/by-username/${alice.user.username}`)).statusCode).toBe(404);
    const own = await get(t, `/api/users/by-username/${alice.user.username}`, alice.cookie);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().stats.postsCount).toBe(2);

    expect((await get(t, `/api/users/${ghost.user.id}/stats`)).json().postsCount).toBe(1);
  });

  it('reads where the viewer stands with someone from the primary, their profile from the replica', async ({
    t,
  }) => {
    // bob is on both databases (as a replica would have him), alice follows and mutes him on the
    // primary only: the replica's profile says no one follows him, the primary says alice does.
    const bob = await registerUser(t.app, newUserInput('bob'));
    await replica.em
      .fork()
      .execute(
        `insert into users (id, username, display_name, email, password_hash, bio, created_at) values (?, ?, 'Bob', ?, 'x', 'bio on the replica', now())`,
        [bob.user.id, bob.user.username, `${bob.user.username}@replica.test`],
      );
    for (const url of [`/api/users/${bob.user.id}/follow`, `/api/users/${bob.user.id}/mute`]) {
      const res = await t.app.inject({ method: 'POST', url, headers: { cookie: alice.cookie } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const profile = await get(t, `/api/users/by-username/${bob.user.username}`, alice.cookie);
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json()).toMatchObject({
      user: { bio: 'bio on the replica' },
      stats: { followersCount: 0 },
      isFollowing: true,
      isMuting: true,
      isBlocking: false,
      isBlockedBy: false,
    });
  });

  it('reads a profile’s first page of posts from the primary, later pages of others’ from the replica', async ({
    t,
  }) => {
    const contents = (res: { json(): unknown }) =>
      (res.json() as { content: string }[]).map((p) => p.content);
    // The first page is kept in memory, as the feed's: read on the primary, which a write drops.
    const first = await get(t, `/api/users/${alice.user.id}/posts?limit=1`);
    expect(first.statusCode, first.body).toBe(200);
    expect(contents(first)).toEqual(['wombat on the primary, two']);
    expect((await get(t, `/api/users/${ghost.user.id}/posts`)).statusCode).toBe(404); // not on the primary
    const next = `/api/users/${alice.user.id}/posts?limit=5&cursor=${encodeURIComponent(String(first.headers['x-next-cursor']))}`;
    expect((await get(t, next)).statusCode).toBe(404); // the replica never had alice
    expect(contents(await get(t, next, alice.cookie))).toEqual(['wombat on the primary, one']); // her own: the primary
  });

  it('reads the gallery’s first page from the primary and later pages from the replica', async ({ t }) => {
    const first = await get(t, '/api/gallery?limit=1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().items.map((i: { title: string }) => i.title)).toEqual(['Primary painting new']);
    const cursor = String(first.headers['x-next-cursor']);
    const next = await get(t, `/api/gallery?limit=5&cursor=${encodeURIComponent(cursor)}`);
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().items.map((i: { title: string }) => i.title)).toEqual(['Replica painting']);
  });

  it('answers 503 for the replica’s reads while it is down, and serves the rest from the primary', async ({
    t,
  }) => {
    // Nothing listens on port 1: every connection to this "replica" is refused.
    const down = await initReadOrm(
      { clientUrl: 'postgresql://cubes:x@127.0.0.1:1/cubes', poolMax: 1 },
      { connect: false },
    );
    const app = await buildApp({ orm: t.orm, readOrm: down, config });
    try {
      const search = await app.inject({ method: 'GET', url: '/api/search?q=quokka' });
      expect(search.statusCode, search.body).toBe(503);
      expect(search.json()).toEqual({
        message: expect.any(String),
        code: 'SERVICE_UNAVAILABLE',
        reason: 'DATABASE_UNAVAILABLE',
      });
      const feed = await app.inject({ method: 'GET', url: '/api/posts/feed?limit=1' });
      expect(feed.statusCode, feed.body).toBe(200);
      const own = await app.inject({
        method: 'GET',
        url: `/api/users/by-username/${alice.user.username}`,
        headers: { cookie: alice.cookie },
      });
      expect(own.statusCode, own.body).toBe(200);
    } finally {
      await app.close();
      await down.close(true);
    }
  });
});
