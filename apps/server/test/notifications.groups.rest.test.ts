/**
 * Grouped notifications over REST and batched tRPC (issue #49): GET /api/notifications keeps its
 * fields and gains `groupKey`, `actors` and `actorsCount` (a group is one item),
 * GET /api/notifications/{id}/actors lists everyone in the group (paged, 404 in the error shape
 * for anyone else's id), and opening the item reads the whole group.
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { createPost, registerUser } from './harness.js';
import { api } from './over-http.js';

type Actor = { id: string; username: string; displayName: string; avatarUrl: string | null };
type Item = {
  id: string;
  type: string;
  username: string;
  isRead: boolean;
  postId: string | null;
  groupKey: string;
  actors: Actor[];
  actorsCount: number;
};
type Envelope = { error?: { json: { message: string; data: { code: string } } } };

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const NOT_FOUND = { message: 'Notification not found', code: 'NOT_FOUND', reason: 'NOTIFICATION_NOT_FOUND' };

describe('grouped notifications over REST', () => {
  it('shows four likes of one post as one item, lists all four, and reads the group at once', async ({
    t,
    base,
  }) => {
    const author = await registerUser(t.app);
    const fans = [];
    for (let i = 0; i < 4; i++) fans.push(await registerUser(t.app));
    const post = await createPost(t.app, author.cookie, 'liked by four');
    for (const fan of fans) {
      expect((await api(base, 'POST', `/api/posts/${post.id}/like`, fan.cookie, {})).status).toBe(200);
    }
    await createPost(t.app, fans[0]!.cookie, `hello @${author.user.username}`);

    const list = await api(base, 'GET', '/api/notifications', author.cookie);
    expect(list.status).toBe(200);
    const items = list.body as Item[];
    expect(items.map((n) => [n.type, n.actorsCount])).toEqual([
      ['mention', 1],
      ['like', 4],
    ]);
    const like = items[1]!;
    // The old fields describe the newest like; the new ones the group.
    expect(Object.keys(like).sort()).toEqual(
      [
        'actors',
        'actorsCount',
        'groupKey',
        'id',
        'isRead',
        'message',
        'poll',
        'postId',
        'removal',
        'snippet',
        'timestamp',
        'type',
        'userAvatar',
        'username',
      ].sort(),
    );
    expect(like).toMatchObject({
      username: fans[3]!.user.username,
      message: 'liked your post',
      postId: post.id,
      isRead: false,
    });
    expect(like.groupKey).toMatch(new RegExp(`^like:${post.id}:\\d{4}-\\d{2}-\\d{2}$`));
    expect(like.actors.map((a) => a.id)).toEqual([fans[3]!.user.id, fans[2]!.user.id, fans[1]!.user.id]);
    expect(like.actors[0]).toEqual({
      id: fans[3]!.user.id,
      username: fans[3]!.user.username,
      displayName: fans[3]!.input.displayName,
      avatarUrl: null,
    });
    const page = await api(base, 'GET', '/api/notifications/page?limit=5', author.cookie);
    expect((page.body as Item[]).map((n) => [n.id, n.actorsCount])).toEqual(
      items.map((n) => [n.id, n.actorsCount]),
    );
    expect(await api(base, 'GET', '/api/notifications/unread-count', author.cookie)).toMatchObject({
      body: { count: 2 },
    });

    // Everyone in the group, two at a time.
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: author.cookie } });
    const first = await get(`/api/notifications/${like.id}/actors?limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    const cursor = first.headers['x-next-cursor'];
    expect(cursor).toEqual(expect.any(String));
    const second = await get(`/api/notifications/${like.id}/actors?limit=2&cursor=${cursor}`);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    expect([...(first.json() as Actor[]), ...(second.json() as Actor[])].map((a) => a.id)).toEqual(
      [...fans].reverse().map((f) => f.user.id),
    );

    // Opening it reads all four rows: the count drops by one group.
    const read = await api(base, 'POST', `/api/notifications/${like.id}/read`, author.cookie, {});
    expect(read.body).toEqual({ ok: true, updated: 1 });
    expect((await api(base, 'GET', '/api/notifications/unread-count', author.cookie)).body).toEqual({
      count: 1,
    });
    const after = (await api(base, 'GET', '/api/notifications', author.cookie)).body as Item[];
    expect(after.map((n) => n.isRead)).toEqual([false, true]);
  });

  it("answers another member's id, unknown, malformed and huge ids in the error shape", async ({
    t,
    base,
  }) => {
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const post = await createPost(t.app, author.cookie, 'mine');
    await api(base, 'POST', `/api/posts/${post.id}/like`, fan.cookie, {});
    const [item] = (await api(base, 'GET', '/api/notifications', author.cookie)).body as Item[];

    const foreign = await api(base, 'GET', `/api/notifications/${item!.id}/actors`, stranger.cookie);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(NOT_FOUND);
    const unknown = await api(base, 'GET', `/api/notifications/${UNKNOWN}/actors`, author.cookie);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
    for (const id of ['not-a-uuid', '%00', `${item!.id}%00`, 'a'.repeat(5_000)]) {
      const res = await api(base, 'GET', `/api/notifications/${id}/actors`, author.cookie);
      expect([400, 404], `${id.slice(0, 12)}: ${res.status}`).toContain(res.status);
      expect(res.body).toMatchObject({
        message: expect.any(String),
        code: expect.stringMatching(/^[A-Z_]+$/),
      });
    }
    for (const query of ['cursor=AAAA', 'cursor=%00', 'limit=0', 'limit=100000']) {
      const res = await api(base, 'GET', `/api/notifications/${item!.id}/actors?${query}`, author.cookie);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ message: expect.any(String), code: 'BAD_REQUEST' });
    }
    const loggedOut = await api(base, 'GET', `/api/notifications/${item!.id}/actors`);
    expect(loggedOut.status).toBe(401);
    // Still unread: nothing of the above read it.
    expect((await api(base, 'GET', '/api/notifications/unread-count', author.cookie)).body).toEqual({
      count: 1,
    });

    // Batched tRPC: each call answers for itself.
    const res = await fetch(
      `${base}/trpc/${Array(4).fill('notifications.groupActors').join(',')}?batch=1&input=${encodeURIComponent(
        JSON.stringify({
          0: { json: { id: item!.id } },
          1: { json: { id: UNKNOWN } },
          2: { json: { id: 'x'.repeat(5_000) } },
          3: { json: { id: `${item!.id}\u0000` } },
        }),
      )}`,
      { headers: { origin: base, cookie: stranger.cookie } },
    );
    const envelopes = (await res.json()) as Envelope[];
    expect(envelopes.map((e) => e.error?.json.data.code ?? 'ok')).toEqual([
      'NOT_FOUND',
      'NOT_FOUND',
      'BAD_REQUEST',
      'BAD_REQUEST',
    ]);
    const mine = await fetch(
      `${base}/trpc/notifications.groupActors,notifications.list?batch=1&input=${encodeURIComponent(
        JSON.stringify({ 0: { json: { id: item!.id } }, 1: { json: null } }),
      )}`,
      { headers: { origin: base, cookie: author.cookie } },
    );
    expect(((await mine.json()) as Envelope[]).map((e) => e.error?.json.data.code ?? 'ok')).toEqual([
      'ok',
      'ok',
    ]);
  });
});
