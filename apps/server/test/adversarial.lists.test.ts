/**
 * The adversarial pass over the rows the first-hour mends added (docs/security.md, "Adversarial
 * pass"): opening a notification (`POST /api/notifications/{id}/read`), the notifications page,
 * a member's follower and following lists, and Cubey's setup. Each is tried as an attacker
 * would: another member's ids, malformed and oversized ids, forged cursors, batched tRPC calls
 * and two requests racing for the same row, on a real listening server. Each test asserts the
 * safe outcome; fuzz.test.ts already throws random input at every row.
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { createPost, listen, registerUser, type TestApp, UNKNOWN_ID } from './harness.js';
import { Events } from './live-client.js';
import { api } from './over-http.js';

type Member = Awaited<ReturnType<typeof registerUser>>;
type Tracked<T> = { id: string; data: T };
type BellState = { unreadCount: number; newestId: string | null };
type Envelope = {
  error?: { json: { message: string; data: { code: string } } };
  result?: { data: { json: unknown } };
};

const NOT_FOUND = { message: 'Notification not found', code: 'NOT_FOUND', reason: 'NOTIFICATION_NOT_FOUND' };

/** One POST /trpc batch of one mutation per input, over real HTTP. */
async function batch(base: string, cookie: string, path: string, inputs: unknown[]) {
  const body = Object.fromEntries(inputs.map((input, i) => [i, { json: input }]));
  const res = await fetch(`${base}/trpc/${inputs.map(() => path).join(',')}?batch=1`, {
    method: 'POST',
    headers: { origin: base, cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answers = (await res.json()) as Envelope[];
  expect(Array.isArray(answers), `${res.status} ${JSON.stringify(answers).slice(0, 300)}`).toBe(true);
  return answers;
}

/** A member with `count` unread notifications (mentions by a second member); their ids, newest first. */
async function withNotifications(
  t: TestApp,
  base: string,
  count: number,
): Promise<{ member: Member; ids: string[] }> {
  const member = await registerUser(t.app);
  const author = await registerUser(t.app);
  for (let i = 0; i < count; i++) {
    await createPost(t.app, author.cookie, `note ${i} for @${member.user.username}`);
  }
  const page = await api(base, 'GET', `/api/notifications/page?limit=${count}`, member.cookie);
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  const ids = (page.body as { id: string }[]).map((n) => n.id);
  expect(ids).toHaveLength(count);
  return { member, ids };
}

async function unread(base: string, cookie: string): Promise<number> {
  const res = await api(base, 'GET', '/api/notifications/unread-count', cookie);
  expect(res.status).toBe(200);
  return (res.body as { count: number }).count;
}

describe('opening a notification (markRead)', () => {
  it('two requests racing for the same notification: one reads it (updated 1), the other finds it read', async ({
    t,
    base,
    live,
  }) => {
    const { member, ids } = await withNotifications(t, base, 2);
    const socket = live({ cookie: member.cookie });
    const bell = new Events<Tracked<BellState>>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    expect((await bell.next()).data.unreadCount).toBe(2);

    for (let round = 0; round < 3; round++) {
      const racers = await Promise.all(
        Array.from({ length: 6 }, () =>
          api(base, 'POST', `/api/notifications/${ids[0]}/read`, member.cookie),
        ),
      );
      expect(racers.map((r) => r.status)).toEqual(Array(6).fill(200));
      const updated = racers.map((r) => (r.body as { updated: number }).updated);
      expect(updated.filter((u) => u === 1)).toHaveLength(round === 0 ? 1 : 0);
    }
    expect(await unread(base, member.cookie)).toBe(1);
    // The bell heard one drop, not one per racer: the next state it hears is after markAllRead.
    expect((await bell.next()).data.unreadCount).toBe(1);
    await api(base, 'POST', '/api/notifications/mark-all-read', member.cookie);
    expect((await bell.next()).data.unreadCount).toBe(0);
  });

  it('a batch of calls reads only the caller’s own: another member’s ids, unknown and malformed ids fail alone', async ({
    t,
    base,
  }) => {
    const { member, ids } = await withNotifications(t, base, 2);
    const other = await withNotifications(t, base, 1);
    const answers = await batch(base, member.cookie, 'notifications.markRead', [
      { id: ids[0] },
      { id: other.ids[0] },
      { id: UNKNOWN_ID },
      { id: 'not-a-uuid' },
      { id: `${ids[1]}\u0000` },
      { id: 'a'.repeat(10_000) },
      { id: 42 },
      {},
      { id: ids[0] },
    ]);
    const outcomes = answers.map(
      (a) => a.error?.json.data.code ?? (a.result?.data.json as { updated: number } | undefined)?.updated,
    );
    expect(outcomes.slice(1, -1)).toEqual([
      'NOT_FOUND',
      'NOT_FOUND',
      'NOT_FOUND',
      'BAD_REQUEST',
      'BAD_REQUEST',
      'BAD_REQUEST',
      'BAD_REQUEST',
    ]);
    // The calls of a batch run side by side: whichever of the two opens of ids[0] takes the row
    // first says 1, the other 0, in either order; never both 1.
    expect([outcomes[0], outcomes.at(-1)].sort()).toEqual([0, 1]);
    expect(answers[1]!.error!.json.message).toBe(NOT_FOUND.message);
    expect(await unread(base, member.cookie)).toBe(1);
    // The other member's notification is still unread.
    expect(await unread(base, other.member.cookie)).toBe(1);
  });

  it('over REST: malformed and oversized ids are 400 or 404 in the error shape, never 5xx', async ({
    t,
    base,
  }) => {
    const { member } = await withNotifications(t, base, 1);
    for (const id of [
      'not-a-uuid',
      '%00',
      encodeURIComponent('é🙂'),
      'a'.repeat(5_000),
      `${UNKNOWN_ID}..%2F..`,
    ]) {
      const res = await api(base, 'POST', `/api/notifications/${id}/read`, member.cookie);
      expect([400, 404, 414], `${id.slice(0, 20)}: ${res.status}`).toContain(res.status);
      if (res.status !== 414) {
        expect(res.body).toMatchObject({
          message: expect.any(String),
          code: expect.stringMatching(/^[A-Z_]+$/),
        });
      }
    }
    expect(await unread(base, member.cookie)).toBe(1);
  });
});

describe('the notifications page', () => {
  it('forged cursors, a cursor of another list, and out-of-range limits are 400; nothing else leaks', async ({
    t,
    base,
  }) => {
    const { member } = await withNotifications(t, base, 3);
    const first = await api(base, 'GET', '/api/notifications/page?limit=1', member.cookie);
    const cursor = String(
      (await fetchHeaders(base, `/api/notifications/page?limit=1`, member.cookie)).get('x-next-cursor'),
    );
    expect(first.status).toBe(200);
    const stranger = await registerUser(t.app);
    // Another member given this member's cursor sees their own (empty) list, not this one's.
    const replayed = await api(
      base,
      'GET',
      `/api/notifications/page?cursor=${encodeURIComponent(cursor)}`,
      stranger.cookie,
    );
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual([]);

    const feed = await fetchHeaders(base, '/api/posts/feed?limit=1', member.cookie);
    const feedCursor = feed.get('x-next-cursor');
    const bad = [
      feedCursor ? `cursor=${encodeURIComponent(feedCursor)}` : 'cursor=feed',
      'cursor=AAAA',
      `cursor=${'x'.repeat(70_000)}`,
      'cursor=%00',
      'limit=0',
      'limit=-1',
      'limit=100000',
      'limit=abc',
      'filter=likes',
      'filter=%00',
    ];
    for (const query of bad) {
      const res = await api(base, 'GET', `/api/notifications/page?${query}`, member.cookie);
      // 414 and 431 are Node's own answers to a request line or headers past its limits.
      expect([400, 414, 431], `${query.slice(0, 30)}: ${res.status}`).toContain(res.status);
      if (res.status === 400)
        expect(res.body).toMatchObject({ message: expect.any(String), code: 'BAD_REQUEST' });
    }
  });
});

async function fetchHeaders(base: string, url: string, cookie: string): Promise<Headers> {
  const res = await fetch(`${base}${url}`, { headers: { origin: base, cookie } });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return res.headers;
}

describe('follower and following lists', () => {
  it('unknown, malformed and blocked members are 404; forged cursors and limits are 400; a batch is no loophole', async ({
    t,
    base,
  }) => {
    const star = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const blocked = await registerUser(t.app);
    await api(base, 'POST', `/api/users/${star.user.id}/follow`, fan.cookie);
    await api(base, 'POST', `/api/users/${blocked.user.id}/block`, star.cookie);

    for (const list of ['followers', 'following']) {
      for (const id of [UNKNOWN_ID, 'not-a-uuid', '%00', 'a'.repeat(2_000)]) {
        const res = await api(base, 'GET', `/api/users/${id}/${list}`, fan.cookie);
        expect([400, 404], `${list} ${id.slice(0, 12)}: ${res.status}`).toContain(res.status);
        expect(res.body).toMatchObject({
          message: expect.any(String),
          code: expect.stringMatching(/^[A-Z_]+$/),
        });
      }
      const hidden = await api(base, 'GET', `/api/users/${star.user.id}/${list}`, blocked.cookie);
      expect(hidden.status, `${list} of a member who blocked me`).toBe(404);
      for (const query of ['cursor=AAAA', 'cursor=%00', 'limit=0', 'limit=100000', 'limit=abc']) {
        const res = await api(base, 'GET', `/api/users/${star.user.id}/${list}?${query}`, fan.cookie);
        expect(res.status, `${list}?${query}`).toBe(400);
        expect(res.body).toMatchObject({ message: expect.any(String), code: 'BAD_REQUEST' });
      }
    }

    const answers = await fetch(
      `${base}/trpc/${Array(3).fill('follows.followers').join(',')}?batch=1&input=${encodeURIComponent(
        JSON.stringify({
          0: { json: { userId: star.user.id } },
          1: { json: { userId: blocked.user.id } },
          2: { json: { userId: 'x'.repeat(70_000).slice(0, 3000) } },
        }),
      )}`,
      { headers: { origin: base, cookie: blocked.cookie } },
    );
    const envelopes = (await answers.json()) as Envelope[];
    expect(envelopes.map((e) => e.error?.json.data.code ?? 'ok')).toEqual(['NOT_FOUND', 'ok', 'BAD_REQUEST']);
  });

  it('a follow racing an unfollow leaves the list and the count agreeing', async ({ t, base }) => {
    const star = await registerUser(t.app);
    const fan = await registerUser(t.app);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api(base, i % 2 ? 'DELETE' : 'POST', `/api/users/${star.user.id}/follow`, fan.cookie),
      ),
    );
    const list = await api(base, 'GET', `/api/users/${star.user.id}/followers`, fan.cookie);
    const stats = await api(base, 'GET', `/api/users/${star.user.id}/stats`, fan.cookie);
    expect(list.status).toBe(200);
    expect(stats.status, JSON.stringify(stats.body)).toBe(200);
    expect((list.body as unknown[]).length).toBe((stats.body as { followersCount: number }).followersCount);
  });
});

describe('Cubey’s setup', () => {
  it('says only which assistant answers; no address, model or key, logged out or in', async ({
    base,
    appWith,
  }) => {
    const secret = {
      baseUrl: 'http://127.0.0.1:9/secret-path/v1',
      apiKey: 'sk-very-secret',
      model: 'secret-model',
    };
    const withModel = await appWith({ config: { cubey: secret } });
    const modelBase = await listen(withModel.app);
    const member = await registerUser(withModel.app);
    for (const cookie of [undefined, member.cookie]) {
      const res = await api(modelBase, 'GET', '/api/cubey/setup', cookie);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ assistant: 'model', mediaGeneration: false });
      for (const value of ['secret-path', 'sk-very-secret', 'secret-model']) {
        expect(JSON.stringify(res.body)).not.toContain(value);
      }
    }
    const offline = await api(base, 'GET', '/api/cubey/setup');
    expect(offline.body).toEqual({ assistant: 'offline', mediaGeneration: false });
  });
});
