/**
 * Start-up: the server run from TypeScript through tsx (as `pnpm dev` does, and `npm start` did
 * before the server was built) against the built JavaScript (`npm start`, the image), on the same
 * migrated database, in turns so that a busy minute slows both alike. For each start it takes
 * what the server logs when it listens, `loadMs` (loading its modules: where tsx compiles) and
 * `startupMs` (from then to listening: database, migrations, app), the wall time from spawn to
 * that line, and the process's RSS just after. Prints the median, min and max per way of running.
 *
 *   pnpm --filter @cubes/bench bench:startup   (STARTUP_ROUNDS, default 7)
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '@cubes/db';
import pg from 'pg';
import { median } from './stats.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../../apps/server');
const rounds = Number(process.env.STARTUP_ROUNDS ?? 7);
const port = 3931;

interface Way {
  name: string;
  args: string[];
}
const WAYS: Way[] = [
  { name: 'tsx (src/main.ts)', args: ['--max-semi-space-size=32', '--import', 'tsx', 'src/main.ts'] },
  {
    name: 'built (dist/main.js, --enable-source-maps)',
    args: ['--enable-source-maps', '--max-semi-space-size=32', 'dist/main.js'],
  },
  { name: 'built, no source maps', args: ['--max-semi-space-size=32', 'dist/main.js'] },
];

interface Start {
  loadMs: number;
  startupMs: number;
  wallMs: number;
  rssMb: number;
}

const build = spawnSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const dir = await mkdtemp(path.join(os.tmpdir(), 'cubes-bench-startup-'));
await chmod(dir, 0o755);
const pgServer = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: 0 });
const admin = new pg.Client({ connectionString: pgServer.url('postgres') });
await admin.connect();
await admin.query('create database startup_bench');
await admin.end();
const databaseUrl = pgServer.url('startup_bench');

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** One start: spawn, wait for "Cubes is running", read RSS, stop with SIGTERM. */
async function startOnce(way: Way): Promise<Start> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, way.args, {
    cwd: serverDir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir,
      SEED_DEMO: '0',
      LOG_LEVEL: 'info',
    },
  });
  const started = await new Promise<Omit<Start, 'rssMb'>>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.includes('startupMs')) continue;
        const { startupMs, loadMs } = JSON.parse(line) as { startupMs: number; loadMs: number };
        resolve({ loadMs, startupMs, wallMs: performance.now() - spawnedAt });
      }
    });
    child.once('exit', (code) => reject(new Error(`${way.name} exited with ${code} before listening`)));
  });
  const rss = await rssMb(child.pid!);
  child.stdout.resume();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { ...started, rssMb: rss };
}

// The first start migrates the empty database; it is not counted.
await startOnce(WAYS[1]!);
const results = new Map<string, Start[]>(WAYS.map((w) => [w.name, []]));
for (let round = 0; round < rounds; round++) {
  // Turns in a different order each round.
  const order = round % 2 === 0 ? WAYS : [...WAYS].reverse();
  for (const way of order) results.get(way.name)!.push(await startOnce(way));
  process.stdout.write(`round ${round + 1}/${rounds}\n`);
}

const summary = (values: number[], unit: string) =>
  `${Math.round(median(values))} ${unit} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;

console.log(
  `\nStart-up, ${rounds} starts each, median (min–max), database already migrated, load ${os.loadavg()[0]!.toFixed(1)}`,
);
console.log('| Way | loadMs | startupMs | spawn → listening | RSS after start |');
console.log('|---|---|---|---|---|');
for (const [name, starts] of results) {
  console.log(
    `| ${name} | ${summary(
      starts.map((s) => s.loadMs),
      'ms',
    )} | ${summary(
      starts.map((s) => s.startupMs),
      'ms',
    )} | ${summary(
      starts.map((s) => s.wallMs),
      'ms',
    )} | ${summary(
      starts.map((s) => s.rssMb),
      'MB',
    )} |`,
  );
}

await pgServer.stop();
await rm(dir, { recursive: true, force: true });
