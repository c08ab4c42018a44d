/** Procedure-level test helpers: a migrated database per test file and callers with contexts. */
import { initOrm, type MikroORM } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import { type Context, createInnerContext } from '../src/context.js';
import { createCaller } from '../src/root.js';

export interface CookieJar {
  token: string | null;
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
  const ctx = createInnerContext({
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
