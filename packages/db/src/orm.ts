import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { type OrmConfigInput, ormConfig } from './config.js';

export type Orm = MikroORM;

/**
 * One key for "migrating Cubes' schema", held as a PostgreSQL session advisory lock while the
 * migrations run. Instances that start together on one database then migrate one at a time: the
 * first runs what is pending, the others wait and find nothing left (without it, two instances on
 * an empty database both create `mikro_orm_migrations`, and one exits).
 */
const MIGRATION_LOCK = 0x637562_6573; // "cubes"

/** Connects and brings the schema up to date by running every pending migration. */
export async function initOrm(input: OrmConfigInput): Promise<MikroORM> {
  const orm = await MikroORM.init(ormConfig(input));
  try {
    await migrateLocked(orm, input.clientUrl);
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return orm;
}

async function migrateLocked(orm: MikroORM, clientUrl: string): Promise<void> {
  // Its own connection: a session lock belongs to the connection that took it, and the
  // migrator takes connections from the pool as it likes.
  const lock = new pg.Client({ connectionString: clientUrl });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await orm.getMigrator().up();
  } finally {
    // Ending the session releases the lock too; unlock first so a waiter goes on at once.
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await lock.end();
  }
}

/**
 * Connects to a read replica (DATABASE_READ_URL) and runs nothing: a replica is read-only and
 * gets its schema from the primary, where initOrm migrated it. With `connect: false` the pool
 * connects on first use, so a replica that is down answers its reads with 503s instead of
 * failing here.
 */
export async function initReadOrm(input: OrmConfigInput, { connect = true } = {}): Promise<MikroORM> {
  return MikroORM.init({ ...ormConfig(input), connect });
}
