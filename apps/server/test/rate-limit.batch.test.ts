/**
 * tRPC batching must not multiply the limits (issue #26), on a real listening server: over HTTP
 * (`?batch=1`, fetch to 127.0.0.1) and over the WebSocket (a message that is an array of calls).
 * A batch holds at most 10 calls (400 beyond, nothing of it runs); every call of a smaller one
 * counts against the general limit and against its procedure's buckets; every procedure that
 * checks the member's password shares one `passwordCheck` bucket (10 per 15 minutes), whatever
 * the transport.
 */
import { describe, expect } from 'vitest';
import WebSocket from 'ws';
import { type AppOptions, it as withApp } from './fixtures.js';
import { listen } from './harness.js';
import { MIN_WAIT_MS, waitFor } from './live-client.js';
import { api, registerOver } from './over-http.js';

/** Each describe has a listening app of its own: their members and counts do not meet. */
const SCALE_1: AppOptions = { config: { rateLimitScale: 1 } };
/** 0.01 × 1,200 calls per minute: twelve per member (over the socket, the upgrade being one). */
const TWELVE: AppOptions = { config: { rateLimitScale: 0.01 } };
const it = withApp
  .extend('scale1', { scope: 'file' }, async ({ appWith }) => listen((await appWith(SCALE_1)).app))
  .extend('batches', { scope: 'file' }, async ({ appWith }) => listen((await appWith(TWELVE)).app))
  .extend('refusals', { scope: 'file' }, async ({ appWith }) => listen((await appWith(TWELVE)).app))
  .extend('sockets', { scope: 'file' }, async ({ appWith }) => listen((await appWith(TWELVE)).app));

const WRONG = { currentPassword: 'not-my-password', newPassword: 'new-secret-1' };
const INCORRECT = 'Current password is incorrect';
const TOO_MANY = 'Too many requests, please try again later';
const BATCH_TOO_LARGE = 'A batch may hold at most 10 calls';
const SOCKET_MESSAGE_TOO_LARGE = 'A socket message may hold at most 32 calls';

/** One POST /trpc batch of `calls` calls of `path` with `input`, over real HTTP. */
async function batch(base: string, cookie: string, path: string, calls: number, input: unknown) {
  const body = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { json: input }]));
  const res = await fetch(`${base}/trpc/${Array(calls).fill(path).join(',')}?batch=1`, {
    method: 'POST',
    headers: { origin: base, cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

type Envelope = { error?: { json: { message: string; data: { code: string } } }; result?: unknown };

/** The messages of each call of a tRPC batch answer (its error messages, or 'ok'). */
function messages(body: unknown): string[] {
  expect(Array.isArray(body), JSON.stringify(body).slice(0, 300)).toBe(true);
  return (body as Envelope[]).map((e) => e.error?.json.message ?? 'ok');
}

/** A socket with the member's session, as a browser opens it. */
async function openSocket(base: string, cookie: string) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/trpc`, { headers: { origin: base, cookie } });
  const answers: { id: unknown; error?: { json: { message: string; data: { code: string } } } }[] = [];
  socket.on('message', (data) => {
    const text = data.toString();
    if (text !== 'PING') answers.push(JSON.parse(text));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    /** Sends one message holding `calls` calls of `path`; resolves with the answers to them. */
    async send(path: string, calls: number, input: unknown, firstId: number, method = 'mutation') {
      const ids = Array.from({ length: calls }, (_, i) => firstId + i);
      const message = ids.map((id) => ({ id, method, params: { path, input: { json: input } } }));
      socket.send(JSON.stringify(calls === 1 ? message[0] : message));
      await waitFor(
        () => ids.every((id) => answers.some((a) => a.id === id)),
        MIN_WAIT_MS,
        `an answer to every call (${calls})`,
      );
      return ids.map((id) => answers.find((a) => a.id === id)!.error?.json.message ?? 'ok');
    },
  };
}

describe('tRPC batches at scale 1 (real server)', () => {
  it('over HTTP: refuses a batch of 60 password checks with 400 before any runs; 10 checks per member', async ({
    scale1: base,
  }) => {
    const member = await registerOver(base, `batcher${Date.now()}`);
    const big = await batch(base, member.cookie, 'settings.changePassword', 60, WRONG);
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ message: BATCH_TOO_LARGE, code: 'BAD_REQUEST', reason: 'BATCH_TOO_LARGE' });

    // None of the 60 ran: the member still has all 10 of their password checks, then 429.
    const ten = await batch(base, member.cookie, 'settings.changePassword', 10, WRONG);
    expect(messages(ten.body)).toEqual(Array(10).fill(INCORRECT));
    const more = await batch(base, member.cookie, 'settings.changePassword', 3, WRONG);
    expect(more.status).toBe(429);
    expect(messages(more.body)).toEqual(Array(3).fill(TOO_MANY));
    // Even the right password is not checked any more, over REST either.
    const right = await api(base, 'POST', '/api/settings/password', member.cookie, {
      currentPassword: 'secret12',
      newPassword: 'new-secret-2',
    });
    expect(right.status).toBe(429);
  });

  it('over HTTP: a batch of 10 is allowed, of 11 refused, also for queries (GET)', async ({
    scale1: base,
  }) => {
    const member = await registerOver(base, `querier${Date.now()}`);
    const get = (calls: number) =>
      fetch(
        `${base}/trpc/${Array(calls).fill('auth.me').join(',')}?batch=1&input=${encodeURIComponent('{}')}`,
        { headers: { cookie: member.cookie } },
      );
    expect((await get(10)).status).toBe(200);
    const refused = await get(11);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      message: BATCH_TOO_LARGE,
      code: 'BAD_REQUEST',
      reason: 'BATCH_TOO_LARGE',
    });
    // A comma hidden behind a second round of URL encoding is still a comma to tRPC.
    const hidden = await fetch(`${base}/trpc/${Array(11).fill('auth.me').join('%252C')}?batch=1`, {
      headers: { cookie: member.cookie },
    });
    expect(hidden.status).toBe(400);
  });

  it('over the WebSocket: a message of 60 password checks runs none; the bucket is shared with HTTP', async ({
    scale1: base,
  }) => {
    const member = await registerOver(base, `socketeer${Date.now()}`);
    const live = await openSocket(base, member.cookie);
    try {
      const big = await live.send('settings.changePassword', 60, WRONG, 1);
      expect(big).toEqual(Array(60).fill(SOCKET_MESSAGE_TOO_LARGE));
      // Over HTTP, 4 of the member's 10 checks; over the socket the other 6, then 429.
      const http = await batch(base, member.cookie, 'settings.changePassword', 4, WRONG);
      expect(messages(http.body)).toEqual(Array(4).fill(INCORRECT));
      // The ten run side by side: which six were in time is not fixed, how many is.
      const ten = await live.send('settings.changePassword', 10, WRONG, 100);
      expect(ten.sort()).toEqual([...Array(6).fill(INCORRECT), ...Array(4).fill(TOO_MANY)].sort());
      expect(await live.send('settings.changePassword', 1, WRONG, 200)).toEqual([TOO_MANY]);
    } finally {
      live.socket.close();
    }
  });

  it('deleting the account checks the password against the same bucket', async ({ scale1: base }) => {
    const member = await registerOver(base, `deleter${Date.now()}`);
    const ten = await batch(base, member.cookie, 'settings.changePassword', 10, WRONG);
    expect(messages(ten.body)).toEqual(Array(10).fill(INCORRECT));
    const res = await api(base, 'POST', '/api/account/delete', member.cookie, {
      password: 'not-my-password',
    });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: TOO_MANY, code: 'TOO_MANY_REQUESTS', reason: 'TOO_MANY_REQUESTS' });
  });
});

describe('the general limit counts every call of a batch (real server, scale 0.01)', () => {
  it('over HTTP: batches of 10 and 2 use the twelve, the next request is 429', async ({ batches: base }) => {
    const member = await registerOver(base, 'counted');
    const get = (calls: number) =>
      fetch(`${base}/trpc/${Array(calls).fill('health.check').join(',')}?batch=1`, {
        headers: { cookie: member.cookie },
      });
    expect((await get(10)).status).toBe(200);
    expect((await get(2)).status).toBe(200);
    const next = await get(1);
    expect(next.status).toBe(429);
    expect(await next.json()).toEqual({
      message: TOO_MANY,
      code: 'TOO_MANY_REQUESTS',
      reason: 'TOO_MANY_REQUESTS',
    });
    expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('a batch refused as too large still counts its calls (real server, scale 0.01)', () => {
  it('11 refused, then 1 more is the twelfth, then 429', async ({ refusals: base }) => {
    const member = await registerOver(base, 'refused');
    const get = (calls: number) =>
      fetch(`${base}/trpc/${Array(calls).fill('health.check').join(',')}?batch=1`, {
        headers: { cookie: member.cookie },
      });
    expect((await get(11)).status).toBe(400);
    expect((await get(1)).status).toBe(200);
    expect((await get(1)).status).toBe(429);
  });
});

describe('the general limit counts every call of a socket message (real server, scale 0.01)', () => {
  it('closes the socket when one message holds more calls than are left', async ({ sockets: base }) => {
    const { cookie } = await registerOver(base, 'counted');
    const live = await openSocket(base, cookie);
    const closed = new Promise<number>((resolve) => live.socket.once('close', (code) => resolve(code)));
    // The upgrade was one; ten calls make eleven, within the twelve.
    expect(await live.send('health.check', 10, {}, 1, 'query')).toEqual(Array(10).fill('ok'));
    // Two more would make thirteen: neither runs, the socket is closed for its rate.
    live.socket.send(
      JSON.stringify([1000, 1001].map((id) => ({ id, method: 'query', params: { path: 'health.check' } }))),
    );
    // The close is the signal; the test's own bound catches a socket left open.
    expect(await closed).toBe(4429);
  });
});
