import { User } from '@cubes/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, expectCode, publicObject, setupDatabase } from '../../../test/harness.js';
import { resolveSession } from '../auth/session.service.js';

let db: Awaited<ReturnType<typeof setupDatabase>>;
beforeAll(async () => {
  db = await setupDatabase();
});
afterAll(() => db.close());

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
    });
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

describe('settings.changeEmail', () => {
  it('needs the right password', async () => {
    const { caller } = await signedIn();
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
  });

  it('refuses an email another user has, whatever the case', async () => {
    const taken = await signedIn();
    const { caller } = await signedIn();
    await expectCode(
      caller.settings.changeEmail({ email: taken.input.email.toUpperCase(), password: 'secret12' }),
      'CONFLICT',
      'Email is already registered',
    );
  });

  it('changes the email; login works with the new one', async () => {
    const { input, caller, user } = await signedIn();
    const email = `changed_${input.username}@example.com`;
    const result = await caller.settings.changeEmail({ email, password: input.password });
    expect(result.user).toMatchObject({ id: user.id, email });
    expect((await caller.settings.get()).email).toBe(email);
    // Changing the case of one's own address is not a conflict.
    await caller.settings.changeEmail({ email: email.toUpperCase(), password: input.password });
    await callerFor(db.orm).caller.auth.login({ email, password: input.password });
    await expectCode(callerFor(db.orm).caller.auth.login(input), 'UNAUTHORIZED');
  });
});
