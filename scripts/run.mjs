#!/usr/bin/env node
/**
 * `npm start`, `npm test`, `npm run e2e` on a machine with only Node and npm: installs the
 * workspace with the pinned pnpm (through npx when pnpm is not on PATH), then runs the task.
 *   start  build the web app, then serve it with the API on PORT (default 3000)
 *   test   turbo run test (every package's vitest suite)
 *   e2e    build the web app, then the Playwright suite against the real server
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PNPM_VERSION = '10.34.9';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'node_modules', '.bin');
const env = {
  ...process.env,
  PATH: `${bin}${path.delimiter}${process.env.PATH}`,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
};

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', env });
  return probe.status === 0 && probe.stdout.trim() === PNPM_VERSION
    ? ['pnpm']
    : ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
}

function runSync(cmd, args, extraEnv = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function install() {
  const [cmd, ...args] = pnpmCommand();
  runSync(cmd, [...args, 'install', '--frozen-lockfile', '--prefer-offline']);
}

const task = process.argv[2];
switch (task) {
  case 'start': {
    install();
    runSync('turbo', ['run', 'build', '--filter=@cubes/web']);
    // As apps/server's own start script: 32 MB semi-spaces (bench/README.md).
    const server = spawn(
      process.execPath,
      ['--max-semi-space-size=32', '--import', 'tsx', 'apps/server/src/main.ts'],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...env, NODE_ENV: process.env.NODE_ENV ?? 'production' },
      },
    );
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
    server.on('exit', (code) => process.exit(code ?? 0));
    break;
  }
  case 'test':
    install();
    runSync('turbo', ['run', 'test', '--continue', ...process.argv.slice(3)]);
    break;
  case 'e2e':
    install();
    runSync('turbo', ['run', 'e2e', ...process.argv.slice(3)]);
    break;
  default:
    console.error('usage: node scripts/run.mjs start|test|e2e');
    process.exit(2);
}
