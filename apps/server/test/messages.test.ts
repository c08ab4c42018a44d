/**
 * Direct messages over REST and the WebSocket, on a real listening server: the contract of the
 * /api/messages rows (statuses, the error shape, paging headers, the rate limit) and the live
 * subscription between two clients (messages, receipts, typing, catch-up after a reconnect).
 */
import { describe, expect } from 'vitest';
import { it as withApp } from './fixtures.js';
import { registerUser, type TestApp, UNKNOWN_ID } from './harness.js';
import { Events, waitFor } from './live-client.js';

const it = withApp.extend('limited', { scope: 'file' }, ({ appWith }) =>
  appWith({ config: { rateLimitScale: 1 } }),
);

async function send(t: TestApp, cookie: string, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/messages',
    headers: { cookie },
    payload: payload as object,
  });
}

describe('/api/messages', () => {
  it('sends (201), lists conversations, reads the thread oldest first; only a POST marks it read', async ({
    t,
  }) => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const first = await send(t, a.cookie, { receiverId: b.user.id, content: 'hi b' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ senderId: a.user.id, receiverId: b.user.id, content: 'hi b' });
    expect((await send(t, b.cookie, { receiverId: a.user.id, content: 'hi a' })).statusCode).toBe(201);

    const convs = await t.app.inject({
      method: 'GET',
      url: '/api/messages/conversations',
      headers: { cookie: a.cookie },
    });
    expect(convs.statusCode).toBe(200);
    expect(convs.json()).toEqual([
      expect.objectContaining({ userId: b.user.id, lastMessage: 'hi a', unread: 1 }),
    ]);
    const unread = await t.app.inject({
      method: 'GET',
      url: '/api/messages/unread-count',
      headers: { cookie: a.cookie },
    });
    expect(unread.json()).toEqual({ count: 1 });

    const thread = await t.app.inject({
      method: 'GET',
      url: `/api/messages/${b.user.id}`,
      headers: { cookie: a.cookie },
    });
    expect(thread.statusCode).toBe(200);
    expect(thread.json().map((m: { content: string }) => m.content)).toEqual(['hi b', 'hi a']);
    expect(thread.headers['x-next-cursor']).toBeUndefined();
    // A GET changes nothing: 'hi a' is still unread, and b has no receipt.
    expect(thread.json().map((m: { readAt: string | null }) => m.readAt)).toEqual([null, null]);
    const unreadCount = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/messages/unread-count',
          headers: { cookie: a.cookie },
        })
      ).json();
    expect(await unreadCount()).toEqual({ count: 1 });
    const markRead = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${b.user.id}/read`,
      headers: { cookie: a.cookie },
    });
    expect(markRead.statusCode, markRead.body).toBe(200);
    expect(markRead.json()).toEqual({ ok: true, updated: 1 });
    expect(await unreadCount()).toEqual({ count: 0 });

    const paged = await t.app.inject({
      method: 'GET',
      url: `/api/messages/${b.user.id}?limit=1`,
      headers: { cookie: a.cookie },
    });
    expect(paged.json().map((m: { content: string }) => m.content)).toEqual(['hi a']);
    const cursor = paged.headers['x-next-cursor'] as string;
    expect(cursor).toBeTruthy();
    const older = await t.app.inject({
      method: 'GET',
      url: `/api/messages/${b.user.id}?limit=1&cursor=${encodeURIComponent(cursor)}`,
      headers: { cookie: a.cookie },
    });
    expect(older.json().map((m: { content: string }) => m.content)).toEqual(['hi b']);

    const read = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${a.user.id}/read`,
      headers: { cookie: b.cookie },
    });
    expect(read.json()).toEqual({ ok: true, updated: 1 }); // b had not opened 'hi b'
  });

  it('answers 400, 401, 403, 404 and 409 in the error shape', async ({ t }) => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const c = await registerUser(t.app);
    for (const content of ['', '   ', 'x'.repeat(2001), 'a\u0000b', 42]) {
      const res = await send(t, a.cookie, { receiverId: b.user.id, content });
      expect(res.statusCode, String(content).slice(0, 20)).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
    }
    expect((await send(t, a.cookie, { receiverId: b.user.id, content: 'x'.repeat(70_000) })).statusCode).toBe(
      413,
    ); // over the 64 KB body limit
    expect((await send(t, a.cookie, { receiverId: a.user.id, content: 'me' })).json()).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'You cannot message yourself',
    });
    expect((await send(t, a.cookie, { receiverId: UNKNOWN_ID, content: 'hi' })).statusCode).toBe(404);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      payload: { receiverId: b.user.id, content: 'hi' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/messages/conversations' })).statusCode).toBe(401);
    const notUser = await t.app.inject({
      method: 'GET',
      url: '/api/messages/not-a-user',
      headers: { cookie: a.cookie },
    });
    expect(notUser.statusCode).toBe(404);
    expect(notUser.json().code).toBe('NOT_FOUND');

    const closed = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: b.cookie },
      payload: { messagesFrom: 'nobody' },
    });
    expect(closed.statusCode).toBe(200);
    const settings = await t.app.inject({
      method: 'GET',
      url: '/api/settings',
      headers: { cookie: b.cookie },
    });
    expect(settings.json().messagesFrom).toBe('nobody');
    const refused = await send(t, a.cookie, { receiverId: b.user.id, content: 'hi' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'This user does not accept messages from you',
      reason: 'NOT_ACCEPTING_MESSAGES',
    });
    // b wrote to c, so c may answer.
    expect((await send(t, b.cookie, { receiverId: c.user.id, content: 'hello c' })).statusCode).toBe(201);
    expect((await send(t, c.cookie, { receiverId: b.user.id, content: 'hello b' })).statusCode).toBe(201);

    const once = await send(t, c.cookie, { receiverId: b.user.id, content: 'retry me', clientId: 'abc' });
    const again = await send(t, c.cookie, { receiverId: b.user.id, content: 'retry me', clientId: 'abc' });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(once.json().id);
    const reused = await send(t, c.cookie, { receiverId: a.user.id, content: 'other', clientId: 'abc' });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('CONFLICT');
  });

  it('keeps a member’s lists between reads, yet shows every change at once', async ({ t }) => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
    const conversations = async (cookie: string) =>
      (await get(cookie, '/api/messages/conversations')).json() as { lastMessage: string; unread: number }[];
    const thread = async (cookie: string, peer: string) =>
      (await get(cookie, `/api/messages/${peer}`)).json() as { content: string; readAt: string | null }[];
    const badge = async (cookie: string) => (await get(cookie, '/api/messages/unread-count')).json().count;

    expect((await send(t, a.cookie, { receiverId: b.user.id, content: 'one' })).statusCode).toBe(201);
    // Read twice: the second comes from memory (member-reads.ts).
    for (let i = 0; i < 2; i++) {
      expect(await conversations(b.cookie)).toEqual([
        expect.objectContaining({ lastMessage: 'one', unread: 1 }),
      ]);
      expect(await badge(b.cookie)).toBe(1);
      expect((await thread(a.cookie, b.user.id)).map((m) => [m.content, m.readAt])).toEqual([['one', null]]);
    }
    // A new message reaches both members' kept lists.
    expect((await send(t, a.cookie, { receiverId: b.user.id, content: 'two' })).statusCode).toBe(201);
    expect(await conversations(b.cookie)).toEqual([
      expect.objectContaining({ lastMessage: 'two', unread: 2 }),
    ]);
    expect(await badge(b.cookie)).toBe(2);
    expect((await thread(a.cookie, b.user.id)).map((m) => m.content)).toEqual(['one', 'two']);
    // b opens the thread (a read, which changes nothing) and marks it read: a's kept thread
    // shows the receipt, b's lists their unread gone.
    expect((await thread(b.cookie, a.user.id)).map((m) => m.content)).toEqual(['one', 'two']);
    expect(await badge(b.cookie)).toBe(2);
    const read = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${a.user.id}/read`,
      headers: { cookie: b.cookie },
    });
    expect(read.json()).toEqual({ ok: true, updated: 2 });
    expect((await thread(a.cookie, b.user.id)).every((m) => m.readAt !== null)).toBe(true);
    expect(await conversations(b.cookie)).toEqual([
      expect.objectContaining({ lastMessage: 'two', unread: 0 }),
    ]);
    expect(await badge(b.cookie)).toBe(0);
  });
});

describe('60 messages a minute', () => {
  it('answers the 61st send with 429 and Retry-After', async ({ limited }) => {
    const a = await registerUser(limited.app);
    const b = await registerUser(limited.app);
    const post = () =>
      limited.app.inject({
        method: 'POST',
        url: '/api/messages',
        headers: { cookie: a.cookie },
        payload: { receiverId: b.user.id, content: 'spam' },
      });
    for (let i = 0; i < 60; i++) expect((await post()).statusCode).toBe(201);
    const res = await post();
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('TOO_MANY_REQUESTS');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

type LiveEvent = {
  id: string;
  data:
    | { type: 'message'; message: { id: string; content: string; senderId: string } }
    | { type: 'read'; peerId: string; lastReadId: string }
    | { type: 'unread'; count: number }
    | { type: 'typing'; userId: string; active: boolean };
};

describe('messages.live over the WebSocket', () => {
  it('two clients: send and receive, a receipt, typing; a reconnect catches up from lastEventId', async ({
    t,
    live,
  }) => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const socketA = live({ cookie: a.cookie });
    const socketB = live({ cookie: b.cookie });
    const eventsA = new Events<LiveEvent>();
    const eventsB = new Events<LiveEvent>();
    socketA.client.messages.live.subscribe({}, { onData: eventsA.push, onError: eventsA.fail });
    const subB = socketB.client.messages.live.subscribe({}, { onData: eventsB.push, onError: eventsB.fail });
    expect((await eventsA.next(5_000)).data).toEqual({ type: 'unread', count: 0 });
    expect((await eventsB.next(5_000)).data).toEqual({ type: 'unread', count: 0 });

    const sent = await socketA.client.messages.send.mutate({
      receiverId: b.user.id,
      content: 'over the socket',
      clientId: 'k1',
    });
    const got = await eventsB.next();
    expect(got.data).toMatchObject({ type: 'message', message: { id: sent.id, content: 'over the socket' } });
    expect((await eventsB.next()).data).toEqual({ type: 'unread', count: 1 });
    expect((await eventsA.next()).data).toMatchObject({ type: 'message', message: { id: sent.id } });

    await socketB.client.messages.typing.mutate({ userId: a.user.id });
    expect((await eventsA.next()).data).toEqual({ type: 'typing', userId: b.user.id, active: true });

    // Reading the thread tells no one; marking it read sends the receipt.
    // (The receipt is the next event a has: nothing came before it.)
    await socketB.client.messages.thread.query({ userId: a.user.id });
    await socketB.client.messages.markRead.mutate({ userId: a.user.id });
    expect((await eventsA.next()).data).toEqual({
      type: 'read',
      peerId: b.user.id,
      lastReadId: sent.id,
      lastReadCreatedAt: expect.any(Date),
    });
    expect((await eventsB.next()).data).toEqual({ type: 'unread', count: 0 });

    // B leaves; two messages (one a retried send) arrive meanwhile; B resumes from its last id.
    const lastB = eventsB.items.at(-1)!.id;
    subB.unsubscribe();
    const m1 = await socketA.client.messages.send.mutate({
      receiverId: b.user.id,
      content: 'while away',
      clientId: 'k2',
    });
    await socketA.client.messages.send.mutate({
      receiverId: b.user.id,
      content: 'while away',
      clientId: 'k2',
    });
    const m2 = await socketA.client.messages.send.mutate({ receiverId: b.user.id, content: 'still away' });
    const resumed = new Events<LiveEvent>();
    socketB.client.messages.live.subscribe(
      { lastEventId: lastB },
      { onData: resumed.push, onError: resumed.fail },
    );
    expect((await resumed.next()).data).toMatchObject({ type: 'message', message: { id: m1.id } });
    expect((await resumed.next()).data).toMatchObject({ type: 'message', message: { id: m2.id } });
    expect((await resumed.next()).data).toEqual({ type: 'unread', count: 2 });
    // Nothing more of the catch-up: the next event is m3's. The count carries forward with each new
    // message, and comes back to 0 on a read.
    const m3 = await socketA.client.messages.send.mutate({ receiverId: b.user.id, content: 'third' });
    expect((await resumed.next()).data).toMatchObject({ type: 'message', message: { id: m3.id } });
    expect((await resumed.next()).data).toEqual({ type: 'unread', count: 3 });
    await socketB.client.messages.markRead.mutate({ userId: a.user.id });
    expect((await resumed.next()).data).toEqual({ type: 'unread', count: 0 });
    const m4 = await socketA.client.messages.send.mutate({ receiverId: b.user.id, content: 'fourth' });
    expect((await resumed.next()).data).toMatchObject({ type: 'message', message: { id: m4.id } });
    expect((await resumed.next()).data).toEqual({ type: 'unread', count: 1 });
    // And nothing more: the next event b has is a's typing, sent after all that.
    await socketA.client.messages.typing.mutate({ userId: b.user.id });
    expect((await resumed.next()).data).toEqual({ type: 'typing', userId: a.user.id, active: true });
    await waitFor(
      () => eventsA.items.filter((e) => e.data.type === 'message').length === 5,
      2_000,
      "a's own sends",
    );
  });
});
