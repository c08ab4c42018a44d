/** Reset codes by real SMTP: a local smtp-server receives the mail the REST path sends. */
import { describe, expect, vi } from 'vitest';
import { withSmtpInbox } from './fixtures.js';
import { newUserInput, registerUser } from './harness.js';
import { readMail } from './smtp-inbox.js';

const it = withSmtpInbox();

describe('password reset by SMTP', () => {
  it('mails the code, which resets the password through REST', async ({ t, inbox }) => {
    const { input } = await registerUser(t.app);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: input.email },
    });
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json()).toEqual({
      message: 'If an account exists for that email, a reset code has been sent.',
    });

    // The mail goes out after the answer.
    await vi.waitFor(() => expect(inbox.mails).toHaveLength(1), { timeout: 10_000 });
    const mail = inbox.mails[0]!;
    expect(mail.to).toEqual([input.email]);
    expect(mail.raw).toMatch(/^Subject: Your Cubes AI reset code\r?$/m);
    expect(mail.raw).toMatch(/^From: Cubes AI <no-reply@cubes\.test>\r?$/m);
    expect(mail.raw).toMatch(/text\/plain/);
    expect(mail.raw).toMatch(/text\/html/);
    expect(mail.raw).toMatch(/15 minutes/);
    const code = /reset code is: (\d{6})/.exec(mail.raw)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: input.email, code, newPassword: 'brandnew1' },
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ message: 'Password reset successfully' });

    const oldLogin = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: input });
    expect(oldLogin.statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: input.email, password: 'brandnew1' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('mails the code in the account’s language: German, Arabic (right to left), English', async ({
    t,
    inbox,
  }) => {
    const forgot = async (language?: 'de' | 'ar') => {
      const input = newUserInput(language ?? 'en');
      const body = language ? { ...input, language } : input;
      await registerUser(t.app, body);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: input.email },
      });
      expect(res.statusCode).toBe(200);
      await vi.waitFor(() => expect(inbox.to(input.email)).toHaveLength(1), { timeout: 10_000 });
      return readMail(inbox.to(input.email)[0]!);
    };

    const german = await forgot('de');
    expect(german.subject).toBe('Dein Code zum Zurücksetzen des Passworts bei Cubes AI');
    const germanCode = /lautet: (\d{6})\n/.exec(german.text)?.[1];
    expect(germanCode).toMatch(/^\d{6}$/);
    expect(german.text).toContain('Der Code ist 15 Minuten lang gültig.');
    expect(german.text).not.toMatch(/password reset code|valid for/);
    expect(german.html).toMatch(/^<div lang="de">/);
    expect(german.html).toContain(`>${germanCode}</p>`);

    const arabic = await forgot('ar');
    expect(arabic.subject).toBe('رمز إعادة تعيين كلمة المرور في Cubes AI');
    const arabicCode = /هو: (\d{6})\n/.exec(arabic.text)?.[1];
    expect(arabicCode).toMatch(/^\d{6}$/);
    expect(arabic.text).toContain('الرمز صالح لمدة 15 دقيقة.');
    expect(arabic.html).toMatch(/^<div dir="rtl" lang="ar">\n<p>رمز إعادة تعيين كلمة المرور/);
    expect(arabic.html).toContain(`>${arabicCode}</p>`);

    const english = await forgot();
    expect(english.subject).toBe('Your Cubes AI reset code');
    expect(english.text).toMatch(
      /^Your Cubes AI password reset code is: \d{6}\n\nThe code is valid for 15 minutes\./,
    );
    expect(english.html).toMatch(/^<p>Your Cubes AI password reset code is:<\/p>/);
  });

  it('answers the same for an unknown email and sends nothing', async ({ t, inbox }) => {
    const before = inbox.mails.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'nobody-smtp@example.com' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'If an account exists for that email, a reset code has been sent.',
    });
    // Nothing goes out later either: a mail to a known address, asked for after this one, arrives
    // and is the only new one.
    const { input } = await registerUser(t.app);
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: input.email } });
    await vi.waitFor(() => expect(inbox.to(input.email)).toHaveLength(1), { timeout: 15_000 });
    expect(inbox.mails.slice(before).map((m) => m.to)).toEqual([[input.email]]);
  });
});
