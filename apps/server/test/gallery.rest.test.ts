import { randomUUID } from 'node:crypto';
import { publicObject } from '@cubes/api/testing';
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { registerUser, type TestApp, UNKNOWN_ID } from './harness.js';

const TYPES = ['art', 'music', 'fun', 'video'] as const;

interface Item {
  id: string;
  type: string;
  title: string;
  favoritesCount: number;
  isFavorite: boolean;
  createdAt: string;
}

/** Media rows written directly: the gallery has no upload endpoint (items come from the seed). */
async function addMedia(t: TestApp, creatorId: string, count: number, start = Date.now()): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = randomUUID();
    ids.push(id);
    await t.orm.em.fork().execute(
      `insert into ai_media (id, type, title, image_url, width, height, creator_id, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        id,
        TYPES[i % 4],
        `Item ${i}`,
        '/objects/demo/x.png',
        640,
        480 + i,
        creatorId,
        new Date(start - i * 1000),
      ],
    );
  }
  return ids;
}

describe('REST /api/gallery', () => {
  it('lists items newest first with stats that agree with the items, and pages with no gaps', async ({
    t,
  }) => {
    const { user } = await registerUser(t.app);
    await addMedia(t, user.id, 23);
    const first = await t.app.inject({ method: 'GET', url: '/api/gallery' });
    expect(first.statusCode).toBe(200);
    const body = first.json() as { items: Item[]; stats: Record<string, number> };
    expect(body.stats).toEqual({ total: 23, art: 6, music: 6, fun: 6, video: 5 });

    // Page through every type and check the counts agree with the stats.
    for (const type of ['all', ...TYPES]) {
      const seen: Item[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 20; pages += 1) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/gallery?type=${type}&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
        });
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json() as { items: Item[] };
        seen.push(...page.items);
        cursor = res.headers['x-next-cursor'] as string | undefined;
        if (!cursor) break;
      }
      const expected = type === 'all' ? body.stats.total : body.stats[type];
      expect(seen).toHaveLength(expected!);
      expect(new Set(seen.map((i) => i.id)).size).toBe(expected);
      if (type !== 'all') expect(seen.every((i) => i.type === type)).toBe(true);
      const times = seen.map((i) => i.createdAt);
      expect([...times].sort().reverse()).toEqual(times);
    }
  });

  it('filters on the type name on the server (q), paging through the whole gallery with no gaps', async ({
    t,
  }) => {
    const { user, cookie } = await registerUser(t.app);
    await addMedia(t, user.id, 9, Date.now() - 3_600_000);
    const all = async (query: string) => {
      const seen: Item[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 100; pages += 1) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/gallery?${query}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        });
        expect(res.statusCode, res.body).toBe(200);
        seen.push(...(res.json() as { items: Item[] }).items);
        cursor = res.headers['x-next-cursor'] as string | undefined;
        if (!cursor) return seen;
      }
      throw new Error('too many pages');
    };
    const everything = await all('type=all');
    for (const [query, keep] of [
      ['q=mus', (i: Item) => i.type === 'music'],
      ['q=u', (i: Item) => i.type === 'music' || i.type === 'fun'],
      ['q=ART', (i: Item) => i.type === 'art'],
      ['q=%20%20', () => true],
      ['q=zzz', () => false],
      ['q=%F0%9F%8E%B2', () => false],
      ['type=art&q=mus', () => false],
      ['type=fun&q=u', (i: Item) => i.type === 'fun'],
    ] as const) {
      const expected = everything.filter(keep).map((i) => i.id);
      expect(
        (await all(query)).map((i) => i.id),
        query,
      ).toEqual(expected);
    }

    for (const bad of [`q=${'a'.repeat(51)}`, 'q=mu%00s', 'q=%07']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/gallery?${bad}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
    }

    // The cached first page never hides a favourite made here, for visitors nor for the member.
    const newest = everything[0]!;
    const before = await t.app.inject({ method: 'GET', url: '/api/gallery?limit=2' });
    expect(before.statusCode, before.body).toBe(200);
    const count = newest.favoritesCount;
    expect(before.json().items[0]).toMatchObject({ id: newest.id, favoritesCount: count, isFavorite: false });
    await t.app.inject({ method: 'POST', url: `/api/gallery/${newest.id}/favorite`, headers: { cookie } });
    const after = await t.app.inject({ method: 'GET', url: '/api/gallery?limit=2' });
    expect(after.json().items[0]).toMatchObject({
      id: newest.id,
      favoritesCount: count + 1,
      isFavorite: false,
    });
    const mine = await t.app.inject({ method: 'GET', url: '/api/gallery?limit=2', headers: { cookie } });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().items[0]).toMatchObject({
      id: newest.id,
      favoritesCount: count + 1,
      isFavorite: true,
    });
  });

  it('refuses an unknown type, a bad cursor and a bad limit with 400', async ({ t }) => {
    for (const url of ['/api/gallery?type=sculpture', '/api/gallery?cursor=nope', '/api/gallery?limit=0']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
    }
  });

  it('favourites idempotently, counts in step, 401 logged out, 404 for unknown ids', async ({ t }) => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const [id] = await addMedia(t, a.user.id, 1, Date.now() + 60_000);
    const fav = (cookie: string | undefined, method: 'POST' | 'DELETE', mediaId = id) =>
      t.app.inject({
        method,
        url: `/api/gallery/${mediaId}/favorite`,
        ...(cookie ? { headers: { cookie } } : {}),
      });

    const out = await fav(undefined, 'POST');
    expect(out.statusCode).toBe(401);
    expect(out.json().code).toBe('UNAUTHORIZED');
    expect((await fav(undefined, 'DELETE')).statusCode).toBe(401);

    expect((await fav(a.cookie, 'POST')).json()).toEqual({ favorited: true, favoritesCount: 1 });
    expect((await fav(a.cookie, 'POST')).json()).toEqual({ favorited: true, favoritesCount: 1 });
    expect((await fav(b.cookie, 'POST')).json()).toEqual({ favorited: true, favoritesCount: 2 });
    expect((await fav(b.cookie, 'DELETE')).json()).toEqual({ favorited: false, favoritesCount: 1 });
    expect((await fav(b.cookie, 'DELETE')).json()).toEqual({ favorited: false, favoritesCount: 1 });

    for (const unknown of [UNKNOWN_ID, 'not-a-uuid']) {
      const res = await fav(a.cookie, 'POST', unknown);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        message: 'Media not found',
        code: 'NOT_FOUND',
        reason: 'MEDIA_NOT_FOUND',
      });
    }

    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/gallery/favorites',
      headers: { cookie: a.cookie },
    });
    expect(mine.json()).toEqual([{ contentId: id }]);
    const visitor = await t.app.inject({ method: 'GET', url: '/api/gallery/favorites' });
    expect(visitor.json()).toEqual([]);

    const page = await t.app.inject({
      method: 'GET',
      url: '/api/gallery?limit=1',
      headers: { cookie: a.cookie },
    });
    expect(page.json().items[0]).toMatchObject({ id, isFavorite: true, favoritesCount: 1 });
    const asB = await t.app.inject({
      method: 'GET',
      url: '/api/gallery?limit=1',
      headers: { cookie: b.cookie },
    });
    expect(asB.json().items[0]).toMatchObject({ id, isFavorite: false, favoritesCount: 1 });

    const ofA = await t.app.inject({ method: 'GET', url: `/api/users/${a.user.id}/favorites` });
    expect(ofA.statusCode).toBe(200);
    expect(ofA.json().map((i: Item) => i.id)).toEqual([id]);
  });

  it('keeps the count right under concurrent favourites', async ({ t }) => {
    const members = await Promise.all(Array.from({ length: 6 }, () => registerUser(t.app)));
    const [id] = await addMedia(t, members[0]!.user.id, 1);
    await Promise.all(
      members.flatMap((m) =>
        [0, 1].map(() =>
          t.app.inject({ method: 'POST', url: `/api/gallery/${id}/favorite`, headers: { cookie: m.cookie } }),
        ),
      ),
    );
    const [row] = await t.orm.em
      .fork()
      .execute<{ favorites_count: number; n: number }[]>(
        'select favorites_count, (select count(*)::int from favorites where media_id = ?) as n from ai_media where id = ?',
        [id, id],
      );
    expect(row).toEqual({ favorites_count: 6, n: 6 });
  });

  it("serves a profile's Media tab: only their posts with images, newest first", async ({ t }) => {
    const a = await registerUser(t.app);
    const image = await publicObject(t.orm, a.user.id);
    const create = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/posts', headers: { cookie: a.cookie }, payload });
    const withImage = (await create({ content: 'look', imageUrl: image })).json().post.id;
    await create({ content: 'no picture here' });
    const res = await t.app.inject({ method: 'GET', url: `/api/users/${a.user.id}/media` });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((p: { id: string }) => p.id)).toEqual([withImage]);
    expect((await t.app.inject({ method: 'GET', url: `/api/users/${UNKNOWN_ID}/media` })).json()).toEqual([]);
  });
});
