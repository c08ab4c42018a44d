/**
 * The e2e suite's server: the real production server (built web app + API + embedded PostgreSQL)
 * on a fresh data directory, so every run starts from an empty community.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const dataDir = path.join(here, '.data');
rmSync(dataDir, { recursive: true, force: true });

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PG_PORT: '0',
    SEED_DEMO: process.env.SEED_DEMO ?? '0',
    // Many registrations from one address within minutes; limits stay on, just wider.
    RATE_LIMIT_SCALE: process.env.RATE_LIMIT_SCALE ?? '50',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill('SIGTERM'));
server.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
