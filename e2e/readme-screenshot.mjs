/**
 * Makes README.md's screenshot (docs/images/demo-feed.png) from the demo community: starts the
 * built production server on a fresh data directory (so the demo is seeded, as a first
 * `npm start` does), reads Alice's one-time password from its start-up log, logs in as her in
 * Chromium and photographs Home's feed at 1280 × 1000 in the light theme. Run after `pnpm build`:
 * `pnpm --filter @cubes/e2e readme-screenshot`. `CHROMIUM_PATH` as for the e2e suite.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const out = path.join(root, 'docs/images/demo-feed.png');
const serverMain = path.join(root, 'apps/server/dist/main.js');
if (!existsSync(serverMain)) {
  console.error(`No built server at ${serverMain}: run \`pnpm build\` first.`);
  process.exit(1);
}

/** A port nobody listens on now. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const port = await freePort();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cubes-readme-'));
const env = { ...process.env };
delete env.SMTP_URL;
const server = spawn(process.execPath, [serverMain], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: {
    ...env,
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: dataDir,
    PG_PORT: '0',
    SEED_DEMO: '1',
    LOG_LEVEL: 'info',
    METRICS_PORT: '0',
  },
});

// The demo's passwords appear once in the log; the server is ready when it answers /api/health.
let log = '';
server.stdout.on('data', (chunk) => {
  log += chunk.toString('utf8');
});
let exited = false;
server.on('exit', () => {
  exited = true;
});

async function waitFor(what, check, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`The server stopped while waiting for ${what}`);
    const value = await check();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const base = `http://127.0.0.1:${port}`;
let browser;
try {
  const password = await waitFor(
    'the demo passwords',
    () => log.match(/alice@cubes\.demo +\/ ([\w-]+)/)?.[1],
  );
  await waitFor('the server', () =>
    fetch(`${base}/api/health`)
      .then((r) => r.ok)
      .catch(() => false),
  );
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
    ],
  });
  const page = await browser.newPage({
    viewport: { width: 1280, height: 1000 },
    reducedMotion: 'reduce',
    colorScheme: 'light',
  });
  await page.goto(`${base}/auth`);
  const form = page.getByRole('tabpanel', { name: 'Login' });
  await form.getByLabel('Email').fill('alice@cubes.demo');
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
  // A fresh load: no "Welcome back!" toast over the picture.
  await page.goto(`${base}/`);
  await page.getByRole('list', { name: 'Posts' }).getByRole('article').nth(2).waitFor();
  // The feed, its greeting just under the header (the hero above is the same for everyone).
  await page.evaluate(() => {
    const title = document.getElementById('feed-title');
    const header = document.querySelector('header')?.getBoundingClientRect().height ?? 0;
    if (title) window.scrollTo(0, title.getBoundingClientRect().top + window.scrollY - header - 16);
  });
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(
      Array.from(document.images)
        .filter((img) => !img.complete && img.getBoundingClientRect().top < window.innerHeight)
        .map((img) => new Promise((resolve) => img.addEventListener('load', resolve, { once: true }))),
    );
  });
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.screenshot({ path: out });
  console.log(`Wrote ${path.relative(root, out)}`);
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => (exited ? resolve() : server.once('exit', resolve)));
  rmSync(dataDir, { recursive: true, force: true });
}
