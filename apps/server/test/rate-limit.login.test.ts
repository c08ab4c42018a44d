/**
 * Login's per-account bucket (issue #26): 30 tries per 15 minutes for one account, whatever the
 * addresses they come from, so many machines together cannot guess its password; the per-IP
 * buckets stay. The owner locked out by it can still reset their password, and then log in.
 */
import { createRecordingMailer } from '@cubes/api';
import { describe, expect } from 'vitest';
import { itWith } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';

const mailer = createRecordingMailer();
const it = itWith({ config: { rateLimitScale: 1 }, mailer });

const TOO_MANY = {
  message: 'Too many requests, please try again later',
  code: 'TOO_MANY_REQUESTS',
  reason: 'TOO_MANY_REQUESTS',
};

describe('login per account (scale 1)', () => {
  const login = (t: TestApp, email: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

  it('locks an account after 30 tries from 30 addresses; a reset lets the owner in again', async ({ t }) => {
    const { input } = await registerUser(t.app);
    for (let i = 1; i <= 30; i += 1) {
      const res = await login(t, input.email, `guess-${i}-wrong`, `10.1.0.${i}`);
      expect(res.statusCode, res.body).toBe(401);
    }
    // The 31st try, even with the right password from an address never seen, is refused.
    const locked = await login(t, input.email.toUpperCase(), input.password, '10.2.0.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual(TOO_MANY);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);

    // The owner asks for a code and sets a new password: its own buckets, not login's.
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: input.email },
      remoteAddress: '10.3.0.1',
    });
    expect(forgot.statusCode, forgot.body).toBe(200);
    const code = mailer.sent.find((m) => m.to === input.email)?.code;
    expect(code).toMatch(/^\d{6}$/);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: input.email, code, newPassword: 'brand-new-secret' },
      remoteAddress: '10.3.0.1',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // A new password is a new count: the owner gets in.
    const back = await login(t, input.email, 'brand-new-secret', '10.3.0.1');
    expect(back.statusCode, back.body).toBe(200);
  });

  it('counts an address without an account the same way', async ({ t }) => {
    for (let i = 1; i <= 30; i += 1) {
      const res = await login(t, 'nobody-here@example.com', 'whatever-1', `10.4.0.${i}`);
      expect(res.statusCode, res.body).toBe(401);
    }
    const res = await login(t, 'nobody-here@example.com', 'whatever-1', '10.5.0.1');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual(TOO_MANY);
  });
});
