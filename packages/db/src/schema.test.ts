/**
 * One schema, written once in the migrations and mirrored by the entities: MikroORM's schema
 * comparison between the entities and a freshly migrated database must find nothing to change.
 * A column, index, check or foreign key that only a migration (or only an entity) has fails
 * here, and the drift cases below prove the comparison would notice.
 *
 * MikroORM compares an index declared by an SQL `expression` (partial, descending, GIN and
 * functional indexes) by its name only; the entities declare those with the migration's own
 * statement, and a second check here compares that statement with PostgreSQL's.
 */
import { DatabaseSchema, MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { ormConfig } from './config.js';
import { entities } from './entities/index.js';
import { createTestDatabase, type TestDatabase } from './testing.js';

/**
 * Columns the entities leave out on purpose, each with its reason; the comparison runs as if
 * the database had no such column. Nothing else may differ.
 *
 * search_vector: a tsvector that PostgreSQL generates from the row's text (SearchGallery
 * migration) and that only raw search SQL reads. As an entity property the ORM would select it
 * with every entity and read it back after every insert, and `Row<E>` would carry it.
 */
const KEPT_OUT_OF_ENTITIES: [table: string, column: string][] = [
  ['users', 'search_vector'],
  ['posts', 'search_vector'],
  ['ai_media', 'search_vector'],
];

/** Tables with no entity: kept by triggers in the migrations and read only by raw SQL. */
const TABLES_WITHOUT_ENTITY = [
  'ai_media_stats', // the gallery's counts per type
  'search_words', // the vocabulary for typo correction
  'rate_limit_counts', // the rate limits' shared counts, written by apps/server's rate-limit store
  'mikro_orm_migrations', // the migrator's own log
];

const open: { orm?: MikroORM; db?: TestDatabase }[] = [];
afterEach(async () => {
  for (const { orm, db } of open.splice(0)) {
    await orm?.close(true);
    await db?.drop();
  }
});

async function migratedDatabase(): Promise<{ orm: MikroORM; url: string }> {
  const db = await createTestDatabase();
  const orm = await MikroORM.init(ormConfig({ clientUrl: db.url, poolMax: 2 }));
  open.push({ orm, db });
  return { orm, url: db.url };
}

async function execute(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** What MikroORM would run to make the database match the entities, one statement a line. */
async function differences(orm: MikroORM): Promise<string[]> {
  const em = orm.em.fork();
  const database = await DatabaseSchema.create(em.getConnection(), em.getPlatform(), orm.config);
  for (const [table, column] of KEPT_OUT_OF_ENTITIES) {
    // An allowance for a column that is gone would hide nothing; it must go too.
    expect(database.getTable(table)?.getColumn(column), `${table}.${column}`).toBeDefined();
    database.getTable(table)?.removeColumn(column);
  }
  const sql = await orm.schema.getUpdateSchemaSQL({
    fromSchema: database,
    wrap: false,
    safe: false,
    dropTables: false,
  });
  return sql
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * The indexes the entities declare by an SQL statement. MikroORM compares those by name only, so
 * the test compares their statements with PostgreSQL's own (pg_indexes).
 */
function expressionIndexes(): { name: string; expression: string }[] {
  return entities.flatMap((entity) =>
    [...(entity.meta.indexes ?? []), ...(entity.meta.uniques ?? [])].flatMap((index) =>
      typeof index.expression === 'string' && index.name
        ? [{ name: index.name, expression: index.expression }]
        : [],
    ),
  );
}

/**
 * An index statement without what PostgreSQL adds when it prints one (schema, `using btree`,
 * casts, quotes, parentheses, case and spacing), so the migration's text and pg_indexes compare.
 */
function comparable(statement: string): string {
  return statement
    .toLowerCase()
    .replace(/\bpublic\./g, '')
    .replace(/ using btree/g, '')
    .replace(/::\w+/g, '')
    .replace(/["'()\s]/g, '');
}

/** The expression indexes whose statement differs from the database's (or that it lacks). */
async function expressionIndexesUnlikeDatabase(url: string): Promise<string[]> {
  const { rows } = await execute(
    url,
    `select indexname, indexdef from pg_indexes where schemaname = 'public'`,
  );
  const actual = new Map(rows.map((row) => [row.indexname as string, comparable(row.indexdef)]));
  return expressionIndexes()
    .filter(({ name, expression }) => actual.get(name) !== comparable(expression))
    .map(({ name }) => name);
}

describe('schema agreement', () => {
  it('the entities describe exactly what the migrations build', async () => {
    const { orm } = await migratedDatabase();
    expect(await differences(orm)).toEqual([]);
  });

  it('every table has an entity, or is named as one without', async () => {
    const { orm, url } = await migratedDatabase();
    const { rows } = await execute(
      url,
      `select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    const entityTables = Object.values(orm.getMetadata().getAll()).map((meta) => meta.tableName);
    expect(entityTables).toHaveLength(entities.length);
    expect(rows.map((row) => row.table_name).sort()).toEqual(
      [...entityTables, ...TABLES_WITHOUT_ENTITY].sort(),
    );
  });

  it('declares each expression index as PostgreSQL has it', async () => {
    const { url } = await migratedDatabase();
    expect(expressionIndexes().length).toBeGreaterThan(20);
    expect(await expressionIndexesUnlikeDatabase(url)).toEqual([]);
  });

  it('fails when a migration redefines an expression index under the same name', async () => {
    const { url } = await migratedDatabase();
    await execute(url, 'drop index "posts_image_url_index"');
    await execute(url, 'create index "posts_image_url_index" on "posts" ("image_url")');
    expect(await expressionIndexesUnlikeDatabase(url)).toEqual(['posts_image_url_index']);
  });

  // What a migration might change without touching the entities (or the other way round), and
  // the statement by which the comparison shows it.
  it.each([
    {
      drift: 'a migration adds a column',
      migration: `alter table "posts" add column "archived_at" timestamptz null`,
      expected: 'alter table "posts" drop column "archived_at";',
    },
    {
      drift: 'an entity has a column no migration built',
      migration: `alter table "posts" drop column "edited_at"`,
      expected: 'alter table "posts" add column "edited_at" timestamptz null;',
    },
    {
      drift: 'a migration changes a nullability',
      migration: `alter table "users" alter column "bio" set not null`,
      expected: 'alter table "users" alter column "bio" drop not null;',
    },
    {
      drift: 'a migration changes a default',
      migration: `alter table "posts" alter column "likes_count" set default 1`,
      expected: 'alter table "posts" alter column "likes_count" set default 0;',
    },
    {
      drift: 'a migration adds an index',
      migration: `create index "comments_created_at_index" on "comments" ("created_at")`,
      expected: 'drop index "comments_created_at_index";',
    },
    {
      drift: 'a migration adds a check',
      migration: `alter table "comments" add constraint "comments_content_check" check (length("content") > 0)`,
      expected: 'alter table "comments" drop constraint comments_content_check;',
    },
    {
      drift: 'a migration adds a foreign key',
      migration: `alter table "comments" add constraint "comments_post_author_fkey" foreign key ("author_id") references "users" ("id")`,
      expected: 'alter table "comments" drop constraint "comments_post_author_fkey";',
    },
  ])('fails when $drift', async ({ migration, expected }) => {
    const { orm, url } = await migratedDatabase();
    await execute(url, migration);
    expect(await differences(orm)).toContain(expected);
  });
});
