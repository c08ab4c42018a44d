#!/usr/bin/env node
/**
 * `npm start`, `npm test`, `npm run e2e` on a machine with only Node and npm: gets the pinned
 * pnpm, installs the workspace with it, then runs the task.
 *   start      build the web app and the server (apps/server/build.mjs: JavaScript with source
 *              maps), then run the built server, serving both on PORT (default 3000)
 *   admin      build the server when its sources changed (turbo's cache), then run its operator
 *              commands (apps/server/dist/admin.js) with the arguments given
 *   test       turbo run test (every package's vitest suite)
 *   e2e        Debian's Chromium (apt-get, when root and it is missing), build the web app, then
 *              the Playwright suite against the real server
 *   deploy     up | check | down: deploy/'s reference topology behind nginx (docs/operations.md)
 *   typecheck  turbo run typecheck; lint: turbo run lint (what CI runs without a global pnpm)
 *
 * Where pnpm comes from: a pnpm of the pinned version already on PATH is used as is. Otherwise
 * `npm exec --package=pnpm@<version>` fetches it into npm's own cache (~/.npm/_npx/<hash>, the
 * place `npx` uses; nothing is installed globally) and we put that bin directory first on PATH
 * for everything we start. Installing with `npx pnpm install` alone is not enough: turbo runs
 * each package's script through the `pnpm` binary it finds on PATH ("Unable to find package
 * manager binary" otherwise). Prepending a directory keeps one process tree, so Ctrl+C reaches
 * the server directly, instead of re-running this script under `npm exec`.
 *
 * Before installing, scripts/check-patches.mjs checks that each patched dependency still has the
 * version its patch was made for; a patch that no longer applies ends the install with what to do.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPatches, explainPatchFailure } from './check-patches.mjs';

const PNPM_VERSION = '10.34.9';
const DEFAULT_CHROMIUM = '/usr/bin/chromium';
/** How the built server runs (apps/server/package.json's start script says the same). */
const SERVER_FLAGS = ['--enable-source-maps', '--max-semi-space-size=32'];
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'node_modules', '.bin');
const env = {
  ...process.env,
  PATH: `${bin}${path.delimiter}${process.env.PATH}`,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
};

function fail(message) {
  console.error(`\n${message}\n`);
  process.exit(1);
}

function pnpmVersion(command) {
  const probe = spawnSync(command, ['--version'], { encoding: 'utf8', env });
  return probe.status === 0 ? probe.stdout.trim() : null;
}

/** Makes `pnpm` on env.PATH the pinned version, fetching it through npm when it is not. */
function ensurePnpm() {
  if (pnpmVersion('pnpm') === PNPM_VERSION) return;
  const found = spawnSync(
    'npm',
    ['exec', '--yes', `--package=pnpm@${PNPM_VERSION}`, '-c', 'command -v pnpm'],
    { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const pnpm = found.status === 0 ? found.stdout.trim().split('\n').pop() : '';
  if (!pnpm || pnpmVersion(pnpm) !== PNPM_VERSION)
    fail(
      `Could not get pnpm ${PNPM_VERSION} through npm (npm exec --package=pnpm@${PNPM_VERSION}). ` +
        'Check that npm can reach its registry (npm config get registry), or install that pnpm ' +
        'version yourself and run this again.',
    );
  env.PATH = `${path.dirname(pnpm)}${path.delimiter}${env.PATH}`;
}

function runSync(cmd, args, extraEnv = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * pnpm install, its output passed through and kept, so that a patch that no longer fits
 * (patches/, patchedDependencies in pnpm-workspace.yaml) ends with what to do about it.
 */
async function install() {
  const problems = checkPatches();
  if (problems.length) fail(problems.join('\n\n'));
  ensurePnpm();
  const child = spawn('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], {
    cwd: root,
    env,
    stdio: ['inherit', 'pipe', 'pipe'],
  });
  let output = '';
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    from.on('data', (chunk) => {
      to.write(chunk);
      output = (output + chunk).slice(-65_536);
    });
  }
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code === 0) return;
  const advice = explainPatchFailure(output);
  if (advice) fail(advice);
  process.exit(code ?? 1);
}

function isExecutableFile(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The e2e suite drives a system Chromium (e2e/playwright.config.ts), never a downloaded one. */
function ensureChromium() {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!isExecutableFile(chosen)) fail(`CHROMIUM_PATH=${chosen} is not an executable file.`);
    return;
  }
  if (isExecutableFile(DEFAULT_CHROMIUM)) return;
  const canApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (process.getuid?.() !== 0 || !canApt)
    fail(
      `The e2e suite drives Debian's Chromium at ${DEFAULT_CHROMIUM}, which is missing.\n` +
        (canApt
          ? 'Install it with `sudo apt-get install chromium` (as root, npm run e2e installs it itself),'
          : 'Install Chromium with your package manager,') +
        ' or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  console.log(`e2e: no Chromium at ${DEFAULT_CHROMIUM}; installing Debian's chromium with apt-get`);
  // apt runs its download and signature methods as the unprivileged `_apt` user with our PATH:
  // a PATH directory that user cannot enter (a private temporary one, say) hides gpgv from it,
  // and every repository then looks unsigned. apt gets the system's own PATH.
  const aptEnv = {
    DEBIAN_FRONTEND: 'noninteractive',
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  };
  runSync('apt-get', ['update', '-qq'], aptEnv);
  runSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], aptEnv);
  if (!isExecutableFile(DEFAULT_CHROMIUM))
    fail(`apt-get installed chromium, but ${DEFAULT_CHROMIUM} is still missing.`);
}

const task = process.argv[2];
switch (task) {
  case 'start': {
    await install();
    runSync('turbo', ['run', 'build', '--filter=@cubes/web', '--filter=@cubes/server']);
    // As apps/server's own start script: the built JavaScript, stack traces mapped to the .ts
    // lines, 32 MB semi-spaces (bench/README.md).
    const server = spawn(process.execPath, [...SERVER_FLAGS, 'apps/server/dist/main.js'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...env, NODE_ENV: process.env.NODE_ENV ?? 'production' },
    });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
    server.on('exit', (code) => process.exit(code ?? 0));
    break;
  }
  case 'admin': {
    // No install: the server's machine has one already (npm start made it).
    ensurePnpm();
    // Quiet unless the build fails: the command's own answer is what the operator reads.
    const built = spawnSync('turbo', ['run', 'build', '--filter=@cubes/server'], {
      cwd: root,
      env,
      encoding: 'utf8',
    });
    if (built.status !== 0) {
      process.stderr.write(built.stdout + built.stderr);
      process.exit(built.status ?? 1);
    }
    const result = spawnSync(
      process.execPath,
      ['--enable-source-maps', 'apps/server/dist/admin.js', ...process.argv.slice(3)],
      { cwd: root, stdio: 'inherit', env },
    );
    process.exit(result.status ?? 1);
    break;
  }
  case 'test':
    await install();
    runSync('turbo', ['run', 'test', '--continue', ...process.argv.slice(3)]);
    break;
  case 'deploy': {
    // deploy/'s reference topology (up, check or down); it runs pnpm itself, so it needs ours.
    const action = process.argv[3] ?? 'check';
    if (!['up', 'check', 'down'].includes(action)) fail(`deploy: up, check or down, not ${action}`);
    if (action === 'down') ensurePnpm();
    else await install();
    runSync(process.execPath, [`deploy/${action}.mjs`, ...process.argv.slice(4)]);
    break;
  }
  case 'e2e':
    // Before the install, so a missing browser is said at once.
    ensureChromium();
    await install();
    runSync('turbo', ['run', 'e2e', ...process.argv.slice(3)]);
    break;
  case 'typecheck':
  case 'lint':
    await install();
    runSync('turbo', ['run', task, ...process.argv.slice(3)]);
    break;
  default:
    console.error('usage: node scripts/run.mjs start|admin|test|e2e|typecheck|lint');
    process.exit(2);
}
