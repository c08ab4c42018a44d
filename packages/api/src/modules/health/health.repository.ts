/** The health check's one statement: whether the database answers at all. */
import type { EntityManager } from '@mikro-orm/postgresql';

export async function databaseAnswers(em: EntityManager): Promise<boolean> {
  try {
    await em.getConnection().execute('select 1');
    return true;
  } catch {
    return false;
  }
}
