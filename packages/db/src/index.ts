export type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
export * from './backup.js';
export * from './config.js';
export * from './database-unavailable.js';
export * from './database-url.js';
export * from './embedded-postgres.js';
export * from './entities/index.js';
export * from './orm.js';
export type * from './rows.js';
