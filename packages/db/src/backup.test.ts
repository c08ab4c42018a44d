/**
 * Backup and restore for real: a hot backup of an embedded PostgreSQL taken while rows are being
 * written, copied into a new data directory (`cp -a`, as docs/operations.md says) and started there,
 * brings back every row committed before the backup ended, and the app's migrations see an
 * up-to-date schema.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupCluster, embeddedClusterUrl } from './backup.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { initOrm } from './orm.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cubes-backup-test-'));
  await chmod(dir, 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** '0/2000128' → a number that orders like the WAL position. */
function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

describe('backup and restore', () => {
  it('restores everything committed before a hot backup ended', async () => {
    const source = await startEmbeddedPostgres({ dataDir: path.join(dir, 'live', 'pg'), port: 0 });
    let restored: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
    try {
      await withClient(source.url(), (c) => c.query('create database cubes'));
      const url = source.url('cubes');
      const orm = await initOrm({ clientUrl: url });
      await orm.close();
      await withClient(url, async (c) => {
        await c.query(
          `insert into users (id, username, email, password_hash, display_name)
           select gen_random_uuid(), 'member' || i, 'member' || i || '@example.com', 'x', 'Member ' || i
             from generate_series(1, 200) i`,
        );
      });

      // A writer keeps committing during the backup, noting the WAL position after each commit:
      // every row whose commit lies before the backup's end (its stop LSN) must come back.
      let writing = true;
      const committed: { i: number; lsn: bigint }[] = [];
      const writer = withClient(url, async (c) => {
        const author = (await c.query<{ id: string }>('select id from users limit 1')).rows[0]!.id;
        for (let i = 0; writing; i += 1) {
          await c.query(`insert into posts (id, author_id, content) values (gen_random_uuid(), $1, $2)`, [
            author,
            `during backup ${i}`,
          ]);
          const after = await c.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
          committed.push({ i, lsn: lsnValue(after.rows[0]!.lsn) });
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The CLI's way of finding the running server: postmaster.pid and the credentials file.
      expect(await embeddedClusterUrl(source.dataDir)).toBe(source.url());
      const backup = await backupCluster({
        url: source.url(),
        dataDir: source.dataDir,
        target: path.join(dir, 'backup', 'pg'),
      });
      writing = false;
      await writer;
      const beforeEnd = committed.filter((row) => row.lsn <= lsnValue(backup.stopLsn)).map((row) => row.i);
      expect(beforeEnd.length).toBeGreaterThan(0);
      expect(backup.bytes).toBeGreaterThan(1_000_000);

      // Restore: a copy of the backup as a data directory of its own, started on its own port.
      const restoredDir = path.join(dir, 'restored', 'pg');
      execFileSync('mkdir', ['-p', path.dirname(restoredDir)]);
      execFileSync('cp', ['-a', backup.target, restoredDir]);
      restored = await startEmbeddedPostgres({ dataDir: restoredDir, port: 0 });
      const back = await withClient(restored.url('cubes'), async (c) => ({
        users: Number((await c.query('select count(*) from users')).rows[0].count),
        posts: (await c.query<{ content: string }>(`select content from posts`)).rows.map((r) => r.content),
      }));
      expect(back.users).toBe(200);
      const missing = beforeEnd.filter((i) => !back.posts.includes(`during backup ${i}`));
      expect(missing).toEqual([]);
      // The schema is the app's: nothing left to migrate, and it takes writes.
      const reopened = await initOrm({ clientUrl: restored.url('cubes') });
      expect(await reopened.getMigrator().getPendingMigrations()).toEqual([]);
      await reopened.em
        .getConnection()
        .execute(`update users set bio = 'restored' where username = 'member1'`);
      await reopened.close();
    } finally {
      await restored?.stop();
      await source.stop();
    }
  });
});
