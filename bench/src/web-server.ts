/**
 * The production server the browser benches measure (bench:web, bench:web-tasks): NODE_ENV=production,
 * the built web app, the API and an embedded PostgreSQL with the demo community, on a fresh data
 * directory removed at exit. Builds the web app first if apps/web/dist is missing.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Starts the server on 127.0.0.1:`port` and resolves with its origin once /api/health answers. */
export async function startWebServer(port: number): Promise<string> {
  if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    console.log('building the web app');
    execFileSync('pnpm', ['--filter', '@cubes/web', 'build'], { cwd: root, stdio: 'inherit' });
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cubes-bench-web-'));
  const server: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PG_PORT: '0',
        SEED_DEMO: '1',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_SCALE: '1000',
      },
    },
  );
  process.on('exit', () => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return origin;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the server did not start within 120 s');
}

/** Registers a member (who then follows nobody: the home feed is the community's) and returns its cookie. */
export async function memberCookie(origin: string): Promise<string> {
  const name = `lh${Date.now().toString(36)}`;
  const answer = await fetch(`${origin}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: name,
      email: `${name}@bench.local`,
      password: 'lighthouse-bench-password',
      displayName: 'Lighthouse',
    }),
  });
  if (!answer.ok) throw new Error(`register: ${answer.status} ${await answer.text()}`);
  const cookies = answer.headers.getSetCookie().map((cookie) => cookie.split(';', 1)[0]);
  if (cookies.length === 0) throw new Error('register set no cookie');
  return cookies.join('; ');
}

/** The pages both benches visit: a visitor's, then a member's ("member:" and the path). */
export const WEB_PAGES = [
  '/',
  '/posts/{newest}',
  '/profile/alice',
  '/tags/pixelart',
  '/search?q=cube',
  '/gallery',
  '/cubes',
  'member:/',
  'member:/chat',
];

/** `pathname` with `{newest}` replaced by the id of the Everyone feed's newest post. */
export async function resolvePage(origin: string, pathname: string): Promise<string> {
  if (!pathname.includes('{newest}')) return pathname;
  const res = await fetch(`${origin}/api/posts/feed?limit=1`);
  // The REST feed answers the page's posts as an array.
  const [newest] = (await res.json()) as { id: string }[];
  if (!newest) throw new Error('the demo community has no post');
  return pathname.replace('{newest}', newest.id);
}
