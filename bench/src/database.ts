/**
 * The benchmarks' database: one embedded PostgreSQL under bench/<dataDir>/pg (kept between runs,
 * so generated data is reused), and a database in it by name, made fresh or reused.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '@cubes/db';
import pg from 'pg';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `BENCH_PG_STATS=1`: PostgreSQL loads pg_stat_statements, and benches print their top statements. */
const PG_STATS = process.env.BENCH_PG_STATS === '1';

/** `BENCH_PG_SETTINGS='shared_buffers=512MB,work_mem=8MB'`: PostgreSQL settings to try. */
function extraSettings(): Record<string, string> {
  const pairs = (process.env.BENCH_PG_SETTINGS ?? '').split(',').filter(Boolean);
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`BENCH_PG_SETTINGS: '${pair}' is not name=value`);
      return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    }),
  );
}

export async function benchDatabase(
  name: string,
  { fresh, dataDir = '.data' }: { fresh: boolean; dataDir?: string },
) {
  const pgServer = await startEmbeddedPostgres({
    dataDir: path.join(benchDir, dataDir, 'pg'),
    port: 0,
    settings: {
      ...(PG_STATS ? { shared_preload_libraries: 'pg_stat_statements' } : {}),
      ...extraSettings(),
    },
  });
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

/** Forgets what pg_stat_statements has counted so far (a no-op without `BENCH_PG_STATS=1`). */
export async function resetStatementStats(url: string): Promise<void> {
  if (!PG_STATS) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query('select pg_stat_statements_reset()');
  } finally {
    await client.end();
  }
}

/**
 * With `BENCH_PG_STATS=1`, prints the statements that took the most database time since the last
 * reset: total and mean milliseconds, calls, rows, and the statement's start.
 */
export async function printStatementStats(
  url: string,
  top = Number(process.env.BENCH_PG_STATS_TOP ?? 15),
): Promise<void> {
  if (!PG_STATS) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{
      total: number;
      mean: number;
      calls: string;
      rows: string;
      query: string;
    }>(
      `select total_exec_time as total, mean_exec_time as mean, calls, rows, query
         from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
        order by total_exec_time desc limit $1`,
      [top],
    );
    console.log('\n| total ms | mean ms | calls | rows | statement |\n|---|---|---|---|---|');
    const [jit] = (
      await client.query<{ statements: string; ms: number | null }>(
        `select count(*) filter (where jit_functions > 0) as statements,
                sum(jit_generation_time + jit_inlining_time + jit_optimization_time + jit_emission_time) as ms
           from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())`,
      )
    ).rows;
    for (const r of rows) {
      const text = r.query.replace(/\s+/g, ' ').slice(0, 140).replaceAll('|', '\\|');
      console.log(`| ${r.total.toFixed(0)} | ${r.mean.toFixed(3)} | ${r.calls} | ${r.rows} | ${text} |`);
    }
    // Statements past jit_above_cost are compiled each time they run (tens of ms): none should be.
    console.log(
      `\nJIT: ${jit?.statements ?? 0} statements compiled, ${(jit?.ms ?? 0).toFixed(0)} ms compiling`,
    );
  } finally {
    await client.end();
  }
}
