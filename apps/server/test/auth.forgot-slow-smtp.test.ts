/**
 * forgot-password answers before the mail goes out: with an SMTP server that holds every
 * connection for 3 s, an address with an account answers as fast as one without (well under the
 * 3 s), and the code still arrives afterwards. Timings are compared loosely, never to the ms.
 */
import { describe, expect, vi } from 'vitest';
import { withSmtpInbox } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';

const HOLD_MS = 3_000;
const it = withSmtpInbox({ greetAfterMs: HOLD_MS });

async function timedForgot(t: TestApp, email: string) {
  const started = performance.now();
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
  return { res, ms: performance.now() - started };
}

describe('forgot-password with a slow mail server', () => {
  it('answers an existing account as fast as an unknown one, and mails the code afterwards', async ({
    t,
    inbox,
  }) => {
    const { input } = await registerUser(t.app);
    const unknown = await timedForgot(t, 'nobody-slow-smtp@example.com');
    const known = await timedForgot(t, input.email);
    expect(known.res.statusCode).toBe(200);
    expect(known.res.json()).toEqual(unknown.res.json());
    expect(unknown.ms).toBeLessThan(HOLD_MS / 2);
    expect(known.ms).toBeLessThan(HOLD_MS / 2);
    expect(inbox.mails).toHaveLength(0);
    // The mail server takes it once it greets.
    await vi.waitFor(() => expect(inbox.to(input.email)).toHaveLength(1), { timeout: 15_000, interval: 100 });
    expect(inbox.mails).toHaveLength(1);
  }, 30_000);
});
