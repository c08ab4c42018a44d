/**
 * The database restart under load: members read the feed and write posts through the real app
 * (its own process) while the embedded PostgreSQL's postmaster is killed outright (SIGKILL)
 * mid-run. The supervisor starts PostgreSQL again; this prints what the clients saw: how many
 * answers were 2xx, 503 or anything else (which must be 0), how fast the 503s came, how long
 * from the kill to the first success again, and whether every write that got a 2xx is stored.
 *
 *   pnpm --filter @cubes/bench bench:restart   (RESTART_SECONDS, RESTART_KILL_AT, RESTART_CONNECTIONS)
 */
import { fork } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '@cubes/db';
import pg from 'pg';

const here = path.dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.RESTART_SECONDS ?? 20);
const killAt = Number(process.env.RESTART_KILL_AT ?? 5);
const connections = Number(process.env.RESTART_CONNECTIONS ?? 32);
const WRITE_SHARE = 0.3;

const dir = await mkdtemp(path.join(os.tmpdir(), 'cubes-bench-restart-'));
await chmod(dir, 0o755);
const notices: { at: number; line: string }[] = [];
// Durable settings, as `npm start` runs it: an acknowledged commit must survive the crash.
const pgServer = await startEmbeddedPostgres({
  dataDir: path.join(dir, 'pg'),
  port: 0,
  notice: (line) => notices.push({ at: performance.now(), line }),
});
const admin = new pg.Client({ connectionString: pgServer.url('postgres') });
await admin.connect();
await admin.query('create database restart_bench');
await admin.end();
const dbUrl = pgServer.url('restart_bench');

const appPort = 3911;
const server = fork(path.join(here, 'server.ts'), [], {
  execArgv: ['--max-semi-space-size=32', '--import', 'tsx'],
  env: {
    ...process.env,
    BENCH_DATABASE_URL: dbUrl,
    BENCH_APP_PORT: String(appPort),
    BENCH_BARE_PORT: '3912',
  },
});
await new Promise<void>((resolve, reject) => {
  server.once('message', () => resolve());
  server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
});
const app = `http://127.0.0.1:${appPort}`;

const cookies: string[] = [];
for (let i = 0; i < 20; i += 1) {
  const res = await fetch(`${app}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `restart${i}`,
      email: `restart${i}@example.com`,
      password: 'secret12',
      displayName: `Restart ${i}`,
    }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  cookies.push(res.headers.getSetCookie()[0]!.split(';')[0]!);
}

interface Sample {
  start: number;
  end: number;
  status: number;
  write: boolean;
  content?: string;
}
const samples: Sample[] = [];
let sequence = 0;
const began = performance.now();
const until = began + seconds * 1000;

async function worker(id: number) {
  const cookie = cookies[id % cookies.length]!;
  while (performance.now() < until) {
    const write = Math.random() < WRITE_SHARE;
    sequence += 1;
    const content = write ? `restart-bench-${sequence}` : undefined;
    const start = performance.now();
    let status = 0;
    try {
      const res = write
        ? await fetch(`${app}/api/posts`, {
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ content }),
          })
        : await fetch(`${app}/api/posts/feed?limit=20`, { headers: { cookie } });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = 0; // the connection failed: counted with the "other" answers
    }
    samples.push({ start, end: performance.now(), status, write, ...(content ? { content } : {}) });
  }
}

const killTimer = setTimeout(() => {
  const pid = pgServer.pid();
  if (pid) process.kill(pid, 'SIGKILL');
}, killAt * 1000);
const killedAt = began + killAt * 1000;
await Promise.all(Array.from({ length: connections }, (_, i) => worker(i)));
clearTimeout(killTimer);

// --- what the clients saw ------------------------------------------------------------------
const byStatus = new Map<number, number>();
for (const s of samples) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);
const unavailable = samples.filter((s) => s.status === 503);
const other = samples.filter((s) => !(s.status >= 200 && s.status < 300) && s.status !== 503);
const latencies = unavailable.map((s) => s.end - s.start).sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
const lastFailureEnd = Math.max(
  0,
  ...samples.filter((s) => s.status !== 200 && s.status !== 201).map((s) => s.end),
);
const firstSuccessAfter = samples
  .filter((s) => s.start >= lastFailureEnd && s.status >= 200 && s.status < 300)
  .reduce((min, s) => Math.min(min, s.end), Number.POSITIVE_INFINITY);
const restartedAt = notices.find((n) => /running again/.test(n.line))?.at;

const acknowledged = samples
  .filter((s) => s.write && s.status >= 200 && s.status < 300)
  .map((s) => s.content!);
const check = new pg.Client({ connectionString: dbUrl });
await check.connect();
const stored = new Set(
  (
    await check.query<{ content: string }>(`select content from posts where content like 'restart-bench-%'`)
  ).rows.map((r) => r.content),
);
await check.end();
const lost = acknowledged.filter((c) => !stored.has(c)).length;

const ms = (v: number) => `${Math.round(v)} ms`;
console.log(
  `\nDatabase restart under load: ${connections} connections, ${seconds} s, postmaster SIGKILLed at ${killAt} s`,
);
console.log(
  `answers: ${samples.length} (${[...byStatus].map(([s, n]) => `${s || 'no answer'}: ${n}`).join(', ')})`,
);
console.log(`other than 2xx or 503: ${other.length}`);
console.log(
  `503 answers: ${unavailable.length}, took p50 ${ms(pct(50))}, p99 ${ms(pct(99))}, max ${ms(latencies.at(-1) ?? 0)}`,
);
if (restartedAt) console.log(`PostgreSQL running again ${ms(restartedAt - killedAt)} after the kill`);
console.log(
  Number.isFinite(firstSuccessAfter)
    ? `recovered: first success after the last failure ${ms(firstSuccessAfter - killedAt)} after the kill`
    : 'NOT recovered before the end of the run',
);
console.log(`writes acknowledged: ${acknowledged.length}, lost: ${lost}`);
for (const n of notices) console.log(`  supervisor +${ms(n.at - killedAt)}: ${n.line.slice(0, 160)}`);

server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
await pgServer.stop();
await rm(dir, { recursive: true, force: true });
process.exit(other.length === 0 && lost === 0 && Number.isFinite(firstSuccessAfter) ? 0 : 1);
