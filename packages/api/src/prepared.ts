/**
 * Hot statements as named prepared statements. PostgreSQL parses and plans a statement that
 * arrives as text every time, and MikroORM sends every `em.execute` as text with its values
 * written in. For the small, indexed statements behind the busiest endpoints, planning costs far
 * more than running (figures: bench/README.md, "Prepared statements"). A prepared statement is
 * parsed once per pooled connection and, after five runs, planned once too (PostgreSQL's generic
 * plan, kept when it costs no more than the custom ones).
 *
 * Rules for a statement passed here:
 * - its text is fixed (no ids or lists written into it: every distinct text becomes a statement
 *   kept by each connection for its lifetime); a list is one array parameter (`= any(?::uuid[])`);
 * - `?` marks parameters only (never inside a string literal), and a parameter whose type
 *   PostgreSQL cannot infer from its place gets a cast (`?::uuid is null`);
 * - it changes nothing that MikroORM's exception types are needed to tell apart (constraint
 *   violations arrive as the driver's errors).
 * Inside a transaction the statement runs as text on the transaction's connection.
 */
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from './sql.js';

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}
interface PooledClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
}

interface Statement {
  name: string;
  text: string;
}
const statements = new Map<string, Statement>();

function statementFor(sql: string): Statement {
  let statement = statements.get(sql);
  if (!statement) {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    statement = { name: `cubes_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`, text };
    statements.set(sql, statement);
  }
  return statement;
}

/** The rows of `query` (sql.ts), from a named prepared statement: `rows` for a hot statement. */
export async function preparedRows<T>(em: EntityManager, query: Sql): Promise<T[]> {
  if (em.getTransactionContext()) return em.execute<T[]>(query.sql, query.values);
  const { name, text } = statementFor(query.sql);
  const pool = em.getConnection().getKnex().client as unknown as PooledClient;
  const connection = await pool.acquireConnection();
  try {
    return (await connection.query({ name, text, values: query.values })).rows as T[];
  } finally {
    await pool.releaseConnection(connection);
  }
}
