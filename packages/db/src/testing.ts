/**
 * Test databases, the Immich way: one PostgreSQL per test run, migrated once into a template
 * database; each test file gets its own database cloned from the template (fast and isolated).
 * The server is embedded unless TEST_DATABASE_URL or DATABASE_URL names one (it needs CREATEDB).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { initOrm } from './orm.js';

const ADMIN_ENV = 'CUBES_TEST_ADMIN_URL';
const TEMPLATE_ENV = 'CUBES_TEST_TEMPLATE';
/** Set when the run's server is embedded: it and every database in it go at the end of the run. */
const EPHEMERAL_ENV = 'CUBES_TEST_EPHEMERAL';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** For vitest's globalSetup: starts the server, builds the template. Returns the teardown. */
export async function setupTestDatabaseServer(): Promise<() => Promise<void>> {
  const external = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let adminUrl: string;
  let cleanup = async () => {};
  if (external) {
    adminUrl = withDatabase(external, 'postgres');
  } else {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cubes-test-pg-'));
    await chmod(dir, 0o755); // mkdtemp makes it private; as root, the postgres user must reach inside
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), ephemeral: true });
    adminUrl = server.url('postgres');
    cleanup = async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const template = `cubes_template_${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`create database ${template}`));
  const orm = await initOrm({ clientUrl: withDatabase(adminUrl, template), poolMax: 2 });
  await orm.close(true);
  process.env[ADMIN_ENV] = adminUrl;
  process.env[TEMPLATE_ENV] = template;
  if (external) delete process.env[EPHEMERAL_ENV];
  else process.env[EPHEMERAL_ENV] = '1';
  return async () => {
    if (external) await admin(adminUrl, (c) => c.query(`drop database if exists ${template} with (force)`));
    await cleanup();
  };
}

export interface TestDatabase {
  url: string;
  drop: () => Promise<void>;
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env[ADMIN_ENV];
  const template = process.env[TEMPLATE_ENV];
  if (!adminUrl || !template) throw new Error('setupTestDatabaseServer() must run as vitest globalSetup');
  const name = `cubes_test_${randomBytes(6).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`create database ${name} template ${template}`));
  return {
    url: withDatabase(adminUrl, name),
    // On the embedded server the database goes with the server's directory at the end of the run.
    // DROP DATABASE forces an immediate checkpoint of the whole cluster: on a busy machine, with
    // other files' databases dirty, one took over a minute (a hook timeout in openapi.test.ts).
    drop: async () => {
      if (process.env[EPHEMERAL_ENV] === '1') return;
      await admin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
