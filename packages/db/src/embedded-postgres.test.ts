import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDatabase } from './database-url.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { initOrm } from './orm.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cubes-embedded-test-'));
  await chmod(dir, 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  it('initialises, serves, keeps data across restarts and stops cleanly', async () => {
    const dataDir = path.join(dir, 'persist', 'pg');
    const first = await startEmbeddedPostgres({ dataDir, port: 0 });
    expect(first.port).toBeGreaterThan(0);
    await query(first.url(), 'create table kept (v text)');
    await query(first.url(), `insert into kept values ('still here')`);
    const version = await query(first.url(), 'show server_version_num');
    expect(Number(version.rows[0].server_version_num)).toBeGreaterThanOrEqual(180000);
    await first.stop();
    expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);

    const second = await startEmbeddedPostgres({ dataDir, port: 0 });
    const rows = await query(second.url(), 'select v from kept');
    expect(rows.rows).toEqual([{ v: 'still here' }]);
    await second.stop();
  });

  it('listens on 127.0.0.1 only and demands its password', async () => {
    const server = await startEmbeddedPostgres({
      dataDir: path.join(dir, 'auth', 'pg'),
      port: 0,
      ephemeral: true,
    });
    try {
      const wrong = server.url().replace(/:[^:@/]+@/, ':wrong@');
      await expect(query(wrong, 'select 1')).rejects.toThrow(/password authentication failed/);
      const listen = await query(server.url(), 'show listen_addresses');
      expect(listen.rows[0].listen_addresses).toBe('127.0.0.1');
    } finally {
      await server.stop();
    }
  });

  it('picks a free port when the preferred one is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      const server = await startEmbeddedPostgres({
        dataDir: path.join(dir, 'port', 'pg'),
        port: taken,
        ephemeral: true,
      });
      expect(server.port).not.toBe(taken);
      expect((await query(server.url(), 'select 1 as one')).rows).toEqual([{ one: 1 }]);
      await server.stop();
    } finally {
      blocker.close();
    }
  });

  it('recovers from a stale lock file left by a crash, and refuses a live one', async () => {
    const dataDir = path.join(dir, 'stale', 'pg');
    const server = await startEmbeddedPostgres({ dataDir, port: 0, ephemeral: true });
    const lock = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8');
    await expect(startEmbeddedPostgres({ dataDir, port: 0 })).rejects.toThrow(/already running/);
    await server.stop();
    // A crashed server leaves its lock behind with a pid that no longer runs.
    await writeFile(path.join(dataDir, 'postmaster.pid'), lock.replace(/^\d+/, '999999'));
    const again = await startEmbeddedPostgres({ dataDir, port: 0, ephemeral: true });
    expect((await query(again.url(), 'select 1 as one')).rows).toEqual([{ one: 1 }]);
    await again.stop();
  });

  it('starts PostgreSQL again after it stops on a signal, but not once the app is shutting down', async () => {
    const notices: string[] = [];
    const server = await startEmbeddedPostgres({
      dataDir: path.join(dir, 'stopping', 'pg'),
      port: 0,
      ephemeral: true,
      restartDelayMs: 50,
      notice: (line) => notices.push(line),
    });
    const interrupt = async () => {
      const pid = server.pid()!;
      process.kill(pid, 'SIGINT'); // what Ctrl+C sends the whole process group: a clean exit, code 0
      while (server.pid() === pid) await new Promise((r) => setTimeout(r, 20));
    };
    await interrupt();
    for (let i = 0; i < 100 && server.restarts() === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(server.restarts()).toBe(1);
    expect((await query(server.url(), 'select 1 as one')).rows).toEqual([{ one: 1 }]);

    server.stopping();
    await interrupt();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(server.pid()).toBeUndefined();
    expect(server.restarts()).toBe(1);
    expect(notices.filter((n) => /exited unexpectedly/.test(n))).toHaveLength(1);
    await server.stop();
  });

  it('creates the app database and runs every migration (the zero-setup path)', async () => {
    const db = await resolveDatabase({ dataDir: path.join(dir, 'app', 'pg'), port: 0 });
    try {
      expect(db.url).toMatch(/\/cubes$/);
      const orm = await initOrm({ clientUrl: db.url, poolMax: 2 });
      const pending = await orm.getMigrator().getPendingMigrations();
      expect(pending).toEqual([]);
      const tables = await orm.em
        .fork()
        .execute<{ table_name: string }[]>(
          `select table_name from information_schema.tables where table_schema = 'public' order by 1`,
        );
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(['users', 'sessions', 'password_resets']),
      );
      await orm.close();
    } finally {
      await db.embedded?.stop();
    }
  });

  it('uses DATABASE_URL as given without starting anything', async () => {
    const db = await resolveDatabase({
      databaseUrl: 'postgres://u:p@db.internal:5432/x',
      dataDir: '/nonexistent',
    });
    expect(db).toEqual({ url: 'postgres://u:p@db.internal:5432/x', embedded: null });
  });
});
