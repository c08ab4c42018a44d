import { MikroORM } from '@mikro-orm/postgresql';
import { type OrmConfigInput, ormConfig } from './config.js';

export type Orm = MikroORM;

/** Connects and brings the schema up to date by running every pending migration. */
export async function initOrm(input: OrmConfigInput): Promise<MikroORM> {
  const orm = await MikroORM.init(ormConfig(input));
  await orm.getMigrator().up();
  return orm;
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
