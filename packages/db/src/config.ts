import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, type Options, UnderscoreNamingStrategy } from '@mikro-orm/postgresql';
import { entities } from './entities/index.js';
import { migrationsList } from './migrations/index.js';

/**
 * MikroORM's names, except that a foreign key is named the way PostgreSQL names it when a
 * migration declares `references` without a name (`posts_author_id_fkey`), so the entities and
 * the migrated database agree (schema.test.ts).
 */
export class CubesNamingStrategy extends UnderscoreNamingStrategy {
  override indexName(
    tableName: string,
    columns: string[],
    type: 'primary' | 'foreign' | 'unique' | 'index' | 'sequence' | 'check',
  ): string {
    const name = super.indexName(tableName, columns, type);
    return type === 'foreign' ? name.replace(/_foreign$/, '_fkey') : name;
  }
}

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
    namingStrategy: CubesNamingStrategy,
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
