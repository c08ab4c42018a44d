import { PasswordReset, Session } from '@cubes/db';
import { describe, expect, it, vi } from 'vitest';
import { callerFor, expectCode, useDatabase } from '../../../test/harness.js';
import type { Context } from '../../context.types.js';
import { createRecordingMailer } from '../../mail/mailer.js';
import { resolveSession } from '../sessions/sessions.service.js';
import { argon2RunCount } from './auth.password.js';
import { FORGOT_PASSWORD_MESSAGE, hashResetCode, RESET_CODE_TTL_MS } from './password-reset.service.js';

const db = useDatabase();

let n = 0;
function newUser() {
  n += 1;
  const id = `reset${n}_${Math.random().toString(36).slice(2, 6)}`;
  return { username: id, email: `${id}@example.com`, password: 'secret12', displayName: `Reset ${n}` };
}

async function registered() {
  const input = newUser();
  const { caller, jar } = callerFor(db.orm);
  const { user } = await caller.auth.register(input);
  return { input, user, jar };
}

function withMailer(overrides: Partial<Context> = {}) {
  const mailer = createRecordingMailer();
  return { mailer, caller: callerFor(db.orm, { token: null }, { mailer, ...overrides }).caller };
}

async function resetRow(userId: string) {
  return db.orm.em.fork().findOne(PasswordReset, { user: userId });
}

/** A code that is not the right one. */
function wrongCode(code: string) {
  return code === '000000' ? '111111' : '000000';
}

describe('auth.forgotPassword', () => {
  it('answers the same for an unknown email and sends nothing', async () => {
    const { mailer, caller } = withMailer();
    expect(await caller.auth.forgotPassword({ email: 'nobody-here@example.com' })).toEqual({
      message: FORGOT_PASSWORD_MESSAGE,
    });
    expect(mailer.sent).toEqual([]);
  });

  it('mails a 6-digit code, stores only its hash for 15 minutes, and a new request replaces it', async () => {
    const { input, user } = await registered();
    const now = new Date();
    const { mailer, caller } = withMailer({ now: () => now });
    expect(await caller.auth.forgotPassword({ email: input.email.toUpperCase() })).toEqual({
      message: FORGOT_PASSWORD_MESSAGE,
    });
    expect(mailer.sent).toHaveLength(1);
    const first = mailer.sent[0]!;
    expect(first.to).toBe(input.email);
    expect(first.code).toMatch(/^\d{6}$/);
    const row = await resetRow(user.id);
    expect(row).toMatchObject({ codeHash: hashResetCode(first.code), attempts: 0 });
    expect(row!.codeHash).not.toContain(first.code);
    expect(row!.expiresAt.getTime()).toBe(now.getTime() + RESET_CODE_TTL_MS);

    await caller.auth.forgotPassword({ email: input.email });
    const second = mailer.sent[1]!;
    const rows = await db.orm.em.fork().find(PasswordReset, { user: user.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.codeHash).toBe(hashResetCode(second.code));
    if (second.code !== first.code) {
      await expectCode(
        caller.auth.resetPassword({ email: input.email, code: first.code, newPassword: 'brandnew1' }),
        'BAD_REQUEST',
        'Invalid or expired code',
      );
    }
  });

  it('mails the code in the account’s language', async () => {
    const { caller: visitor } = callerFor(db.orm);
    const german = newUser();
    await visitor.auth.register({ ...german, language: 'de' });
    const arabic = newUser();
    await callerFor(db.orm).caller.auth.register({ ...arabic, language: 'ar' });
    const { input: english } = await registered();
    const { mailer, caller } = withMailer();
    for (const { email } of [german, arabic, english]) await caller.auth.forgotPassword({ email });
    expect(mailer.sent.map(({ to, language }) => ({ to, language }))).toEqual([
      { to: german.email, language: 'de' },
      { to: arabic.email, language: 'ar' },
      { to: english.email, language: 'en' },
    ]);
  });

  it('still answers 200 when the mail cannot be sent', async () => {
    const { input } = await registered();
    const errors: string[] = [];
    const { caller } = callerFor(
      db.orm,
      { token: null },
      {
        mailer: {
          ...createRecordingMailer(),
          sendPasswordReset: async () => {
            throw new Error('SMTP down');
          },
        },
        logError: (message) => errors.push(message),
      },
    );
    expect(await caller.auth.forgotPassword({ email: input.email })).toEqual({
      message: FORGOT_PASSWORD_MESSAGE,
    });
    await vi.waitFor(() => expect(errors).toEqual(['password reset mail failed']));
  });

  it('answers without waiting for the mail to go out', async () => {
    const { input } = await registered();
    let delivered: (() => void) | undefined;
    const sending: string[] = [];
    const { caller } = callerFor(
      db.orm,
      { token: null },
      {
        mailer: {
          ...createRecordingMailer(),
          // A mail server that takes the mail only when the test says so.
          sendPasswordReset: (to) => {
            sending.push(to);
            return new Promise<void>((resolve) => {
              delivered = resolve;
            });
          },
        },
      },
    );
    expect(await caller.auth.forgotPassword({ email: input.email })).toEqual({
      message: FORGOT_PASSWORD_MESSAGE,
    });
    // Answered while the mail is still on its way: an existing account answers as an unknown one.
    expect(sending).toEqual([input.email]);
    expect(delivered).toBeTypeOf('function');
    delivered!();
  });

  it('counts forgot and reset per IP and per lowercased email', async () => {
    const hits: string[] = [];
    const { caller } = callerFor(
      db.orm,
      { token: null },
      {
        ip: '10.9.8.7',
        mailer: createRecordingMailer(),
        rateLimit: async (bucket, key) => {
          hits.push(`${bucket}:${key}`);
          return hits.length > 4 ? { allowed: false, retryAfterSeconds: 60 } : { allowed: true };
        },
      },
    );
    await caller.auth.forgotPassword({ email: 'Someone@Example.com' });
    await expectCode(
      caller.auth.resetPassword({ email: 'SOMEONE@example.com', code: '123456', newPassword: 'brandnew1' }),
      'BAD_REQUEST',
    );
    await expectCode(caller.auth.forgotPassword({ email: 'someone@example.com' }), 'TOO_MANY_REQUESTS');
    expect(hits).toEqual([
      'passwordResetIp:10.9.8.7',
      'passwordReset:someone@example.com',
      'passwordResetIp:10.9.8.7',
      'passwordReset:someone@example.com',
      'passwordResetIp:10.9.8.7',
    ]);
  });
});

describe('auth.resetPassword', () => {
  it('validates the code format and the new password', async () => {
    const { caller } = withMailer();
    await expectCode(
      caller.auth.resetPassword({ email: 'a@example.com', code: '12345', newPassword: 'brandnew1' }),
      'BAD_REQUEST',
      'Code must be 6 digits',
    );
    await expectCode(
      caller.auth.resetPassword({ email: 'a@example.com', code: '12345a', newPassword: 'brandnew1' }),
      'BAD_REQUEST',
      'Code must be 6 digits',
    );
    await expectCode(
      caller.auth.resetPassword({ email: 'a@example.com', code: '123456', newPassword: '123' }),
      'BAD_REQUEST',
      'Must be at least 6 characters',
    );
  });

  it('says the same for an unknown email and for an account without a code', async () => {
    const { input } = await registered();
    const { caller } = withMailer();
    for (const email of ['nobody-at-all@example.com', input.email]) {
      await expectCode(
        caller.auth.resetPassword({ email, code: '123456', newPassword: 'brandnew1' }),
        'BAD_REQUEST',
        'Invalid or expired code',
      );
    }
  });

  it('refuses an expired code (16 minutes later)', async () => {
    const { input, user } = await registered();
    const start = Date.now();
    const { mailer, caller } = withMailer({ now: () => new Date(start) });
    await caller.auth.forgotPassword({ email: input.email });
    const later = withMailer({ now: () => new Date(start + 16 * 60 * 1000) }).caller;
    await expectCode(
      later.auth.resetPassword({ email: input.email, code: mailer.sent[0]!.code, newPassword: 'brandnew1' }),
      'BAD_REQUEST',
      'Invalid or expired code',
    );
    expect(await resetRow(user.id)).toBeNull();
    await callerFor(db.orm).caller.auth.login(input);
  });

  it('does the same work for an unknown address as for a wrong, expired or missing code', async () => {
    const { input } = await registered();
    const { input: withoutCode } = await registered();
    const { input: expired } = await registered();
    const start = Date.now();
    const { mailer, caller } = withMailer({ now: () => new Date(start) });
    await caller.auth.forgotPassword({ email: input.email });
    await caller.auth.forgotPassword({ email: expired.email });
    const code = mailer.sent[0]!.code;
    const later = withMailer({ now: () => new Date(start + 16 * 60 * 1000) }).caller;
    // Warm up whatever is made once per process (a dummy hash), so only per-request work counts.
    await expectCode(
      caller.auth.resetPassword({ email: 'warm-up@example.com', code: '123456', newPassword: 'brandnew1' }),
      'BAD_REQUEST',
    );
    const work = async (call: Promise<unknown>) => {
      const before = argon2RunCount();
      await call.catch(() => {});
      return argon2RunCount() - before;
    };
    const tries = {
      unknown: await work(
        caller.auth.resetPassword({
          email: 'nobody-timing@example.com',
          code: '123456',
          newPassword: 'brandnew1',
        }),
      ),
      noCode: await work(
        caller.auth.resetPassword({ email: withoutCode.email, code: '123456', newPassword: 'brandnew1' }),
      ),
      expired: await work(
        later.auth.resetPassword({
          email: expired.email,
          code: mailer.sent[1]!.code,
          newPassword: 'brandnew1',
        }),
      ),
      wrongCode: await work(
        caller.auth.resetPassword({ email: input.email, code: wrongCode(code), newPassword: 'brandnew1' }),
      ),
      rightCode: await work(
        caller.auth.resetPassword({ email: input.email, code, newPassword: 'brandnew1' }),
      ),
    };
    expect(tries).toEqual({ unknown: 1, noCode: 1, expired: 1, wrongCode: 1, rightCode: 1 });
  });

  it('counts wrong codes and kills the code at the fifth', async () => {
    const { input, user } = await registered();
    const { mailer, caller } = withMailer();
    await caller.auth.forgotPassword({ email: input.email });
    const code = mailer.sent[0]!.code;
    for (let i = 1; i <= 5; i += 1) {
      await expectCode(
        caller.auth.resetPassword({ email: input.email, code: wrongCode(code), newPassword: 'brandnew1' }),
        'BAD_REQUEST',
        'Invalid or expired code',
      );
      const row = await resetRow(user.id);
      if (i < 5) expect(row?.attempts).toBe(i);
      else expect(row).toBeNull();
    }
    await expectCode(
      caller.auth.resetPassword({ email: input.email, code, newPassword: 'brandnew1' }),
      'BAD_REQUEST',
      'Invalid or expired code',
    );
    await callerFor(db.orm).caller.auth.login(input);
  });

  it('sets the new password, deletes the code and revokes every session', async () => {
    const { input, user, jar } = await registered();
    const second = callerFor(db.orm);
    await second.caller.auth.login(input);
    const em = db.orm.em.fork();
    expect(await em.count(Session, { user: user.id })).toBe(2);

    const { mailer, caller } = withMailer();
    await caller.auth.forgotPassword({ email: input.email });
    const code = mailer.sent[0]!.code;
    // A wrong try before the right one does not spoil the code.
    await expectCode(
      caller.auth.resetPassword({ email: input.email, code: wrongCode(code), newPassword: 'brandnew1' }),
      'BAD_REQUEST',
    );
    expect(await caller.auth.resetPassword({ email: input.email, code, newPassword: 'brandnew1' })).toEqual({
      message: 'Password reset successfully',
    });
    expect(await resetRow(user.id)).toBeNull();
    expect(await em.fork().count(Session, { user: user.id })).toBe(0);
    expect(await resolveSession(em.fork(), jar.token!, new Date())).toBeNull();

    await expectCode(callerFor(db.orm).caller.auth.login(input), 'UNAUTHORIZED', 'Invalid email or password');
    const { user: again } = await callerFor(db.orm).caller.auth.login({
      email: input.email,
      password: 'brandnew1',
    });
    expect(again.id).toBe(user.id);
    // The code worked once.
    await expectCode(
      caller.auth.resetPassword({ email: input.email, code, newPassword: 'another1' }),
      'BAD_REQUEST',
      'Invalid or expired code',
    );
  });
});
