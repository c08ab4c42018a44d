/**
 * The upload benchmark's server process: the real app with the local driver in a temp directory.
 * Samples its own RSS every 10 ms and reports the peak over IPC ({type:'rss'} → {rss, peak}).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { initOrm } from '@cubes/db';
import { buildApp } from '@cubes/server';
import { createLocalStorage } from '@cubes/storage';

const root = mkdtempSync(path.join(tmpdir(), 'cubes-bench-objects-'));
const orm = await initOrm({ clientUrl: process.env.BENCH_DATABASE_URL!, poolMax: 20 });
const app = await buildApp({
  orm,
  storage: createLocalStorage({ root, secret: 'b'.repeat(64) }),
  config: {
    allowedOrigins: [],
    cookieSecure: false,
    trustProxy: false,
    rateLimitScale: 1_000_000, // limits stay on, just out of reach
    logLevel: 'silent',
    webDist: null,
  },
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 10);
process.on('message', (message: { type: string }) => {
  if (message.type === 'rss') process.send?.({ type: 'rss', rss: process.memoryUsage().rss, peak });
  if (message.type === 'reset') {
    peak = process.memoryUsage().rss;
    process.send?.({ type: 'reset', peak });
  }
});
process.send?.({ type: 'ready', address, root });

process.on('SIGTERM', async () => {
  clearInterval(sampler);
  await app.close();
  await orm.close();
  rmSync(root, { recursive: true, force: true });
  process.exit(0);
});
