import path from 'node:path';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.js';

export interface DatabaseChoice {
  url: string;
  embedded: EmbeddedPostgres | null;
}

/**
 * DATABASE_URL wins; without it a real PostgreSQL is started from the embedded binaries with its
 * data kept in `dataDir` (default ./data/pg), so the app runs with zero setup.
 */
export async function resolveDatabase(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  port?: number;
  log?: (line: string) => void;
  /** The supervisor's lines: PostgreSQL went down and is being started again. */
  notice?: (line: string) => void;
}): Promise<DatabaseChoice> {
  if (opts.databaseUrl) return { url: opts.databaseUrl, embedded: null };
  const embedded = await startEmbeddedPostgres({
    dataDir: path.resolve(opts.dataDir),
    port: opts.port ?? 54329,
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.notice ? { notice: opts.notice } : {}),
  });
  const admin = await import('pg');
  const client = new admin.default.Client({ connectionString: embedded.url('postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query(`select 1 from pg_database where datname = 'cubes'`);
    if (!rowCount) await client.query('create database cubes');
  } finally {
    await client.end();
  }
  return { url: embedded.url('cubes'), embedded };
}
