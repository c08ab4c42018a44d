/**
 * The WebSocket endpoint on a real listening server: sockets carry the session of their upgrade
 * request, refuse foreign origins, end with their session, count against rate limits, and the
 * live subscriptions deliver and catch up by event id.
 */
import { BELL_WINDOW_MS } from '@cubes/api';
import { describe, expect } from 'vitest';
import WebSocket from 'ws';
import { it as withApp } from './fixtures.js';
import { createPost as createPostVia, listen, registerUser, type TestApp } from './harness.js';
import { Events } from './live-client.js';

/** An app with the WebSocket rate limits: 0.01 × 600 per minute, six messages from one address. */
const it = withApp.extend('limitedBase', { scope: 'file' }, async ({ appWith }) =>
  listen((await appWith({ config: { rateLimitScale: 0.01 } })).app),
);

async function createPost(t: TestApp, cookie: string, content = 'hello'): Promise<string> {
  return (await createPostVia(t.app, cookie, content)).id;
}

type BellState = { unreadCount: number; newestId: string | null };
type Tracked<T> = { id: string; data: T };

describe('WebSocket endpoint', () => {
  it('refuses an upgrade from a foreign Origin with a 403 in the error shape', async ({ base }) => {
    const url = `${base.replace('http', 'ws')}/trpc`;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { origin: 'https://evil.example' } });
      socket.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      socket.on('open', () => reject(new Error('upgrade accepted')));
      socket.on('error', () => {});
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({
      message: 'Cross-origin request refused',
      code: 'FORBIDDEN',
      reason: 'CROSS_ORIGIN_REFUSED',
    });
  });

  it('refuses subscriptions over plain HTTP (405), and control characters in their input (400)', async ({
    t,
    live,
  }) => {
    for (const request of [
      { method: 'GET' as const, url: '/trpc/posts.onNew' },
      { method: 'POST' as const, url: '/trpc/notifications.onChange', payload: {} },
      { method: 'GET' as const, url: '/trpc/posts.feed,posts.onNew?batch=1' },
    ]) {
      const res = await t.app.inject(request);
      expect(res.statusCode, request.url).toBe(405);
      expect(res.json()).toEqual({
        message: 'Subscriptions are served over the WebSocket at /trpc',
        code: 'METHOD_NOT_SUPPORTED',
        reason: 'SUBSCRIPTIONS_NEED_SOCKET',
      });
    }
    const plain = await t.app.inject({ method: 'GET', url: '/trpc' });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().code).toBe('BAD_REQUEST');

    const socket = live();
    for (const bad of ['a\u0000b', 'a\u009Fb', 'a\uD800b']) {
      const events = new Events<unknown>();
      socket.client.posts.onNew.subscribe(
        { lastEventId: bad },
        { onData: events.push, onError: events.fail },
      );
      await expect(events.next()).rejects.toMatchObject({
        data: {
          code: 'BAD_REQUEST',
          issues: [{ path: 'lastEventId', message: 'Event id contains characters that are not allowed' }],
        },
      });
    }
  });

  it('accepts its own origin, and a logged-out socket is refused protected subscriptions', async ({
    live,
  }) => {
    const anonymous = live();
    const events = new Events<unknown>();
    anonymous.client.notifications.onChange.subscribe({}, { onData: events.push, onError: events.fail });
    await expect(events.next()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
  });

  it('pushes the bell live: a like by someone else rings the author’s bell when its window ends', async ({
    t,
    live,
  }) => {
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const postId = await createPost(t, author.cookie);
    const socket = live({ cookie: author.cookie });
    const bell = new Events<Tracked<BellState>>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    expect((await bell.next()).data).toEqual({ unreadCount: 0, newestId: null });

    const like = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/like`,
      headers: { cookie: fan.cookie },
    });
    expect(like.statusCode).toBe(200);
    // Likes ring bells once per window (notification.bells.ts); generous for a busy machine.
    const after = await bell.next(BELL_WINDOW_MS + 5_000);
    expect(after.data.unreadCount).toBe(1);
    expect(after.data.newestId).toEqual(expect.any(String));

    // Read on another tab: this one hears it too.
    await t.app.inject({
      method: 'POST',
      url: '/api/notifications/mark-all-read',
      headers: { cookie: author.cookie },
    });
    expect((await bell.next()).data.unreadCount).toBe(0);
  });

  it('catches up from the database by lastEventId, and sends nothing the client already has', async ({
    t,
    live,
  }) => {
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const postId = await createPost(t, author.cookie);
    const socket = live({ cookie: author.cookie });

    const first = new Events<Tracked<BellState>>();
    const sub = socket.client.notifications.onChange.subscribe(
      {},
      { onData: first.push, onError: first.fail },
    );
    const seen = await first.next();
    sub.unsubscribe();

    // Same state: nothing to send until something changes.
    const again = new Events<Tracked<BellState>>();
    socket.client.notifications.onChange.subscribe(
      { lastEventId: seen.id },
      { onStarted: again.start, onData: again.push, onError: again.fail },
    );
    await again.started;

    // Missed while away: a reconnecting client gets the current state at once. (And the like is
    // the first thing `again` hears of: the state it had was not sent again.)
    await t.app.inject({ method: 'POST', url: `/api/posts/${postId}/like`, headers: { cookie: fan.cookie } });
    expect((await again.next(BELL_WINDOW_MS + 5_000)).data.unreadCount).toBe(1);
    const stale = new Events<Tracked<BellState>>();
    socket.client.notifications.onChange.subscribe(
      { lastEventId: seen.id },
      { onData: stale.push, onError: stale.fail },
    );
    expect((await stale.next()).data.unreadCount).toBe(1);
  });

  it('announces new posts live, and replays the ones a reconnecting client missed', async ({ t, live }) => {
    const writer = await registerUser(t.app);
    const reader = live();
    const news = new Events<Tracked<{ postId: string; authorId: string }>>();
    const sub = reader.client.posts.onNew.subscribe(
      {},
      { onStarted: news.start, onData: news.push, onError: news.fail },
    );
    await news.started;
    const first = await createPost(t, writer.cookie, 'first');
    const event = await news.next();
    expect(event.data).toMatchObject({ postId: first, authorId: writer.user.id });
    sub.unsubscribe();

    const missed = [
      await createPost(t, writer.cookie, 'second'),
      await createPost(t, writer.cookie, 'third'),
    ];
    const resumed = new Events<Tracked<{ postId: string }>>();
    reader.client.posts.onNew.subscribe(
      { lastEventId: event.id },
      { onData: resumed.push, onError: resumed.fail },
    );
    expect([(await resumed.next()).data.postId, (await resumed.next()).data.postId]).toEqual(missed);
    // Nothing more of the catch-up: the next event is a post written now.
    const fourth = await createPost(t, writer.cookie, 'fourth');
    expect((await resumed.next()).data.postId).toBe(fourth);
  });

  it('closes a socket when its session ends (logout), and keeps the others', async ({ t, live }) => {
    const user = await registerUser(t.app);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.input.email, password: user.input.password },
    });
    const otherCookie = login.headers['set-cookie']!.toString().split(';')[0]!;
    const mine = live({ cookie: user.cookie });
    const other = live({ cookie: otherCookie });
    for (const socket of [mine, other]) {
      const bell = new Events<unknown>();
      socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
      await bell.next();
    }
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: user.cookie } });
    await mine.closedWith(4401);
    expect(other.closes).toEqual([]);

    // A password change ends every other session, and with them their sockets.
    const third = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.input.email, password: user.input.password },
    });
    const thirdSocket = live({ cookie: third.headers['set-cookie']!.toString().split(';')[0]! });
    const thirdBell = new Events<unknown>();
    thirdSocket.client.notifications.onChange.subscribe(
      {},
      { onData: thirdBell.push, onError: thirdBell.fail },
    );
    await thirdBell.next();
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/settings/password',
      headers: { cookie: otherCookie },
      payload: { currentPassword: user.input.password, newPassword: 'another-secret' },
    });
    expect(change.statusCode, change.body).toBe(200);
    await thirdSocket.closedWith(4401);
    expect(other.closes).toEqual([]);
  });
});

describe('WebSocket rate limits', () => {
  it('counts every socket message like a request, and closes a socket over the limit', async ({
    live,
    limitedBase,
  }) => {
    const socket = live({}, limitedBase);
    for (let i = 0; i < 12 && !socket.closes.includes(4429); i++) {
      await new Promise<void>((resolve) => {
        const sub = socket.client.posts.onNew.subscribe(
          {},
          {
            onStarted: () => {
              sub.unsubscribe();
              resolve();
            },
            onError: () => resolve(),
          },
        );
        // A subscription sent as the socket closes for its rate neither starts nor fails: the
        // client holds it for a reconnect. The close is the signal then.
        void socket.closedWith(4429).then(resolve);
      });
    }
    await socket.closedWith(4429);
    // Its reconnects would be refused (429) until the minute is over: stop them.
    await socket.close();
  });
});
