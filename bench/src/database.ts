/**
 * The benchmarks' database: one embedded PostgreSQL under bench/<dataDir>/pg (kept between runs,
 * so generated data is reused), and a database in it by name, made fresh or reused.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '@cubes/db';
import pg from 'pg';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function benchDatabase(
  name: string,
  { fresh, dataDir = '.data' }: { fresh: boolean; dataDir?: string },
) {
  const pgServer = await startEmbeddedPostgres({ dataDir: path.join(benchDir, dataDir, 'pg'), port: 0 });
  const admin = new pg.Client({ connectionString: pgServer.url('postgres') });
  await admin.connect();
  try {
    if (fresh) await admin.query(`drop database if exists ${name} with (force)`);
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount;
    if (!exists) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return { pgServer, url: pgServer.url(name) };
}
