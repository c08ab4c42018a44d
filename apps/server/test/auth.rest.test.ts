import { createHash } from 'node:crypto';
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { newUserInput, registerUser, sessionCookie } from './harness.js';

describe('REST /api/auth', () => {
  it('registers with 201, the user shape and a hardened session cookie', async ({ t }) => {
    const input = newUserInput();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: input });
    expect(res.statusCode).toBe(201);
    const { user } = res.json();
    expect(Object.keys(user).sort()).toEqual(
      [
        'avatarUrl',
        'bio',
        'createdAt',
        'displayName',
        'email',
        'emailVisible',
        'headerUrl',
        'id',
        'username',
      ].sort(),
    );
    expect(user).toMatchObject({ username: input.username, email: input.email, emailVisible: false });
    const cookie = res.cookies.find((c) => c.name === 'cubes_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeFalsy();
    const days = (new Date(cookie.expires!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const rows = await t.orm.em
      .fork()
      .getConnection()
      .execute<{ token_hash: string }[]>('select token_hash from sessions where user_id = ?', [user.id]);
    expect(rows[0]?.token_hash).toBe(createHash('sha256').update(cookie.value).digest('hex'));
  });

  it('answers 400 with field issues for invalid registrations', async ({ t }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'ok_name', email: 'not-an-email', password: '123', displayName: '' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: 'password', message: 'Must be at least 6 characters', reason: 'PASSWORD_TOO_SHORT' },
        { path: 'email', message: 'Enter a valid email address', reason: 'EMAIL_INVALID' },
        { path: 'displayName', message: 'Display name is required', reason: 'DISPLAY_NAME_REQUIRED' },
      ]),
    );
    expect(typeof body.message).toBe('string');
    const missing = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues).toHaveLength(4);
  });

  it('answers 409 naming the field for a taken username or email', async ({ t }) => {
    const { input } = await registerUser(t.app);
    const sameName = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...newUserInput(), username: input.username.toUpperCase() },
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toEqual({
      message: 'Username is already taken',
      code: 'CONFLICT',
      reason: 'USERNAME_TAKEN',
    });
    const sameEmail = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...newUserInput(), email: input.email.toUpperCase() },
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toEqual({
      message: 'Email is already registered',
      code: 'CONFLICT',
      reason: 'EMAIL_TAKEN',
    });
  });

  it('logs in, answers me, logs out and forgets the session', async ({ t }) => {
    const { input } = await registerUser(t.app);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: input.email.toUpperCase(), password: input.password },
    });
    expect(login.statusCode).toBe(200);
    const cookie = sessionCookie(login);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.username).toBe(input.username);

    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ ok: true });
    const cleared = logout.cookies.find((c) => c.name === 'cubes_session');
    expect(cleared?.value).toBe('');
    const after = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({
      message: 'You need to be logged in',
      code: 'UNAUTHORIZED',
      reason: 'LOGIN_REQUIRED',
    });
  });

  it('says the same for a wrong password and an unknown email', async ({ t }) => {
    const { input } = await registerUser(t.app);
    for (const payload of [
      { email: input.email, password: 'wrong-one' },
      { email: 'nobody-here@example.com', password: input.password },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        message: 'Invalid email or password',
        code: 'UNAUTHORIZED',
        reason: 'INVALID_CREDENTIALS',
      });
      expect(res.cookies).toHaveLength(0);
    }
  });

  it('rejects expired sessions', async ({ t }) => {
    const { cookie, user } = await registerUser(t.app);
    await t.orm.em
      .fork()
      .getConnection()
      .execute(`update sessions set expires_at = now() - interval '1 second' where user_id = ?`, [user.id]);
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(res.statusCode).toBe(401);
  });

  it('slides the session expiry and re-sends the cookie after an hour of use', async ({ t }) => {
    const { cookie, user } = await registerUser(t.app);
    await t.orm.em
      .fork()
      .getConnection()
      .execute(
        `update sessions set last_seen_at = now() - interval '2 hours', expires_at = now() + interval '1 day' where user_id = ?`,
        [user.id],
      );
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const renewed = res.cookies.find((c) => c.name === 'cubes_session');
    expect(renewed?.value).toBe(cookie.split('=')[1]);
    expect(new Date(renewed!.expires!).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });

  it('works the same through /trpc, with no stack traces in errors', async ({ t }) => {
    const input = newUserInput();
    const reg = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.register',
      payload: { json: input },
    });
    expect(reg.statusCode).toBe(200);
    expect(reg.json().result.data.json.user.username).toBe(input.username);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      payload: { json: { email: input.email, password: 'nope-nope' } },
    });
    expect(bad.statusCode).toBe(401);
    const err = bad.json().error.json;
    expect(err.message).toBe('Invalid email or password');
    expect(JSON.stringify(err)).not.toMatch(/stack|at \//);
  });
});
