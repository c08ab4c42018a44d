import { EmailChange, PasswordReset, Session, User } from '@cubes/db';
import { describe, expect, it } from 'vitest';
import { callerFor, expectCode, publicObject, useDatabase } from '../../../test/harness.js';
import type { Context } from '../../context.types.js';
import { createRecordingMailer } from '../../mail/mailer.js';
import { hashResetCode } from '../auth/password-reset.service.js';
import { resolveSession } from '../sessions/sessions.service.js';

const db = useDatabase();

let n = 0;
function newUser() {
  n += 1;
  const id = `set${n}_${Math.random().toString(36).slice(2, 6)}`;
  return { username: id, email: `${id}@example.com`, password: 'secret12', displayName: `Settings ${n}` };
}

/** A registered user with a real session, and a caller carrying it. */
async function signedIn(input = newUser()) {
  const { caller, jar } = callerFor(db.orm);
  const { user } = await caller.auth.register(input);
  const session = await resolveSession(db.orm.em.fork(), jar.token!, new Date());
  return { input, user, jar, session: session!, caller: callerFor(db.orm, jar, { session }).caller };
}

describe('settings.get / settings.update', () => {
  it('returns the caller’s settings including the private email', async () => {
    const { input, caller } = await signedIn();
    expect(await caller.settings.get()).toEqual({
      username: input.username,
      displayName: input.displayName,
      email: input.email,
      bio: null,
      avatarUrl: null,
      headerUrl: null,
      emailVisible: false,
      messagesFrom: 'everyone',
      alwaysShowContentWarnings: false,
      alwaysShowSensitiveMedia: false,
      language: 'en',
    });
  });

  it('keeps the member’s language: English by default, changed alone, carried by auth.me', async () => {
    const { user, caller } = await signedIn();
    await caller.settings.update({ bio: 'Hallo', alwaysShowSensitiveMedia: true });
    const before = await caller.settings.get();
    expect(before.language).toBe('en');
    expect((await caller.auth.me()).language).toBe('en');

    await caller.settings.update({ language: 'de' });
    expect(await caller.settings.get()).toEqual({ ...before, language: 'de' });
    expect((await caller.auth.me()).language).toBe('de');
    expect(await caller.auth.session()).toMatchObject({ language: 'de' });
    expect((await db.orm.em.fork().findOneOrFail(User, { id: user.id })).language).toBe('de');

    // A field left out stays as it is.
    await caller.settings.update({ bio: 'Marhaba' });
    expect(await caller.settings.get()).toMatchObject({ bio: 'Marhaba', language: 'de' });

    await caller.settings.update({ language: 'ar' });
    expect((await caller.settings.get()).language).toBe('ar');
    await caller.settings.update({ language: 'en' });
    expect((await caller.settings.get()).language).toBe('en');
  });

  it('refuses any language but en, de and ar, and changes nothing', async () => {
    const { caller } = await signedIn();
    await caller.settings.update({ language: 'de' });
    const before = await caller.settings.get();
    for (const bad of [
      42,
      true,
      null,
      ['de'],
      'fr',
      'DE',
      'de ',
      '',
      '\u0000',
      'de\u0000',
      'x'.repeat(70_000),
    ]) {
      await expectCode(
        caller.settings.update({ language: bad as never, displayName: 'Changed' }),
        'BAD_REQUEST',
        'Choose English, Deutsch or العربية',
      );
    }
    expect(await caller.settings.get()).toEqual(before);
  });

  it('updates only the fields sent', async () => {
    const { input, caller, user } = await signedIn();
    const avatar = await publicObject(db.orm, user.id);
    const header = await publicObject(db.orm, user.id);
    const first = await caller.settings.update({
      bio: 'Hello there',
      avatarUrl: avatar,
      headerUrl: header,
    });
    expect(first.user).toMatchObject({
      id: user.id,
      displayName: input.displayName,
      bio: 'Hello there',
      avatarUrl: avatar,
      headerUrl: header,
      emailVisible: false,
    });
    const second = await caller.settings.update({
      displayName: 'New Name',
      emailVisible: true,
      headerUrl: '',
    });
    expect(second.user).toMatchObject({
      displayName: 'New Name',
      bio: 'Hello there',
      avatarUrl: avatar,
      headerUrl: null,
      emailVisible: true,
    });
    await caller.settings.update({ avatarUrl: null });
    const row = await db.orm.em.fork().findOneOrFail(User, { id: user.id });
    expect(row).toMatchObject({
      displayName: 'New Name',
      bio: 'Hello there',
      avatarUrl: null,
      emailVisible: true,
    });
  });

  it('validates display name, bio and image URLs', async () => {
    const { caller } = await signedIn();
    await expectCode(
      caller.settings.update({ displayName: '  ' }),
      'BAD_REQUEST',
      'Display name is required',
    );
    await expectCode(
      caller.settings.update({ displayName: 'x'.repeat(51) }),
      'BAD_REQUEST',
      'Display name must be at most 50 characters',
    );
    await expectCode(
      caller.settings.update({ bio: 'x'.repeat(501) }),
      'BAD_REQUEST',
      'Bio must be at most 500 characters',
    );
    // Only our own uploads: a URL of another site would be fetched by every viewer's browser.
    for (const bad of [
      'https://example.com/a.png',
      'http://127.0.0.1:9/a.png',
      '//evil.example/a.png',
      '/\\evil.example/a.png',
      'javascript:alert(1)',
      'ftp://example.com/a.png',
      'not a url',
      '/objects/../etc/passwd',
      'https://example.com/objects/uploads/a',
    ]) {
      for (const field of ['avatarUrl', 'headerUrl'] as const) {
        await expectCode(
          caller.settings.update({ [field]: bad }),
          'BAD_REQUEST',
          'Must be an image you uploaded',
        );
      }
    }
    await expectCode(
      caller.settings.update({ headerUrl: 'data:image/png;base64,AAAA' }),
      'BAD_REQUEST',
      'Must be an image you uploaded',
    );
    expect(await caller.settings.get()).toMatchObject({ avatarUrl: null, headerUrl: null });
    expect((await caller.settings.update({ bio: 'x'.repeat(500) })).user.bio).toHaveLength(500);
  });

  it('takes an /objects/ path only when it is the caller’s own public upload', async () => {
    const { caller } = await signedIn();
    const other = await signedIn();
    for (const avatarUrl of [await publicObject(db.orm, other.user.id), '/objects/uploads/unknown']) {
      await expectCode(
        caller.settings.update({ avatarUrl }),
        'BAD_REQUEST',
        'Profile picture must be an image you uploaded',
      );
      await expectCode(
        caller.settings.update({ headerUrl: avatarUrl }),
        'BAD_REQUEST',
        'Banner must be an image you uploaded',
      );
    }
  });

  it('needs a login', async () => {
    const visitor = callerFor(db.orm).caller;
    await expectCode(visitor.settings.get(), 'UNAUTHORIZED');
    await expectCode(visitor.settings.update({ bio: 'x' }), 'UNAUTHORIZED');
    await expectCode(
      visitor.settings.changePassword({ currentPassword: 'secret12', newPassword: 'secret34' }),
      'UNAUTHORIZED',
    );
    await expectCode(
      visitor.settings.changeEmail({ email: 'a@example.com', password: 'secret12' }),
      'UNAUTHORIZED',
    );
  });
});

describe('settings.changePassword', () => {
  it('rejects a wrong current password and a short new one', async () => {
    const { caller } = await signedIn();
    await expectCode(
      caller.settings.changePassword({ currentPassword: 'wrong-one', newPassword: 'brandnew1' }),
      'BAD_REQUEST',
      'Current password is incorrect',
    );
    await expectCode(
      caller.settings.changePassword({ currentPassword: 'secret12', newPassword: '12345' }),
      'BAD_REQUEST',
      'Must be at least 6 characters',
    );
  });

  it('changes the password, keeps the current session and revokes the others', async () => {
    const { input, caller, jar } = await signedIn();
    const other = callerFor(db.orm);
    await other.caller.auth.login(input);
    expect(await resolveSession(db.orm.em.fork(), other.jar.token!, new Date())).not.toBeNull();

    expect(
      await caller.settings.changePassword({ currentPassword: input.password, newPassword: 'brandnew1' }),
    ).toEqual({
      message: 'Password changed successfully',
    });
    const em = db.orm.em.fork();
    expect(await resolveSession(em, jar.token!, new Date())).not.toBeNull();
    expect(await resolveSession(em, other.jar.token!, new Date())).toBeNull();

    await expectCode(callerFor(db.orm).caller.auth.login(input), 'UNAUTHORIZED');
    await callerFor(db.orm).caller.auth.login({ email: input.email, password: 'brandnew1' });
  });
});

describe('settings.changeEmail / settings.confirmEmailChange', () => {
  /** A signed-in member whose caller records mail and may carry a clock and a rate limiter. */
  async function mailing(overrides: Partial<Context> = {}) {
    const member = await signedIn();
    const mailer = createRecordingMailer();
    const { caller, ctx } = callerFor(db.orm, member.jar, { session: member.session, mailer, ...overrides });
    return { ...member, mailer, caller, ctx };
  }

  async function pendingRow(userId: string) {
    return db.orm.em.fork().findOne(EmailChange, { user: userId });
  }

  async function storedEmail(userId: string) {
    return (await db.orm.em.fork().findOneOrFail(User, { id: userId })).email;
  }

  it('needs the right password and a valid address', async () => {
    const { caller, mailer } = await mailing();
    await expectCode(
      caller.settings.changeEmail({ email: 'fresh@example.com', password: 'wrong-one' }),
      'BAD_REQUEST',
      'Password is incorrect',
    );
    await expectCode(
      caller.settings.changeEmail({ email: 'not-an-email', password: 'secret12' }),
      'BAD_REQUEST',
      'Enter a valid email address',
    );
    expect(mailer.sent).toEqual([]);
  });

  it('refuses the address the member already has', async () => {
    const { caller, input } = await mailing();
    await expectCode(
      caller.settings.changeEmail({ email: input.email, password: input.password }),
      'BAD_REQUEST',
      'That is already your email address',
    );
  });

  it('mails the code in the member’s language', async () => {
    const { input, caller, mailer } = await mailing();
    await caller.settings.update({ language: 'de' });
    const email = `neu_${input.username}@example.com`;
    await caller.settings.changeEmail({ email, password: input.password });
    expect(mailer.sent).toEqual([
      { kind: 'email-change', to: email, code: expect.stringMatching(/^\d{6}$/), language: 'de' },
    ]);
  });

  it('mails a code to the new address; the old one stays until the code comes back', async () => {
    const { input, user, caller, mailer, jar, ctx } = await mailing();
    const other = callerFor(db.orm);
    await other.caller.auth.login(input);
    const email = `Changed_${input.username}@example.com`;
    expect(await caller.settings.changeEmail({ email, password: input.password })).toEqual({
      message: `We sent a code to ${email}. Enter it to confirm the change.`,
      pendingEmail: email,
    });
    expect(mailer.sent).toEqual([
      { kind: 'email-change', to: email, code: expect.stringMatching(/^\d{6}$/), language: 'en' },
    ]);
    const code = mailer.sent[0]!.code;
    const row = await pendingRow(user.id);
    expect(row).toMatchObject({ newEmail: email, codeHash: hashResetCode(code), attempts: 0 });

    // Nothing changed yet: the old address logs in, the new one does not.
    expect(await storedEmail(user.id)).toBe(input.email);
    expect((await caller.settings.get()).email).toBe(input.email);
    await callerFor(db.orm).caller.auth.login(input);
    await expectCode(
      callerFor(db.orm).caller.auth.login({ email, password: input.password }),
      'UNAUTHORIZED',
    );

    // What shows the address (their profile, where they show it, and pages kept of it) hears of it.
    const profiles = ctx.bus.subscribe('profiles')[Symbol.asyncIterator]();
    const heard = profiles.next();
    const { user: changed } = await caller.settings.confirmEmailChange({ code });
    expect(changed).toMatchObject({ id: user.id, email });
    expect((await heard).value).toEqual({ userId: user.id });
    await profiles.return?.();
    expect(await storedEmail(user.id)).toBe(email);
    expect(await pendingRow(user.id)).toBeNull();
    // The old mailbox hears of it (an alert, should someone else have done it).
    expect(mailer.sent.slice(1)).toEqual([
      { kind: 'email-changed', to: input.email, code: '', newEmail: email },
    ]);
    // This session stays; the others (the second login, and the one just above) end.
    const em = db.orm.em.fork();
    expect(await resolveSession(em, jar.token!, new Date())).not.toBeNull();
    expect(await resolveSession(em, other.jar.token!, new Date())).toBeNull();
    expect(await em.count(Session, { user: user.id })).toBe(1);

    await callerFor(db.orm).caller.auth.login({ email: email.toLowerCase(), password: input.password });
    await expectCode(callerFor(db.orm).caller.auth.login(input), 'UNAUTHORIZED');
    // The code worked once.
    await expectCode(caller.settings.confirmEmailChange({ code }), 'BAD_REQUEST', 'Invalid or expired code');
  });

  it('answers the same for an address another account has, sends that address a notice and no code', async () => {
    const taken = await signedIn();
    const { caller, mailer, user, input } = await mailing();
    const asked = taken.input.email.toUpperCase();
    expect(await caller.settings.changeEmail({ email: asked, password: input.password })).toEqual({
      message: `We sent a code to ${asked}. Enter it to confirm the change.`,
      pendingEmail: asked,
    });
    expect(mailer.sent).toEqual([{ kind: 'email-in-use', to: taken.input.email, code: '' }]);
    // A pending change is stored as for a free address, but no code for it was ever sent.
    expect(await pendingRow(user.id)).toMatchObject({ newEmail: asked });
    await expectCode(
      caller.settings.confirmEmailChange({ code: '123456' }),
      'BAD_REQUEST',
      'Invalid or expired code',
    );
    expect(await storedEmail(user.id)).toBe(input.email);
    expect(await storedEmail(taken.user.id)).toBe(taken.input.email);
  });

  it('cannot squat an address: asking for it leaves it free for its owner to register', async () => {
    const { caller, mailer, input } = await mailing();
    const victim = newUser();
    await caller.settings.changeEmail({ email: victim.email, password: input.password });
    expect(mailer.sent.map((m) => m.to)).toEqual([victim.email]);
    // The owner of the mailbox registers meanwhile; the squatter's pending change cannot win.
    await callerFor(db.orm).caller.auth.register(victim);
    await expectCode(
      caller.settings.confirmEmailChange({ code: mailer.sent[0]!.code }),
      'CONFLICT',
      'Email is already registered',
    );
    await callerFor(db.orm).caller.auth.login(victim);
  });

  it('a new request replaces the pending one', async () => {
    const { caller, mailer, user, input } = await mailing();
    await caller.settings.changeEmail({ email: `first_${input.email}`, password: input.password });
    await caller.settings.changeEmail({ email: `second_${input.email}`, password: input.password });
    expect(await db.orm.em.fork().count(EmailChange, { user: user.id })).toBe(1);
    const [first, second] = mailer.sent;
    if (first!.code !== second!.code) {
      await expectCode(caller.settings.confirmEmailChange({ code: first!.code }), 'BAD_REQUEST');
    }
    await caller.settings.confirmEmailChange({ code: second!.code });
    expect(await storedEmail(user.id)).toBe(`second_${input.email}`);
  });

  it('refuses an expired code and ends the change at the fifth wrong code', async () => {
    const start = Date.now();
    const { caller, mailer, user, input, jar, session } = await mailing({ now: () => new Date(start) });
    await caller.settings.changeEmail({ email: `late_${input.email}`, password: input.password });
    const later = callerFor(db.orm, jar, {
      session,
      now: () => new Date(start + 16 * 60 * 1000),
    }).caller;
    await expectCode(
      later.settings.confirmEmailChange({ code: mailer.sent[0]!.code }),
      'BAD_REQUEST',
      'Invalid or expired code',
    );
    expect(await pendingRow(user.id)).toBeNull();

    await caller.settings.changeEmail({ email: `guess_${input.email}`, password: input.password });
    const code = mailer.sent[1]!.code;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 5; i += 1) {
      await expectCode(
        caller.settings.confirmEmailChange({ code: wrong }),
        'BAD_REQUEST',
        'Invalid or expired code',
      );
      if (i < 5) expect((await pendingRow(user.id))?.attempts).toBe(i);
    }
    expect(await pendingRow(user.id)).toBeNull();
    await expectCode(caller.settings.confirmEmailChange({ code }), 'BAD_REQUEST', 'Invalid or expired code');
    expect(await storedEmail(user.id)).toBe(input.email);
    await expectCode(
      caller.settings.confirmEmailChange({ code: '12345' }),
      'BAD_REQUEST',
      'Code must be 6 digits',
    );
  });

  it('counts requests in emailChange and passwordCheck, and confirmations in emailChange, per member', async () => {
    const hits: string[] = [];
    let allowed = 3;
    const { caller, user, input, mailer } = await mailing({
      rateLimit: async (bucket, key) => {
        hits.push(`${bucket}:${key}`);
        allowed -= 1;
        return allowed >= 0 ? { allowed: true } : { allowed: false, retryAfterSeconds: 60 };
      },
    });
    await caller.settings.changeEmail({ email: `limited_${input.email}`, password: input.password });
    await expectCode(
      caller.settings.confirmEmailChange({ code: '000000' === mailer.sent[0]!.code ? '111111' : '000000' }),
      'BAD_REQUEST',
    );
    await expectCode(caller.settings.confirmEmailChange({ code: mailer.sent[0]!.code }), 'TOO_MANY_REQUESTS');
    expect(hits).toEqual([
      `emailChange:${user.id}`,
      `passwordCheck:${user.id}`,
      `emailChange:${user.id}`,
      `emailChange:${user.id}`,
    ]);
    expect(await storedEmail(user.id)).toBe(input.email);
  });

  it('drops a reset code mailed to the old address', async () => {
    const { caller, mailer, user, input } = await mailing();
    await callerFor(db.orm, { token: null }, { mailer }).caller.auth.forgotPassword({ email: input.email });
    expect(await db.orm.em.fork().count(PasswordReset, { user: user.id })).toBe(1);
    await caller.settings.changeEmail({ email: `moved_${input.email}`, password: input.password });
    await caller.settings.confirmEmailChange({ code: mailer.sent.at(-1)!.code });
    expect(await db.orm.em.fork().count(PasswordReset, { user: user.id })).toBe(0);
  });
});
