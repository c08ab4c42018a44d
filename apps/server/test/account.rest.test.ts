/**
 * "Leave with your data" over HTTP: the export rows and the zip download (GET /exports/<id>),
 * and account deletion ending every session, sockets included, on a real listening server.
 */
import { readZip } from '@cubes/api/testing/zip';
import { describe, expect, vi } from 'vitest';
import { it } from './fixtures.js';
import { createPost, registerUser, type TestApp, UNKNOWN_ID } from './harness.js';
import { Events, waitFor } from './live-client.js';

async function exportDone(
  t: TestApp,
  cookie: string,
): Promise<{ id: string; downloadUrl: string; size: number }> {
  return vi.waitFor(
    async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/account/export', headers: { cookie } });
      expect(res.json()).toMatchObject({ status: 'done' });
      return res.json();
    },
    { timeout: 10_000, interval: 25 },
  );
}

describe('GET · POST /api/account/export and GET /exports/{id}', () => {
  it('needs a session', async ({ t }) => {
    for (const [method, url] of [
      ['GET', '/api/account/export'],
      ['POST', '/api/account/export'],
      ['GET', `/exports/${UNKNOWN_ID}`],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({
        message: 'You need to be logged in',
        code: 'UNAUTHORIZED',
        reason: 'LOGIN_REQUIRED',
      });
    }
  });

  it('builds the zip in the background and lets only its owner download it', async ({ t }) => {
    const ann = await registerUser(t.app);
    const ben = await registerUser(t.app);
    await createPost(t.app, ann.cookie, 'Ann’s first cube');
    const none = await t.app.inject({
      method: 'GET',
      url: '/api/account/export',
      headers: { cookie: ann.cookie },
    });
    expect(none.json()).toBeNull();

    const started = await t.app.inject({
      method: 'POST',
      url: '/api/account/export',
      headers: { cookie: ann.cookie },
    });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({
      status: expect.stringMatching(/queued|running|done/),
      downloadUrl: null,
    });
    const done = await exportDone(t, ann.cookie);
    expect(done.downloadUrl).toBe(`/exports/${done.id}`);

    const file = await t.app.inject({
      method: 'GET',
      url: done.downloadUrl,
      headers: { cookie: ann.cookie },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="cubes-data-${ann.user.username}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`),
    );
    expect(file.rawPayload.length).toBe(done.size);
    const files = readZip(file.rawPayload);
    expect(JSON.parse(files.get('profile.json')!.toString())).toMatchObject({ email: ann.input.email });
    expect(JSON.parse(files.get('posts.json')!.toString())).toEqual([
      expect.objectContaining({ content: 'Ann’s first cube' }),
    ]);

    // Someone else's export, a malformed id and an unknown one are all 404.
    for (const url of [done.downloadUrl, '/exports/not-an-id', `/exports/${UNKNOWN_ID}`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: ben.cookie } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({
        message: 'Export not found',
        code: 'NOT_FOUND',
        reason: 'EXPORT_NOT_FOUND',
      });
    }
  });
});

describe('POST /api/account/delete', () => {
  it('needs the password, then ends every session (sockets too) and frees nothing else', async ({
    t,
    live,
  }) => {
    const cat = await registerUser(t.app);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: cat.input.email, password: cat.input.password },
    });
    const otherCookie = login.headers['set-cookie']!.toString().split(';')[0]!;
    const socket = live({ cookie: otherCookie });
    const bell = new Events<unknown>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    await bell.next();

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: { cookie: cat.cookie },
      payload: { password: 'not-my-password' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      message: 'Password is incorrect',
      code: 'BAD_REQUEST',
      reason: 'WRONG_PASSWORD',
    });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: { cookie: cat.cookie },
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'BAD_REQUEST',
      issues: [expect.objectContaining({ path: 'password' })],
    });

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/delete',
      headers: { cookie: cat.cookie },
      payload: { password: cat.input.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(res.cookies.find((c) => c.name === 'cubes_session')?.value).toBe('');

    await waitFor(() => socket.closes.includes(4401), 2_000, 'the other session’s socket to close');
    for (const cookie of [cat.cookie, otherCookie]) {
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
      expect(me.statusCode).toBe(401);
    }
    const relogin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: cat.input.email, password: cat.input.password },
    });
    expect(relogin.statusCode).toBe(401);
    const reuse = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: cat.input });
    expect(reuse.statusCode).toBe(409);
    expect(reuse.json()).toEqual({
      message: 'Username is already taken',
      code: 'CONFLICT',
      reason: 'USERNAME_TAKEN',
    });
    const profile = await t.app.inject({ method: 'GET', url: `/api/users/by-username/${cat.user.username}` });
    expect(profile.statusCode).toBe(404);
  });
});
