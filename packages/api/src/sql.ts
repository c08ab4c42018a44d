/**
 * How repositories write SQL: a tagged template (sql-template-tag) whose interpolations become
 * bound parameters, and whose nested fragments bring their own. A condition such as
 * `notBlocked(viewer, raw('p.author_id'))` is one value that carries its parameters, so no caller
 * counts `?` marks or passes a viewer id four times by position. Only `raw` writes text into a
 * statement, and only for names we wrote (columns, aliases), never for values.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { empty, join, raw, Sql } from 'sql-template-tag';

export { empty, join, raw, Sql, sql };

/** The rows of `query`, run as text (MikroORM's `em.execute`, `?` placeholders). */
export function rows<T>(em: EntityManager, query: Sql): Promise<T[]> {
  return em.execute<T[]>(query.sql, query.values);
}

/** The first row of `query`, or undefined. */
export async function firstRow<T>(em: EntityManager, query: Sql): Promise<T | undefined> {
  return (await rows<T>(em, query))[0];
}

/**
 * A timestamptz as ISO 8601 text in UTC with all six fractional digits. Raw queries return
 * timestamps as text; this form parses with `new Date` and, unlike a JS Date, keeps the
 * microseconds a keyset cursor needs to find its row again.
 */
export function iso(column: string): Sql {
  return raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
}

/** A uuid bound as one parameter with its type, for places PostgreSQL cannot infer it (`is null`). */
export function uuid(id: string | null): Sql {
  return sql`${id}::uuid`;
}

/** A list of uuids as one array parameter (`= any(${uuids(ids)})`): one statement text for any length. */
export function uuids(ids: readonly string[]): Sql {
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/**
 * A list of strings as one parameter (JSON), as a text[] expression: one statement text for any
 * length, the empty list included (a JS array in `sql` would expand into one parameter each).
 */
export function textArray(values: readonly string[]): Sql {
  return sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
}
