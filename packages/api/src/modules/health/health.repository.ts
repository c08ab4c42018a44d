/** The readiness statements: whether the database answers, and which migrations it has run. */
import type { EntityManager } from '@mikro-orm/postgresql';

/** True when `select 1` answers within `timeoutMs` (a stopped database may otherwise hang the pool). */
export async function databaseAnswers(em: EntityManager, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      em
        .getConnection()
        .execute('select 1')
        .then(() => true),
      timeout,
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
