/**
 * `pnpm --filter @cubes/db backup <target>`: a hot backup of the running embedded PostgreSQL
 * (PG_DATA_DIR, else DATA_DIR/pg, else ./data/pg, as the server resolves it) into <target>.
 */
import path from 'node:path';
import { backupCluster, embeddedClusterUrl } from './backup.js';

const target = process.argv[2];
if (!target) {
  console.error('usage: backup <target directory>');
  process.exit(2);
}
// Relative paths are the caller's: pnpm --filter runs us inside packages/db.
const cwd = process.env.INIT_CWD ?? process.cwd();
const dataDir = path.resolve(cwd, process.env.PG_DATA_DIR ?? path.join(process.env.DATA_DIR ?? 'data', 'pg'));
const result = await backupCluster({
  url: await embeddedClusterUrl(dataDir),
  dataDir,
  target: path.resolve(cwd, target),
});
console.log(
  `backed up ${dataDir} to ${result.target}: ${(result.bytes / 1e6).toFixed(1)} MB, WAL ${result.startLsn} to ${result.stopLsn}`,
);
