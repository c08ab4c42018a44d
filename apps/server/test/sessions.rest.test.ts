/**
 * Settings → Sessions over REST and a real socket: the list (device from the User-Agent, this
 * device first and marked), ending one (its socket closes, its cookie stops working, someone
 * else's session is 404) and "log out everywhere else".
 */
import { describe, expect } from 'vitest';
import { contractError } from './error-shape.js';
import { it, type Live } from './fixtures.js';
import { registerUser, sessionCookie, type TestApp } from './harness.js';
import { Events, type LiveClient, waitFor } from './live-client.js';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface SessionRow {
  id: string;
  device: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

async function login(t: TestApp, email: string, password: string, userAgent: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'user-agent': userAgent },
    payload: { email, password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return sessionCookie(res);
}

async function list(t: TestApp, cookie: string): Promise<SessionRow[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/sessions', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sessions as SessionRow[];
}

async function socketFor(live: Live, cookie: string): Promise<LiveClient> {
  const client = live({ cookie });
  const bell = new Events<unknown>();
  client.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
  await bell.next();
  return client;
}

describe('sessions', () => {
  it('lists your sessions with their device, this one first and marked', async ({ t }) => {
    const { input } = await registerUser(t.app);
    const laptop = await login(t, input.email, input.password, FIREFOX_LINUX);
    await login(t, input.email, input.password, CHROME_ANDROID);
    const sessions = await list(t, laptop);
    // registration made a session too (no User-Agent from inject: "Unknown device")
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toMatchObject({ device: 'Firefox on Linux', current: true });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.map((s) => s.device).sort()).toEqual([
      'Chrome on Android',
      'Firefox on Linux',
      'Unknown device',
    ]);
    for (const s of sessions)
      expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt));
    // nothing of another member's
    const other = await registerUser(t.app);
    expect((await list(t, other.cookie)).map((s) => s.id)).not.toContain(sessions[1]!.id);
  });

  it('ends one session: its socket closes and its cookie stops working; others are untouched', async ({
    t,
    live,
  }) => {
    const { input, cookie: first } = await registerUser(t.app);
    const phone = await login(t, input.email, input.password, SAFARI_IPHONE);
    const phoneSocket = await socketFor(live, phone);
    const firstSocket = await socketFor(live, first);
    const phoneId = (await list(t, phone)).find((s) => s.current)!.id;

    const end = await t.app.inject({
      method: 'DELETE',
      url: `/api/sessions/${phoneId}`,
      headers: { cookie: first },
    });
    expect(end.statusCode, end.body).toBe(200);
    expect(end.json()).toEqual({ ended: 1 });
    await waitFor(() => phoneSocket.closes.includes(4401), 2_000, "the ended session's socket to close");
    expect(firstSocket.closes).toEqual([]);
    const refused = await t.app.inject({ method: 'GET', url: '/api/sessions', headers: { cookie: phone } });
    expect(refused.statusCode).toBe(401);
    expect((await list(t, first)).map((s) => s.id)).not.toContain(phoneId);

    // ended twice, unknown, malformed, or someone else's: 404 in the contract's shape
    const stranger = await registerUser(t.app);
    const firstId = (await list(t, first))[0]!.id;
    for (const [url, cookie] of [
      [`/api/sessions/${phoneId}`, first],
      ['/api/sessions/00000000-0000-4000-8000-000000000000', first],
      ['/api/sessions/not-a-uuid', first],
      [`/api/sessions/${firstId}`, stranger.cookie],
    ] as const) {
      const res = await t.app.inject({ method: 'DELETE', url, headers: { cookie } });
      expect(contractError(res, { method: 'DELETE', url })).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    expect((await list(t, first)).map((s) => s.id)).toContain(firstId);

    // ending this very session is a logout: the cookie is cleared
    const self = await t.app.inject({
      method: 'DELETE',
      url: `/api/sessions/${firstId}`,
      headers: { cookie: first },
    });
    expect(self.statusCode).toBe(200);
    expect(self.cookies.find((c) => c.name === 'cubes_session')?.value).toBe('');
    await waitFor(() => firstSocket.closes.includes(4401), 2_000, "this session's socket to close");
  });

  it('logs out everywhere else, keeping this session and its socket', async ({ t, live }) => {
    const { input, cookie: here } = await registerUser(t.app);
    const elsewhere = [
      await login(t, input.email, input.password, CHROME_ANDROID),
      await login(t, input.email, input.password, SAFARI_IPHONE),
    ];
    const sockets = await Promise.all(elsewhere.map((cookie) => socketFor(live, cookie)));
    const hereSocket = await socketFor(live, here);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sessions/end-others',
      headers: { cookie: here },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    for (const socket of sockets)
      await waitFor(() => socket.closes.includes(4401), 2_000, 'a socket to close');
    expect(hereSocket.closes).toEqual([]);
    const left = await list(t, here);
    expect(left).toHaveLength(1);
    expect(left[0]!.current).toBe(true);
    for (const cookie of elsewhere) {
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/sessions', headers: { cookie } })).statusCode,
      ).toBe(401);
    }
    // again: nothing left to end
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/sessions/end-others',
      headers: { cookie: here },
    });
    expect(again.json()).toEqual({ ended: 0 });
  });

  it('asks for a login', async ({ t }) => {
    for (const [method, url] of [
      ['GET', '/api/sessions'],
      ['POST', '/api/sessions/end-others'],
      ['DELETE', '/api/sessions/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(contractError(res, { method, url })).toMatchObject({ status: 401 });
    }
  });
});
