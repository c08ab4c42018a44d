import { MikroORM } from '@mikro-orm/postgresql';
import { type OrmConfigInput, ormConfig } from './config.js';

export type Orm = MikroORM;

/** Connects and brings the schema up to date by running every pending migration. */
export async function initOrm(input: OrmConfigInput): Promise<MikroORM> {
  const orm = await MikroORM.init(ormConfig(input));
  await orm.getMigrator().up();
  return orm;
}
