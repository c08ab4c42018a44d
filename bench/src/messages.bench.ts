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
 *
 * Failover: with BENCH_KILL_AT=<seconds> the two instances are started on their own (the
 * supervisor would stop both when one dies) and the second is killed with SIGKILL that many
 * seconds into the load. Its clients do what the web's wsLink does: reconnect at once, to the
 * other instance (each client knows both URLs), resending the subscription with the id of the
 * last event they had, so the server catches them up from the database. A send whose instance
 * died under it is retried on the other one with the same clientId (the server stores it once).
 * Also prints the reconnect time of the killed instance's clients (kill → the survivor has caught
 * them up: the first event of the new subscription, which follows the catch-up) p50/p99/max.
 * BENCH_PORT sets the first instance's port (the second is the next one); default: free ports.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { hash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import WebSocket from 'ws';
import { benchDatabase } from './database.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.resolve(here, '..');
const serverDir = path.resolve(benchDir, '..', 'apps', 'server');
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const DURATION = Number(process.env.BENCH_DURATION ?? 60);
const KILL_AT = process.env.BENCH_KILL_AT ? Number(process.env.BENCH_KILL_AT) : null;
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

const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePortPair();
const bases = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`];
const dataDir = path.join(benchDir, '.data', 'messages');
mkdirSync(dataDir, { recursive: true });
const serverEnv = {
  ...process.env,
  HOST: '127.0.0.1',
  DATABASE_URL: dbUrl,
  DATA_DIR: dataDir,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  SEED_DEMO: '0',
  RATE_LIMIT_SCALE: '1000000', // limits stay on, out of reach
};
const startServer = (env: Record<string, string>): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...serverEnv, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
async function waitHealthy(base: string) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${base} did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
// `INSTANCES=2 npm start`, or (failover) two instances of their own, started one after the other
// (the first migrates the fresh database).
const servers: ChildProcess[] = [];
if (KILL_AT === null) {
  servers.push(startServer({ INSTANCES: '2', PORT: String(port) }));
  for (const base of bases) await waitHealthy(base);
} else {
  for (const [i, base] of bases.entries()) {
    servers.push(startServer({ PORT: String(port + i) }));
    await waitHealthy(base);
  }
}
async function stop() {
  for (const server of servers) {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
  }
  await pgServer.stop();
}
const instancePids =
  KILL_AT === null
    ? execFileSync('pgrep', ['-P', String(servers[0]!.pid)])
        .toString()
        .trim()
        .split('\n')
        .map(Number)
        // The instances, not helpers such as tsx's esbuild service.
        .filter((pid) => !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('esbuild'))
    : servers.map((server) => server.pid!);

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
let stopping = false;
let killedAt: number | null = null;
const reconnectMs: number[] = []; // kill → caught up on the other instance, per client of the killed one
const resubscribedMs: number[] = []; // kill → the other instance has started the subscription again

/** A member's live socket: which instance it is on, and the id of the last event it had. */
interface LiveSocket {
  member: { id: string; cookie: string };
  at: number;
  socket?: WebSocket;
  lastEventId?: string;
  attempts: number;
  reconnecting: boolean;
}

/**
 * Opens the subscription on the client's instance (resending its last event id, if any); when the
 * socket drops, reconnects at once to the next instance, then backs off as the web does.
 */
function openSocket(live: LiveSocket): Promise<WebSocket> {
  const { member } = live;
  const base = bases[live.at]!;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/trpc`, {
      headers: { cookie: member.cookie, origin: base },
    });
    live.socket = socket;
    socket.on('close', () => {
      if (stopping || KILL_AT === null) return;
      if (!live.reconnecting) live.reconnecting = true;
      live.at = (live.at + 1) % bases.length;
      const delay = live.attempts === 0 ? 0 : Math.min(1000 * 2 ** (live.attempts - 1), 30_000);
      live.attempts += 1;
      setTimeout(() => void openSocket(live).catch(() => {}), delay);
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
          id?: string;
          // superjson of a tracked event: { id, data }
          data?: { json?: { id: string; data?: { type: string; message?: Record<string, string> } } };
        };
      };
      if (frame.result?.type === 'started') {
        resolve(socket);
        if (live.reconnecting && killedAt !== null) resubscribedMs.push(performance.now() - killedAt);
      }
      if (frame.result?.id) live.lastEventId = frame.result.id;
      const event = frame.result?.data?.json?.data;
      // A new subscription sends the unread count once it has caught up: back in step.
      if (event?.type === 'unread' && live.reconnecting) {
        live.reconnecting = false;
        live.attempts = 0;
        if (killedAt !== null) reconnectMs.push(performance.now() - killedAt);
      }
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
          params: {
            path: 'messages.live',
            input: { json: live.lastEventId ? { lastEventId: live.lastEventId } : {} },
          },
        }),
      ),
    );
    socket.on('error', reject);
  });
}

const sockets: LiveSocket[] = members.map((member, i) => ({
  member,
  at: i % 2,
  attempts: 0,
  reconnecting: false,
}));
for (let i = 0; i < CLIENTS; i += 50) await Promise.all(sockets.slice(i, i + 50).map(openSocket));
log(`${sockets.length} sockets subscribed (half on each instance)`);

// --- load ---------------------------------------------------------------------------------
let sent = 0;
let accepted = 0;
let failed = 0;
let retried = 0;
const failures = new Map<string, number>(); // why sends failed: an HTTP status, or the error's code
const fail = (why: string) => {
  failed += 1;
  failures.set(why, (failures.get(why) ?? 0) + 1);
};
const acceptedIds = new Set<string>();
const inflight = new Set<Promise<void>>();
// An instance a send could not reach is left out of the choice from then on (a load balancer's
// health check would do the same).
const down = new Set<number>();
async function sendOne(seq: number) {
  const from = Math.floor(Math.random() * CLIENTS);
  const to = (from + 1 + Math.floor(Math.random() * (CLIENTS - 1))) % CLIENTS;
  const up = bases.map((_, i) => i).filter((i) => !down.has(i));
  let at = up[Math.floor(Math.random() * up.length)] ?? 0;
  const content = `bench ${seq}`;
  sentAt.set(content, performance.now());
  for (let attempt = 0; ; attempt++) {
    const base = bases[at]!;
    try {
      const res = await fetch(`${base}/api/messages`, {
        method: 'POST',
        headers: { cookie: members[from]!.cookie, origin: base, 'content-type': 'application/json' },
        // The same clientId on every attempt: a send that was stored before its instance died is
        // answered with the stored message, not stored twice.
        body: JSON.stringify({ receiverId: members[to]!.id, content, clientId: `c${seq}` }),
      });
      const body = (await res.json()) as { id?: string };
      if (res.status === 201 && body.id) {
        accepted += 1;
        acceptedIds.add(body.id);
      } else fail(String(res.status));
      return;
    } catch (error) {
      // No answer (the instance died before or while answering): retry on the other one.
      if (KILL_AT === null || attempt >= 3) {
        const cause = (error as { cause?: { code?: string } }).cause;
        fail(cause?.code ?? (error as Error).name);
        return;
      }
      down.add(at);
      at = (at + 1) % bases.length;
      retried += 1;
    }
  }
}
// The machine's yardstick, measured in this run just before the load: a bare Fastify route
// (50 connections, 5 s), as the other benchmarks compare against.
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));
const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
const bareRun = await autocannon({ url: `${bareUrl}/bare`, connections: 50, duration: 5 });
await bare.close();
const bareReqPerSec = Math.round(bareRun.requests.average);
log(`bare Fastify route: ${bareReqPerSec} req/s, p99 ${bareRun.latency.p99} ms`);

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
const doomed = bases.length - 1;
while (performance.now() < end) {
  if (KILL_AT !== null && killedAt === null && performance.now() - started >= KILL_AT * 1000) {
    killedAt = performance.now();
    servers[doomed]!.kill('SIGKILL');
    log(
      `killed instance ${doomed + 1} (${bases[doomed]}, pid ${servers[doomed]!.pid}) with SIGKILL at ${KILL_AT} s`,
    );
  }
  const due = Math.floor(((performance.now() - started) / 1000) * RATE);
  while (sent < due) {
    const p = sendOne(sent++);
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  }
  await new Promise((r) => setTimeout(r, 2));
}
await Promise.all(inflight);
// Whatever is still on its way gets 5 s (30 s after a kill: the survivor has the catch-ups too).
const drainUntil = Date.now() + (KILL_AT === null ? 5_000 : 30_000);
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
const rss = instancePids
  .filter((pid) => KILL_AT === null || pid !== servers[doomed]!.pid)
  .map((pid) => ({ pid, ...rssMb(pid) }));
const lost = [...acceptedIds].filter((id) => !receivedBy.has(id)).length;
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
const percentile = (values: number[], p: number) =>
  Number((values[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? 0).toFixed(1));
reconnectMs.sort((a, b) => a - b);
resubscribedMs.sort((a, b) => a - b);
const reconnectPct = (p: number) => percentile(reconnectMs, p);
const stillAway = sockets.filter((s) => s.reconnecting).length;
const results = {
  clients: CLIENTS,
  rate: RATE,
  durationSeconds: DURATION,
  sent,
  accepted,
  failed,
  failures: Object.fromEntries(failures),
  delivered: latencies.length,
  p50Ms: Number(pct(50).toFixed(1)),
  p99Ms: Number(pct(99).toFixed(1)),
  maxMs: Number((latencies.at(-1) ?? 0).toFixed(1)),
  lost,
  duplicates,
  statementsPerMessage: Number((statementsPerMessage / Math.max(1, accepted)).toFixed(2)),
  rssMb: rss,
  bareReqPerSec,
  loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
  ...(KILL_AT === null
    ? {}
    : {
        killAtSeconds: KILL_AT,
        retriedSends: retried,
        reconnected: reconnectMs.length,
        notReconnected: stillAway,
        reconnectP50Ms: reconnectPct(50),
        reconnectP99Ms: reconnectPct(99),
        reconnectMaxMs: Number((reconnectMs.at(-1) ?? 0).toFixed(1)),
        resubscribedP50Ms: percentile(resubscribedMs, 50),
        resubscribedP99Ms: percentile(resubscribedMs, 99),
      }),
};
// (resubscribed: the other instance accepted the socket and started the subscription; caught up:
// it has also sent what was missed, then the unread count.)
log(
  `sent ${sent} (accepted ${accepted}, failed ${failed}${failed ? ` ${JSON.stringify(results.failures)}` : ''}) in ${DURATION} s at ${RATE}/s`,
);
log(`send-to-receive latency: p50 ${results.p50Ms} ms, p99 ${results.p99Ms} ms, max ${results.maxMs} ms`);
log(`lost ${lost}, duplicates ${duplicates}`);
log(`database statements (transactions) per message: ${results.statementsPerMessage}`);
for (const r of rss) log(`instance pid ${r.pid}: RSS ${r.rss} MB (peak ${r.peak} MB)`);
log(`load average at the end: ${results.loadAverage.join(', ')}`);
if (KILL_AT !== null) {
  log(`sends retried on the other instance (same clientId): ${retried}`);
  log(
    `resubscribed on the other instance: p50 ${results.resubscribedP50Ms} ms, p99 ${results.resubscribedP99Ms} ms after the kill`,
  );
  log(
    `reconnected ${reconnectMs.length} sockets of the killed instance (${stillAway} not): kill → caught up on the other instance p50 ${results.reconnectP50Ms} ms, p99 ${results.reconnectP99Ms} ms, max ${results.reconnectMaxMs} ms`,
  );
}
mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(
  path.join(benchDir, 'results', KILL_AT === null ? 'messages.json' : 'messages-failover.json'),
  `${JSON.stringify(results, null, 2)}\n`,
);

stopping = true;
for (const s of sockets) s.socket?.close();
await stop();
