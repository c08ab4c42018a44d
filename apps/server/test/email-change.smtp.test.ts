/**
 * Changing the e-mail address through REST with a real SMTP server: the code goes to the new
 * address and the old address stays until it comes back; a taken address gets the same answer
 * (its owner gets a notice, nobody a code); the per-account limit of docs/api.md holds.
 */
import { describe, expect, vi } from 'vitest';
import { withSmtpInbox } from './fixtures.js';
import { newUserInput, registerUser, sessionCookie, type TestApp } from './harness.js';
import { readMail, type SmtpInbox } from './smtp-inbox.js';

/** The limits' app (scale 1) mails to the same inbox. */
const it = withSmtpInbox().extend('limited', { scope: 'file' }, ({ appWith, inbox }) =>
  appWith({ config: { rateLimitScale: 1 }, mailer: inbox.mailer }),
);

function post(t: TestApp, url: string, cookie: string | null, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
}

async function me(t: TestApp, cookie: string) {
  return t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
}

async function mailTo(inbox: SmtpInbox, address: string) {
  await vi.waitFor(() => expect(inbox.to(address)).toHaveLength(1), { timeout: 10_000 });
  return inbox.to(address)[0]!;
}

describe('POST /api/settings/email + /api/settings/email/confirm (real SMTP)', () => {
  it('mails a code to the new address; the old address stays until the code is entered', async ({
    t,
    inbox,
  }) => {
    const { input, user, cookie } = await registerUser(t.app);
    const elsewhere = sessionCookie(await post(t, '/api/auth/login', null, input));
    const fresh = newUserInput('fresh').email;

    const asked = await post(t, '/api/settings/email', cookie, { email: fresh, password: input.password });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({
      message: `We sent a code to ${fresh}. Enter it to confirm the change.`,
      pendingEmail: fresh,
    });

    const mail = await mailTo(inbox, fresh);
    expect(mail.raw).toMatch(/^Subject: Confirm your new Cubes AI email address\r?$/m);
    const code = /confirmation code is: (\d{6})/.exec(mail.raw)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(inbox.to(input.email)).toEqual([]);

    // Until confirmed: the old address is the account's, for login and for a password reset.
    expect((await me(t, cookie)).json().user.email).toBe(input.email);
    expect((await post(t, '/api/auth/login', null, input)).statusCode).toBe(200);
    expect(
      (await post(t, '/api/auth/login', null, { email: fresh, password: input.password })).statusCode,
    ).toBe(401);

    const wrong = code === '000000' ? '111111' : '000000';
    const bad = await post(t, '/api/settings/email/confirm', cookie, { code: wrong });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      message: 'Invalid or expired code',
      code: 'BAD_REQUEST',
      reason: 'INVALID_CODE',
    });

    const confirmed = await post(t, '/api/settings/email/confirm', cookie, { code });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().user).toMatchObject({ id: user.id, email: fresh });
    expect((await me(t, cookie)).json().user.email).toBe(fresh);
    // The other sessions ended; this one stays.
    expect((await me(t, elsewhere)).statusCode).toBe(401);
    expect((await post(t, '/api/auth/login', null, input)).statusCode).toBe(401);
    expect(
      (await post(t, '/api/auth/login', null, { email: fresh, password: input.password })).statusCode,
    ).toBe(200);

    const again = await post(t, '/api/settings/email/confirm', cookie, { code });
    expect(again.statusCode).toBe(400);
  });

  it('mails the code in the member’s language', async ({ t, inbox }) => {
    const { input, cookie } = await registerUser(t.app);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      payload: { language: 'de' },
      headers: { cookie },
    });
    expect(put.statusCode, put.body).toBe(200);
    const fresh = newUserInput('neu').email;
    const asked = await post(t, '/api/settings/email', cookie, { email: fresh, password: input.password });
    expect(asked.statusCode).toBe(202);

    const mail = readMail(await mailTo(inbox, fresh));
    expect(mail.subject).toBe('Bestätige deine neue E-Mail-Adresse bei Cubes AI');
    const code = /lautet: (\d{6})\n/.exec(mail.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain('Gib ihn in den Einstellungen ein');
    expect(mail.html).toMatch(/^<div lang="de">/);
    expect(mail.html).toContain(`>${code}</p>`);

    const confirmed = await post(t, '/api/settings/email/confirm', cookie, { code });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().user.email).toBe(fresh);
  });

  it('answers alike for a taken address: its owner gets a notice without a code, and nothing changes', async ({
    t,
    inbox,
  }) => {
    const owner = await registerUser(t.app);
    const asker = await registerUser(t.app);
    const free = newUserInput('free').email;

    const forFree = await post(t, '/api/settings/email', asker.cookie, {
      email: free,
      password: asker.input.password,
    });
    const forTaken = await post(t, '/api/settings/email', asker.cookie, {
      email: owner.input.email,
      password: asker.input.password,
    });
    expect(forTaken.statusCode).toBe(forFree.statusCode);
    expect(forTaken.statusCode).toBe(202);
    expect(Object.keys(forTaken.json())).toEqual(Object.keys(forFree.json()));
    expect(forTaken.json().message).toBe(
      `We sent a code to ${owner.input.email}. Enter it to confirm the change.`,
    );

    await mailTo(inbox, free);
    const notice = await mailTo(inbox, owner.input.email);
    expect(notice.raw).toMatch(/^Subject: Someone tried to use this address on Cubes AI\r?$/m);
    const body = notice.raw.replace(/=\r?\n/g, ''); // undo quoted-printable soft line breaks
    expect(body).toMatch(/already belongs to a Cubes AI account/);
    expect(body).not.toMatch(/code is:/);
    // The pending change is now the taken address (the later request replaced the first): no code
    // was sent for it, so it cannot be confirmed, and both accounts keep their addresses.
    const guess = await post(t, '/api/settings/email/confirm', asker.cookie, { code: '123456' });
    expect(guess.statusCode).toBe(400);
    expect((await me(t, asker.cookie)).json().user.email).toBe(asker.input.email);
    expect((await me(t, owner.cookie)).json().user.email).toBe(owner.input.email);
  });

  it('validates the code', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const res = await post(t, '/api/settings/email/confirm', cookie, { code: '12ab' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'Code must be 6 digits',
      code: 'BAD_REQUEST',
      reason: 'CODE_INVALID_FORMAT',
    });
    expect((await post(t, '/api/settings/email/confirm', null, { code: '123456' })).statusCode).toBe(401);
  });
});

describe('e-mail change limits (scale 1)', () => {
  it('allows 5 requests and code tries an hour per account, then 429 with Retry-After', async ({
    limited,
  }) => {
    const { input, cookie } = await registerUser(limited.app);
    const send = (url: string, payload: Record<string, unknown>) =>
      limited.app.inject({ method: 'POST', url, payload, headers: { cookie } });
    for (let i = 0; i < 3; i += 1) {
      const res = await send('/api/settings/email', {
        email: newUserInput('lim').email,
        password: input.password,
      });
      expect(res.statusCode).toBe(202);
    }
    for (let i = 0; i < 2; i += 1) {
      expect((await send('/api/settings/email/confirm', { code: '000000' })).statusCode).toBe(400);
    }
    const over = await send('/api/settings/email/confirm', { code: '000000' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      message: 'Too many requests, please try again later',
      code: 'TOO_MANY_REQUESTS',
      reason: 'TOO_MANY_REQUESTS',
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const request = await send('/api/settings/email', {
      email: newUserInput('lim').email,
      password: input.password,
    });
    expect(request.statusCode).toBe(429);
    // Another account is not affected.
    const other = await registerUser(limited.app);
    const res = await limited.app.inject({
      method: 'POST',
      url: '/api/settings/email',
      payload: { email: newUserInput('lim').email, password: other.input.password },
      headers: { cookie: other.cookie },
    });
    expect(res.statusCode).toBe(202);
  });

  it('counts wrong passwords against the password-check limit (10 / 15 min per account)', async ({
    limited,
  }) => {
    // passwordCheck is 10 but emailChange (5) is counted first, so the 6th request is the 429.
    const { cookie } = await registerUser(limited.app);
    for (let i = 0; i < 5; i += 1) {
      const res = await limited.app.inject({
        method: 'POST',
        url: '/api/settings/email',
        payload: { email: newUserInput('pw').email, password: 'wrong-one' },
        headers: { cookie },
      });
      expect(res.statusCode).toBe(400);
    }
    const res = await limited.app.inject({
      method: 'POST',
      url: '/api/settings/email',
      payload: { email: newUserInput('pw').email, password: 'wrong-one' },
      headers: { cookie },
    });
    expect(res.statusCode).toBe(429);
  });
});
