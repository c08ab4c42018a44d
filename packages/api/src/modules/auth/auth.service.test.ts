import { Session, User } from '@cubes/db';
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { callerFor, expectCode as expectRefusal, useDatabase } from '../../../test/harness.js';
import { createContextInner } from '../../context.js';
import { SESSION_CACHE_TTL_MS } from '../sessions/sessions.cache.js';
import {
  hashToken,
  resolveSession,
  resolveSessionFromCache,
  revokeSessions,
  SESSION_TTL_MS,
} from '../sessions/sessions.service.js';

const db = useDatabase();

let n = 0;
function newUser() {
  n += 1;
  return {
    username: `user${n}`,
    email: `user${n}@example.com`,
    password: 'secret12',
    displayName: `User ${n}`,
  };
}

async function expectCode(p: Promise<unknown>, code: TRPCError['code'], message?: string) {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe(code);
  if (message) expect((error as TRPCError).message).toBe(message);
}

describe('auth procedures', () => {
  it('registers, stores an argon2id hash and only the SHA-256 of the session token', async () => {
    const input = newUser();
    const { caller, jar } = callerFor(db.orm);
    const { user } = await caller.auth.register(input);
    expect(user).toMatchObject({
      username: input.username,
      email: input.email,
      displayName: input.displayName,
    });
    expect(user).not.toHaveProperty('passwordHash');
    expect(jar.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const em = db.orm.em.fork();
    const row = await em.findOneOrFail(User, { id: user.id });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    const sessions = await em.find(Session, { user: user.id });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.tokenHash).toBe(hashToken(jar.token!));
    expect(sessions[0]!.tokenHash).not.toContain(jar.token!);
  });

  it('rejects a taken username or email whatever the case, saying which', async () => {
    const input = newUser();
    await callerFor(db.orm).caller.auth.register(input);
    await expectCode(
      callerFor(db.orm).caller.auth.register({ ...newUser(), username: input.username.toUpperCase() }),
      'CONFLICT',
      'Username is already taken',
    );
    await expectCode(
      callerFor(db.orm).caller.auth.register({ ...newUser(), email: input.email.toUpperCase() }),
      'CONFLICT',
      'Email is already registered',
    );
  });

  it('validates the four registration fields', async () => {
    await expectCode(
      callerFor(db.orm).caller.auth.register({ ...newUser(), password: '12345' }),
      'BAD_REQUEST',
    );
    await expectCode(
      callerFor(db.orm).caller.auth.register({ ...newUser(), username: 'a b' }),
      'BAD_REQUEST',
    );
    await expectCode(callerFor(db.orm).caller.auth.register({ ...newUser(), email: 'nope' }), 'BAD_REQUEST');
    await expectCode(
      callerFor(db.orm).caller.auth.register({ ...newUser(), displayName: '  ' }),
      'BAD_REQUEST',
    );
  });

  it('registers in the visitor’s language (English when none is sent) and answers with it', async () => {
    const english = await callerFor(db.orm).caller.auth.register(newUser());
    expect(english.language).toBe('en');
    const { caller, jar } = callerFor(db.orm);
    const arabic = await caller.auth.register({ ...newUser(), language: 'ar' });
    expect(arabic.language).toBe('ar');
    const em = db.orm.em.fork();
    expect((await em.findOneOrFail(User, { id: english.user.id })).language).toBe('en');
    expect((await em.findOneOrFail(User, { id: arabic.user.id })).language).toBe('ar');
    const session = await resolveSession(em, jar.token!, new Date());
    const authed = callerFor(db.orm, jar, { session }).caller;
    expect((await authed.auth.me()).language).toBe('ar');
    expect((await authed.settings.get()).language).toBe('ar');
    const again = await callerFor(db.orm).caller.auth.login({
      email: arabic.user.email!,
      password: 'secret12',
    });
    expect(again.language).toBe('ar');
  });

  it('refuses a registration in another language, and makes no account', async () => {
    for (const bad of ['fr', '', 'AR', '\u0000', 'x'.repeat(70_000), 7, null]) {
      const input = newUser();
      // The message clients see (the first issue's, as the harness reads it).
      await expectRefusal(
        callerFor(db.orm).caller.auth.register({ ...input, language: bad as never }),
        'BAD_REQUEST',
        'Choose English, Deutsch or العربية',
      );
      expect(await db.orm.em.fork().count(User, { username: input.username })).toBe(0);
    }
  });

  it('logs in case-insensitively and never says whether the account exists', async () => {
    const input = newUser();
    await callerFor(db.orm).caller.auth.register(input);
    const { caller, jar } = callerFor(db.orm);
    const { user } = await caller.auth.login({ email: input.email.toUpperCase(), password: input.password });
    expect(user.username).toBe(input.username);
    expect(jar.token).toBeTruthy();
    await expectCode(
      callerFor(db.orm).caller.auth.login({ email: input.email, password: 'wrong-password' }),
      'UNAUTHORIZED',
      'Invalid email or password',
    );
    await expectCode(
      callerFor(db.orm).caller.auth.login({ email: 'nobody@example.com', password: input.password }),
      'UNAUTHORIZED',
      'Invalid email or password',
    );
  });

  it('answers me for a session and 401 without one; logout deletes the session', async () => {
    const { caller, jar } = callerFor(db.orm);
    const { user } = await caller.auth.register(newUser());
    const em = db.orm.em.fork();
    const session = await resolveSession(em, jar.token!, new Date());
    expect(session?.user.id).toBe(user.id);

    const authed = callerFor(db.orm, jar, { session }).caller;
    expect((await authed.auth.me()).user.id).toBe(user.id);
    await expectCode(callerFor(db.orm).caller.auth.me(), 'UNAUTHORIZED');
    // The web app's check: the same session, or null (not a 401) for a visitor.
    expect(await authed.auth.session()).toEqual(await authed.auth.me());
    expect(await callerFor(db.orm).caller.auth.session()).toBeNull();

    await authed.auth.logout();
    expect(jar.token).toBeNull();
    expect(await em.fork().count(Session, { id: session!.id })).toBe(0);
  });

  it('expires sessions after 30 days and slides the expiry on use', async () => {
    const { caller, jar } = callerFor(db.orm);
    await caller.auth.register(newUser());
    const em = db.orm.em.fork();
    const now = Date.now();
    expect(await resolveSession(em, jar.token!, new Date(now + SESSION_TTL_MS + 1000))).toBeNull();

    const later = new Date(now + 2 * 60 * 60 * 1000);
    const renewed = await resolveSession(em, jar.token!, later);
    expect(renewed?.renewedUntil?.getTime()).toBe(later.getTime() + SESSION_TTL_MS);
    // Right after a renewal nothing is written again.
    expect((await resolveSession(em, jar.token!, new Date(later.getTime() + 1000)))?.renewedUntil).toBeNull();
    expect(await resolveSession(em, 'not-a-token', new Date())).toBeNull();
  });

  it('revokes every session of a user but the one kept', async () => {
    const input = newUser();
    const first = callerFor(db.orm);
    const { user } = await first.caller.auth.register(input);
    const second = callerFor(db.orm);
    await second.caller.auth.login(input);
    const em = db.orm.em.fork();
    const keep = await resolveSession(em, first.jar.token!, new Date());
    expect(await revokeSessions(createContextInner({ em }), user.id, keep!.id)).toBe(1);
    expect(await resolveSession(em, second.jar.token!, new Date())).toBeNull();
    expect(await resolveSession(em, first.jar.token!, new Date())).not.toBeNull();
  });

  it('serves a session from memory for a few seconds; revocations here drop it at once', async () => {
    const input = newUser();
    const first = callerFor(db.orm);
    const { user } = await first.caller.auth.register(input);
    const em = db.orm.em.fork();
    const t0 = new Date();
    expect(await resolveSession(em, first.jar.token!, t0)).not.toBeNull(); // now cached

    // Deleted behind our back (as another instance would): still served until the cache entry ages out.
    await em.getConnection().execute('delete from sessions where user_id = ?', [user.id]);
    const soon = new Date(t0.getTime() + SESSION_CACHE_TTL_MS - 1);
    expect((await resolveSession(em, first.jar.token!, soon))?.user.id).toBe(user.id);
    expect(
      await resolveSession(em, first.jar.token!, new Date(t0.getTime() + SESSION_CACHE_TTL_MS)),
    ).toBeNull();

    // Revoked through this process: gone at once, cache or not.
    const second = callerFor(db.orm);
    await second.caller.auth.login(input);
    expect(await resolveSession(em, second.jar.token!, t0)).not.toBeNull();
    await revokeSessions(createContextInner({ em }), user.id);
    expect(await resolveSession(em, second.jar.token!, t0)).toBeNull();
  });

  it('answers from memory alone only when memory is enough', async () => {
    const input = newUser();
    const { caller, jar } = callerFor(db.orm);
    const { user } = await caller.auth.register(input);
    const em = db.orm.em.fork();
    const t0 = new Date();
    expect(resolveSessionFromCache(em, undefined, t0)).toBeNull();
    expect(resolveSessionFromCache(em, 'x'.repeat(129), t0)).toBeNull();
    // Not looked up yet: the database has to answer.
    expect(resolveSessionFromCache(em, jar.token!, t0)).toBeUndefined();
    await resolveSession(em, jar.token!, t0);
    expect(resolveSessionFromCache(em, jar.token!, t0)).toEqual({
      id: expect.any(String),
      user: { id: user.id, username: input.username },
      renewedUntil: null,
    });
    // An aged entry, or one whose expiry is due to slide, goes back to resolveSession.
    expect(
      resolveSessionFromCache(em, jar.token!, new Date(t0.getTime() + SESSION_CACHE_TTL_MS)),
    ).toBeUndefined();
    const [row] = await em
      .getConnection()
      .execute<{ last_seen_at: Date }[]>('select last_seen_at from sessions where token_hash = ?', [
        hashToken(jar.token!),
      ]);
    const dueAt = new Date(row!.last_seen_at).getTime() + 60 * 60 * 1000; // sessions slide hourly
    await resolveSession(em, jar.token!, new Date(dueAt - 1000));
    expect(resolveSessionFromCache(em, jar.token!, new Date(dueAt - 500))?.user.id).toBe(user.id);
    expect(resolveSessionFromCache(em, jar.token!, new Date(dueAt + 1000))).toBeUndefined();
    // Logout drops it from memory at once.
    const token = jar.token!;
    await caller.auth.logout();
    expect(resolveSessionFromCache(em, token, new Date())).toBeUndefined();
  });

  it('counts register and login against the rate limiter', async () => {
    const hits: string[] = [];
    const limited = callerFor(
      db.orm,
      { token: null },
      {
        ip: '10.1.2.3',
        rateLimit: async (bucket, key) => {
          hits.push(`${bucket}:${key}`);
          return bucket === 'login' ? { allowed: false, retryAfterSeconds: 42 } : { allowed: true };
        },
      },
    );
    const input = newUser();
    await limited.caller.auth.register(input);
    await expectCode(limited.caller.auth.login(input), 'TOO_MANY_REQUESTS');
    expect(hits).toEqual(['register:10.1.2.3', 'loginIp:10.1.2.3', `login:10.1.2.3|${input.email}`]);
  });
});
