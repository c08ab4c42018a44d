import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { entities } from './entities/index.js';
import { migrationsList } from './migrations/index.js';

export interface OrmConfigInput {
  clientUrl: string;
  debug?: boolean;
  poolMax?: number;
  /** Where MikroORM's own messages (migrations) go; silent by default. */
  logger?: (message: string) => void;
}

export function ormConfig({
  clientUrl,
  debug = false,
  poolMax = 20,
  logger = () => {},
}: OrmConfigInput): Options {
  return defineConfig({
    clientUrl,
    entities,
    extensions: [Migrator],
    debug,
    logger,
    colors: false,
    pool: { min: 0, max: poolMax },
    // Entities are plain schemas; no decorators, no reflection, no folder discovery.
    discovery: { warnWhenNoEntities: true, requireEntitiesArray: true },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    migrations: {
      migrationsList,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
  });
}
