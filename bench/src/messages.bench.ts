/**
 * Direct messages live across two instances:
 *   pnpm --filter @cubes/bench bench:messages
 * Starts an embedded PostgreSQL (bench/.data), then two app instances on it the way
 * `INSTANCES=2 npm start` runs them (the real supervisor; the bus is LISTEN/NOTIFY), creates
 * BENCH_CLIENTS members (default 1,000; rows and sessions written directly, no password hashing),
 * opens one WebSocket per member (half on each instance) subscribed to `messages.live`, and sends
 * BENCH_RATE messages a second (default 200) for BENCH_DURATION seconds (default 60) through
 * POST /api/messages, each from a random member to another, on a random instance.
 * Prints send-to-receive latency p50/p99 (POST issued → the receiver's socket has the event),
 * messages lost (a 201 that never reached its receiver), duplicates (an id a receiver got
 * twice), and the RSS of each instance. Not a test: it prints, it never fails on timing.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { hash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { benchDatabase } from './database.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.resolve(here, '..');
const serverDir = path.resolve(benchDir, '..', 'apps', 'server');
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const DURATION = Number(process.env.BENCH_DURATION ?? 60);
const log = (s: string) => console.log(s);

async function freePortPair(): Promise<number> {
  const free = (p: number) =>
    new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(p, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await free(port)) && (await free(port + 1))) return port;
  }
}

// --- database and instances ---------------------------------------------------------------
const { pgServer, url: dbUrl } = await benchDatabase('cubes_bench_messages', { fresh: true });

const port = await freePortPair();
const bases = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`];
const dataDir = path.join(benchDir, '.data', 'messages');
mkdirSync(dataDir, { recursive: true });
const supervisor: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: serverDir,
  env: {
    ...process.env,
    INSTANCES: '2',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SEED_DEMO: '0',
    RATE_LIMIT_SCALE: '1000000', // limits stay on, out of reach
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
async function stop() {
  if (supervisor.exitCode === null) {
    const exited = new Promise((resolve) => supervisor.once('exit', resolve));
    supervisor.kill('SIGTERM');
    await exited;
  }
  await pgServer.stop();
}
for (const base of bases) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${base} did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const instancePids = execFileSync('pgrep', ['-P', String(supervisor.pid)])
  .toString()
  .trim()
  .split('\n')
  .map(Number)
  // The instances, not helpers such as tsx's esbuild service.
  .filter((pid) => !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('esbuild'));

// --- members and sessions -----------------------------------------------------------------
const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
const members = Array.from({ length: CLIENTS }, () => {
  const token = randomBytes(32).toString('base64url');
  return { id: randomUUID(), token, cookie: `cubes_session=${token}` };
});
await db.query(
  `insert into users (id, username, display_name, email, password_hash)
   select id, 'bm' || n, 'Bench ' || n, 'bm' || n || '@bench.local', 'not-a-hash'
     from unnest($1::uuid[]) with ordinality as t(id, n)`,
  [members.map((m) => m.id)],
);
await db.query(
  `insert into sessions (id, token_hash, user_id, expires_at)
   select gen_random_uuid(), h, u, now() + interval '1 day' from unnest($1::text[], $2::uuid[]) as t(h, u)`,
  [members.map((m) => hash('sha256', m.token, 'hex')), members.map((m) => m.id)],
);
await db.end();
log(`${CLIENTS} members; instances on ${bases.join(' and ')} (pids ${instancePids.join(', ')})`);

// --- sockets ------------------------------------------------------------------------------
const sentAt = new Map<string, number>(); // content → when the POST was issued
const receivedBy = new Map<string, number>(); // message id → deliveries to its receiver
const latencies: number[] = [];
let duplicates = 0;

function openSocket(member: { id: string; cookie: string }, base: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/trpc`, {
      headers: { cookie: member.cookie, origin: base },
    });
    socket.on('message', (raw) => {
      const text = raw.toString();
      if (text === 'PING') {
        socket.send('PONG');
        return;
      }
      const frame = JSON.parse(text) as {
        result?: {
          type: string;
          // superjson of a tracked event: { id, data }
          data?: { json?: { id: string; data?: { type: string; message?: Record<string, string> } } };
        };
      };
      if (frame.result?.type === 'started') resolve(socket);
      const event = frame.result?.data?.json?.data;
      if (event?.type !== 'message' || !event.message) return;
      const message = event.message;
      if (message.receiverId !== member.id) return; // the sender's own copy
      const seen = receivedBy.get(message.id!) ?? 0;
      receivedBy.set(message.id!, seen + 1);
      if (seen > 0) {
        duplicates += 1;
        return;
      }
      const start = sentAt.get(message.content!);
      if (start !== undefined) latencies.push(performance.now() - start);
    });
    socket.on('open', () =>
      socket.send(
        JSON.stringify({
          id: 1,
          jsonrpc: '2.0',
          method: 'subscription',
          params: { path: 'messages.live', input: { json: {} } },
        }),
      ),
    );
    socket.on('error', reject);
  });
}

const sockets: WebSocket[] = [];
for (let i = 0; i < CLIENTS; i += 50) {
  sockets.push(
    ...(await Promise.all(members.slice(i, i + 50).map((m, j) => openSocket(m, bases[(i + j) % 2]!)))),
  );
}
log(`${sockets.length} sockets subscribed (half on each instance)`);

// --- load ---------------------------------------------------------------------------------
let sent = 0;
let accepted = 0;
let failed = 0;
const acceptedIds = new Set<string>();
const inflight = new Set<Promise<void>>();
async function sendOne(seq: number) {
  const from = Math.floor(Math.random() * CLIENTS);
  const to = (from + 1 + Math.floor(Math.random() * (CLIENTS - 1))) % CLIENTS;
  const base = bases[Math.floor(Math.random() * 2)]!;
  const content = `bench ${seq}`;
  sentAt.set(content, performance.now());
  try {
    const res = await fetch(`${base}/api/messages`, {
      method: 'POST',
      headers: { cookie: members[from]!.cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ receiverId: members[to]!.id, content, clientId: `c${seq}` }),
    });
    const body = (await res.json()) as { id?: string };
    if (res.status === 201 && body.id) {
      accepted += 1;
      acceptedIds.add(body.id);
    } else failed += 1;
  } catch {
    failed += 1;
  }
}
// Every statement outside a transaction block is a transaction of its own: the database's commit
// count over the run, per message, is the statements each message costs (send, notify, reads).
const stats = new pg.Client({ connectionString: dbUrl });
await stats.connect();
const commits = async () =>
  Number(
    (
      await stats.query<{ n: string }>(
        'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
      )
    ).rows[0]!.n,
  );
const commitsBefore = await commits();
const started = performance.now();
const end = started + DURATION * 1000;
while (performance.now() < end) {
  const due = Math.floor(((performance.now() - started) / 1000) * RATE);
  while (sent < due) {
    const p = sendOne(sent++);
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  }
  await new Promise((r) => setTimeout(r, 2));
}
await Promise.all(inflight);
// Whatever is still on its way gets 5 s.
const drainUntil = Date.now() + 5_000;
while (Date.now() < drainUntil && [...acceptedIds].some((id) => !receivedBy.has(id))) {
  await new Promise((r) => setTimeout(r, 100));
}

// Backends report their counts within a second of going idle.
await new Promise((r) => setTimeout(r, 1_500));
const statementsPerMessage = (await commits()) - commitsBefore - 1;
await stats.end();

function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}
const rss = instancePids.map((pid) => ({ pid, ...rssMb(pid) }));
const lost = [...acceptedIds].filter((id) => !receivedBy.has(id)).length;
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
const results = {
  clients: CLIENTS,
  rate: RATE,
  durationSeconds: DURATION,
  sent,
  accepted,
  failed,
  delivered: latencies.length,
  p50Ms: Number(pct(50).toFixed(1)),
  p99Ms: Number(pct(99).toFixed(1)),
  maxMs: Number((latencies.at(-1) ?? 0).toFixed(1)),
  lost,
  duplicates,
  statementsPerMessage: Number((statementsPerMessage / Math.max(1, accepted)).toFixed(2)),
  rssMb: rss,
};
log(`sent ${sent} (accepted ${accepted}, failed ${failed}) in ${DURATION} s at ${RATE}/s`);
log(`send-to-receive latency: p50 ${results.p50Ms} ms, p99 ${results.p99Ms} ms, max ${results.maxMs} ms`);
log(`lost ${lost}, duplicates ${duplicates}`);
log(`database statements (transactions) per message: ${results.statementsPerMessage}`);
for (const r of rss) log(`instance pid ${r.pid}: RSS ${r.rss} MB (peak ${r.peak} MB)`);
mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(path.join(benchDir, 'results', 'messages.json'), `${JSON.stringify(results, null, 2)}\n`);

for (const s of sockets) s.close();
await stop();
