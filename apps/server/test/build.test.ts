/**
 * The built server, as `npm start` and the image run it: apps/server/build.mjs bundles main.ts
 * with the workspace packages into JavaScript, and that file alone, on an empty data directory,
 * starts its embedded PostgreSQL, applies every migration in packages/db/src/migrations, answers,
 * stores a member (argon2 and MikroORM from node_modules) and stops cleanly on SIGTERM. A failure
 * at start-up names the TypeScript line (source maps).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts, outputMatch } from './ops-instances.js';
import { api, registerOver } from './over-http.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const migrationsDir = path.resolve(serverDir, '../../packages/db/src/migrations');
const outName = `.dist-test-${randomBytes(4).toString('hex')}`;
const outDir = path.join(serverDir, outName);
const main = path.join(outDir, 'main.js');

let server: ChildProcess;
let dataDir: string;
let base: string;
const output: string[] = [];
let exit: Promise<number | null>;

beforeAll(async () => {
  const build = spawnSync(process.execPath, ['build.mjs'], {
    cwd: serverDir,
    env: { ...process.env, SERVER_OUTDIR: outName },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`build.mjs failed:\n${build.stdout}${build.stderr}`);

  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-built-'));
  await chmod(dataDir, 0o755); // as root, the embedded PostgreSQL's user must reach inside
  const port = await freePorts(1);
  base = `http://127.0.0.1:${port}`;
  // From another folder than apps/server: nothing may depend on the working directory.
  server = spawn(process.execPath, ['--enable-source-maps', main], {
    cwd: dataDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PG_PORT: '0',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      SEED_DEMO: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  exit = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
  try {
    await outputMatch({ child: server, output, exited: exit }, /Cubes is running/, 100_000);
  } catch (error) {
    throw new Error(`the built server did not start: ${(error as Error).message}`);
  }
}, 180_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGKILL');
    await exit;
  }
  await rm(outDir, { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('the built server (dist/main.js)', () => {
  it('applied every migration to the empty database and logs startupMs and loadMs', async () => {
    const log = output.join('');
    const files = (await readdir(migrationsDir)).filter((f) => /^Migration\d+\w+\.ts$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(log).toContain(`Applied '${file.replace(/\.ts$/, '')}'`);
    const line = log.split('\n').find((l) => l.includes('Cubes is running'))!;
    const { startupMs, loadMs } = JSON.parse(line) as { startupMs: number; loadMs: number };
    expect(startupMs).toBeGreaterThan(0);
    expect(loadMs).toBeGreaterThan(0);
  });

  it('answers, and stores and reads back a member', async () => {
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const name = `built${randomBytes(3).toString('hex')}`;
    const { cookie } = await registerOver(base, name);
    const me = await api(base, 'GET', '/api/auth/me', cookie);
    expect(me.status).toBe(200);
    expect((me.body as { user: { username: string } }).user.username).toBe(name);
  });

  it('stops cleanly on SIGTERM', async () => {
    server.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 30_000);

  it('names the TypeScript line of an error at start-up', () => {
    const failed = spawnSync(process.execPath, ['--enable-source-maps', main], {
      cwd: dataDir,
      env: { ...process.env, PORT: 'not-a-port' },
      encoding: 'utf8',
    });
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toContain('Invalid configuration');
    expect(failed.stderr).toMatch(/at readEnv \(.*apps\/server\/src\/env\.ts:\d+:\d+\)/);
  }, 60_000);
});
