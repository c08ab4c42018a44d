/**
 * No secrets in the logs: a realistic run — register, log in, a reset code mailed by real SMTP
 * (with SMTP credentials) and used, posts, an upload through its signed URL, direct messages, a
 * live socket, Cubey — against a listening server whose real logger (apps/server/src/logger.ts)
 * writes every level to a stream. Then the whole log is searched for every secret the run
 * handled: passwords, session tokens and their cookies, the reset code, the upload URL's
 * signature and signing secret, the SMTP password.
 */
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createSmtpMailer } from '@cubes/api';
import sharp from 'sharp';
import { SMTPServer } from 'smtp-server';
import { describe, expect, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import { it as withApp } from './fixtures.js';
import { newUserInput, TEST_UPLOAD_SECRET } from './harness.js';
import { Events } from './live-client.js';

const SMTP_USER = 'mailer';
const SMTP_PASSWORD = `smtp-${Math.random().toString(36).slice(2)}-pass`;

let log = '';
const inbox: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    log += chunk.toString();
    done();
  },
});

// An SMTP server of the test's own, with a password that must not reach the log.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none).
const it = withApp.extend('mailer', { scope: 'file' }, async ({}, { onCleanup }) => {
  const smtp = new SMTPServer({
    secure: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: SMTP_USER });
      else callback(new Error('bad credentials'));
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  onCleanup(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  const { port } = smtp.server.address() as AddressInfo;
  return createSmtpMailer({
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    from: 'Cubes AI <no-reply@cubes.test>',
    transport: { secure: false, ignoreTLS: true },
  });
});
// Every level: whatever any line at any level would say is checked.
it.override('appOptions', ({ mailer }) => ({
  config: { logLevel: 'trace' },
  logger: createLogger('trace', { stream }),
  mailer,
}));

function cookieOf(res: Response): { cookie: string; token: string } {
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('cubes_session='))!
    .split(';')[0]!;
  return { cookie, token: cookie.slice('cubes_session='.length) };
}

async function call(base: string, method: string, path: string, cookie: string | null, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return res;
}

describe('the log', () => {
  it('holds none of the secrets a full run handled', async ({ base, live }) => {
    const secrets: Record<string, string> = {
      'upload signing secret': TEST_UPLOAD_SECRET,
      'SMTP password': SMTP_PASSWORD,
    };
    const alice = {
      ...newUserInput('logalice'),
      password: `pw-alice-${Math.random().toString(36).slice(2)}`,
    };
    const bob = { ...newUserInput('logbob'), password: `pw-bob-${Math.random().toString(36).slice(2)}` };
    secrets['alice password'] = alice.password;
    secrets['bob password'] = bob.password;

    const regA = await call(base, 'POST', '/api/auth/register', null, alice);
    expect(regA.status).toBe(201);
    const a1 = cookieOf(regA);
    const aliceId = ((await regA.json()) as { user: { id: string } }).user.id;
    const regB = await call(base, 'POST', '/api/auth/register', null, bob);
    expect(regB.status).toBe(201);
    const b1 = cookieOf(regB);
    secrets['alice register token'] = a1.token;
    secrets['bob register token'] = b1.token;

    // A wrong password, then the right one.
    expect(
      (
        await call(base, 'POST', '/api/auth/login', null, {
          email: alice.email,
          password: `${alice.password}x`,
        })
      ).status,
    ).toBe(401);
    const loginA = await call(base, 'POST', '/api/auth/login', null, {
      email: alice.email,
      password: alice.password,
    });
    expect(loginA.status).toBe(200);
    const a2 = cookieOf(loginA);
    secrets['alice login token'] = a2.token;

    // Posts, a like, a comment; a live socket that hears them.
    const socket = live({ cookie: b1.cookie });
    const bell = new Events<unknown>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    await bell.next();
    const post = await call(base, 'POST', '/api/posts', a2.cookie, { content: 'Hello from the log test' });
    expect(post.status).toBe(201);
    const postId = ((await post.json()) as { post: { id: string } }).post.id;
    expect((await call(base, 'POST', `/api/posts/${postId}/like`, b1.cookie)).status).toBe(200);
    expect(
      (await call(base, 'POST', `/api/posts/${postId}/comments`, b1.cookie, { content: 'Nice' })).status,
    ).toBe(201);

    // An upload through its signed URL.
    const upload = (await (await call(base, 'POST', '/api/objects/upload', a2.cookie)).json()) as {
      uploadURL: string;
    };
    const signature = new URL(upload.uploadURL, base).searchParams;
    for (const [name, value] of signature) if (value.length >= 16) secrets[`upload URL ${name}`] = value;
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const put = await fetch(new URL(upload.uploadURL, base), {
      method: 'PUT',
      body: png,
      headers: { 'content-type': 'image/png' },
    });
    expect(put.status).toBe(200);

    // Direct messages and Cubey.
    const dm = await call(base, 'POST', '/api/messages', b1.cookie, { receiverId: aliceId, content: 'psst' });
    expect(dm.status).toBe(201);
    expect(
      (await call(base, 'POST', '/api/cubey/chat', a2.cookie, { message: 'What is trending?' })).status,
    ).toBe(200);

    // A reset code by SMTP, used; then the new password; a password change; logout.
    const mailsBefore = inbox.length;
    expect((await call(base, 'POST', '/api/auth/forgot-password', null, { email: alice.email })).status).toBe(
      200,
    );
    // The mail goes out after the answer.
    await vi.waitFor(() => expect(inbox.length).toBe(mailsBefore + 1), { timeout: 10_000 });
    const code = /reset code is: (\d{6})/.exec(inbox.at(-1) ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    secrets['reset code'] = code!;
    const newPassword = `pw-new-${Math.random().toString(36).slice(2)}`;
    secrets['new password'] = newPassword;
    // a wrong code first
    const wrong = code === '000000' ? '111111' : '000000';
    expect(
      (
        await call(base, 'POST', '/api/auth/reset-password', null, {
          email: alice.email,
          code: wrong,
          newPassword,
        })
      ).status,
    ).toBe(400);
    expect(
      (await call(base, 'POST', '/api/auth/reset-password', null, { email: alice.email, code, newPassword }))
        .status,
    ).toBe(200);
    const loginAgain = await call(base, 'POST', '/api/auth/login', null, {
      email: alice.email,
      password: newPassword,
    });
    expect(loginAgain.status).toBe(200);
    const a3 = cookieOf(loginAgain);
    secrets['alice token after reset'] = a3.token;
    const changed = `pw-changed-${Math.random().toString(36).slice(2)}`;
    secrets['changed password'] = changed;
    expect(
      (
        await call(base, 'POST', '/api/settings/password', a3.cookie, {
          currentPassword: newPassword,
          newPassword: changed,
        })
      ).status,
    ).toBe(200);
    expect((await call(base, 'POST', '/api/auth/logout', a3.cookie)).status).toBe(200);
    // An old, ended session's cookie: refused, and its token is still not logged.
    expect((await call(base, 'GET', '/api/settings', a1.cookie)).status).toBe(401);
    await socket.close();

    // The log is real and covers the run (requests, mail), and says none of it. A request's line
    // is written once its answer has left: the last one's is there.
    await vi.waitFor(() => expect(log).toMatch(/"url":"\/api\/settings","status":401/), { timeout: 15_000 });
    expect(log).toContain('"msg":"request"');
    expect(log).toContain('/api/auth/reset-password');
    expect(log.split('\n').length).toBeGreaterThan(15);
    const found = Object.entries(secrets).filter(([, value]) =>
      new RegExp(`(^|[^0-9A-Za-z])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^0-9A-Za-z])`).test(log),
    );
    expect(found.map(([name]) => name)).toEqual([]);
    // Nor the cookie header or the raw Set-Cookie.
    expect(log).not.toMatch(/cubes_session=[A-Za-z0-9_-]{20}/);
  });

  it("keeps a database error's SQLSTATE, and still blanks a code that could be a secret", async ({ t }) => {
    const failed = await t.orm.em
      .fork()
      .execute('select 1 / 0')
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failed).toBeInstanceOf(Error);
    t.app.log.error({ err: failed }, 'log test: division');
    t.app.log.error({ err: Object.assign(new Error('log test: six digits'), { code: '482913' }) }, 'six');
    t.app.log.warn({ input: { code: '482913' } }, 'log test: an input');
    const lines = log
      .split('\n')
      .filter((line) => line.includes('log test'))
      .map((line) => JSON.parse(line) as { err?: { code?: string; errorCode?: string } });
    expect(lines).toHaveLength(3);
    // division_by_zero: what an operator needs to tell a bug from a lost database.
    expect(lines[0]!.err).toMatchObject({ code: '[Redacted]', errorCode: '22012' });
    expect(lines[1]!.err).toMatchObject({ code: '[Redacted]' });
    expect(lines[1]!.err).not.toHaveProperty('errorCode');
    expect(log).not.toContain('482913');
  });
});
