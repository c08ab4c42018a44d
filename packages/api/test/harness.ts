/** Procedure-level test helpers: a migrated database per test file and callers with contexts. */
import { randomUUID } from 'node:crypto';
import { initOrm, type MikroORM, UploadedObject, User } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Context, createContextInner } from '../src/context.js';
import { createCaller } from '../src/root.js';
import { describeError } from '../src/trpc.js';

export interface CookieJar {
  token: string | null;
}

/** An id in the right shape that no row has: what an unknown id answers. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * A migrated database for the test file that calls it at its top: made before its first test,
 * dropped after its last. `db.orm` is there from the first test on.
 */
export function useDatabase(): { readonly orm: MikroORM } {
  let db: Awaited<ReturnType<typeof setupDatabase>> | undefined;
  beforeAll(async () => {
    db = await setupDatabase();
  });
  afterAll(() => db?.close());
  return {
    get orm() {
      if (!db) throw new Error('useDatabase: the database is made before the first test');
      return db.orm;
    },
  };
}

export async function setupDatabase(): Promise<{ orm: MikroORM; close: () => Promise<void> }> {
  const db = await createTestDatabase();
  const orm = await initOrm({ clientUrl: db.url, poolMax: 5 });
  return {
    orm,
    close: async () => {
      await orm.close(true);
      await db.drop();
    },
  };
}

/** A caller as a browser would be: the jar keeps the session cookie set by login/register. */
export function callerFor(orm: MikroORM, jar: CookieJar = { token: null }, overrides: Partial<Context> = {}) {
  const ctx = createContextInner({
    em: orm.em.fork(),
    response: {
      setSessionCookie: (token) => {
        jar.token = token;
      },
      clearSessionCookie: () => {
        jar.token = null;
      },
    },
    ...overrides,
  });
  return { caller: createCaller(ctx), ctx, jar };
}

let members = 0;

/**
 * A clock that never returns the same millisecond twice. Members share it, so everything they
 * write in a test file has a distinct, increasing createdAt and "newest first" is unambiguous.
 */
export function monotonicClock(): () => Date {
  let last = 0;
  return () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last);
  };
}
const sharedClock = monotonicClock();

export interface Member {
  user: { id: string; username: string; email: string };
  caller: ReturnType<typeof createCaller>;
  ctx: Context;
}

/**
 * A signed-in member, fast: the row is written directly (no password hashing) and the caller
 * carries a session context, which is all procedures look at.
 */
export async function createMember(
  orm: MikroORM,
  fields: { username?: string; displayName?: string; emailVisible?: boolean } = {},
  overrides: Partial<Context> = {},
): Promise<Member> {
  members += 1;
  const username = fields.username ?? `member${members}_${Math.random().toString(36).slice(2, 7)}`;
  const em = orm.em.fork();
  const user = em.create(User, {
    username,
    displayName: fields.displayName ?? `Member ${members}`,
    email: `${username.toLowerCase()}@example.com`,
    passwordHash: 'not-a-real-hash',
    emailVisible: fields.emailVisible ?? false,
    createdAt: sharedClock(),
  });
  await em.flush();
  const session = { id: `test-session-${user.id}`, user: { id: user.id, username } };
  const { caller, ctx } = callerFor(orm, { token: null }, { session, now: sharedClock, ...overrides });
  return { user: { id: user.id, username, email: user.email }, caller, ctx };
}

/** A logged-out visitor. */
export function visitor(orm: MikroORM) {
  return callerFor(orm).caller;
}

/** Awaits a promise that must fail with a tRPC error of this code (and public message). */
export async function expectCode(
  p: Promise<unknown>,
  code: TRPCError['code'],
  message?: string,
): Promise<void> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe(code);
  // The message clients see: for validation errors, the first zod issue's.
  if (message !== undefined) expect(describeError(error as TRPCError).message).toBe(message);
}

/** An uploaded object of `ownerId`, public unless asked (the row only; no bytes are needed to reference it). */
export async function publicObject(
  orm: MikroORM,
  ownerId: string,
  visibility: 'public' | 'private' = 'public',
): Promise<string> {
  const em = orm.em.fork();
  const key = `uploads/${randomUUID()}`;
  em.create(UploadedObject, {
    key,
    owner: em.getReference(User, ownerId),
    contentType: 'image/png',
    size: 1,
    visibility,
    width: 1,
    height: 1,
    thumbKey: `${key}-thumb`,
    createdAt: new Date(),
  });
  await em.flush();
  return `/objects/${key}`;
}
