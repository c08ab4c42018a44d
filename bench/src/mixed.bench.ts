/**
 * A day in the life of the product, against the bare Fastify route measured in the same run:
 *   pnpm --filter @cubes/bench bench:mixed
 * 80 % reads (feed first and later pages, profiles and their posts, notifications,
 * conversations, a thread, search, gallery) and 20 % writes (likes, unlikes, posts, comments,
 * messages, favourites), each request from one of BENCH_USERS (1,000) seeded members. Uses the
 * feed benchmark's data set (bench/.data, generated on first use) plus gallery items and
 * sessions written here. Prints req/s, p50/p99 per kind and overall, and the ratio to the bare
 * route.
 *
 * Closed loop by default: BENCH_CONNECTIONS (50) requests in flight for BENCH_DURATION (20) s,
 * after BENCH_WARMUP (5) s of the same mix, closed loop, that is not measured (in both modes).
 * Beside it, in the same run and at the same connections, the bare route and the one-query route
 * (server.ts: Fastify, the pool, one primary-key select of a post, encoded as the app's): the
 * mix's share of the one-query route is its aim.
 * Open loop in steps: BENCH_OPEN_RATES=250,500,750 runs the mix at each fixed arrival rate for
 * BENCH_STEP (10) s (open-loop.ts: requests start on schedule whatever the answers do, latency
 * from when each was due), prints each step and the highest rate whose p99 stayed under 50 ms.
 * Soak: BENCH_SOAK=600 runs the mix open-loop at a steady BENCH_RATE (200) requests a second for
 * that many seconds, samples the server's RSS every 10 s and prints its slope, and counts
 * errors and connection-pool timeouts. Not a test: it prints, it never fails on timing.
 * Compression: the closed loop runs once per BENCH_ENCODINGS (default `identity,br`), taking
 * turns in BENCH_ROUNDS (default 2) rounds of duration/rounds seconds: `identity` sends no
 * Accept-Encoding, `br` what browsers send (`gzip, deflate, br, zstd`), `gzip` only gzip. The
 * per-kind table is the first encoding's; a second table sets the encodings side by side, and
 * the app's CPU time per request under each (from /proc) is what compression costs the server.
 * The soak uses the first encoding.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { initOrm } from '@cubes/db';
import { hash } from '@node-rs/argon2';
import autocannon from 'autocannon';
import pg from 'pg';
import { startBenchServer } from './bench-server.js';
import { cpuMs, postgresCpuMs, startCpuSampler } from './cpu.js';
import { benchDatabase, printStatementStats, resetStatementStats } from './database.js';
import { BENCH_PASSWORD, benchDataDir, generate, SIZES } from './generate.js';
import { type OpenLoopRequest, openLoop, openLoopPools, printStalls } from './open-loop.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.resolve(here, '..');
const USERS = Number(process.env.BENCH_USERS ?? 1_000);
const duration = Number(process.env.BENCH_DURATION ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const soak = Number(process.env.BENCH_SOAK ?? 0);
const warmup = Number(process.env.BENCH_WARMUP ?? 5);
const rate = Number(process.env.BENCH_RATE ?? 200);
const openRates = (process.env.BENCH_OPEN_RATES ?? '').split(',').filter(Boolean).map(Number);
const stepSeconds = Number(process.env.BENCH_STEP ?? 10);
/** The open-loop aim: the highest rate whose p99 stays under this. */
const OPEN_P99_MS = 50;
const appPort = Number(process.env.BENCH_APP_PORT ?? 3903);
const barePort = Number(process.env.BENCH_BARE_PORT ?? 3904);
// BENCH_INSTANCES=2: the app as `INSTANCES=2 npm start` runs it, two processes on one database
// (the bus on LISTEN/NOTIFY between them), requests taking turns as behind a round-robin balancer.
const instances = Math.max(1, Number(process.env.BENCH_INSTANCES ?? 1));
const log = (s: string) => console.log(s);
/** What each name in BENCH_ENCODINGS sends as Accept-Encoding (none for `identity`). */
const ACCEPT: Record<string, string | undefined> = {
  identity: undefined,
  br: 'gzip, deflate, br, zstd',
  gzip: 'gzip',
};
const encodings = (process.env.BENCH_ENCODINGS ?? 'identity,br').split(',').map((e) => e.trim());
for (const e of encodings) if (!(e in ACCEPT)) throw new Error(`BENCH_ENCODINGS: unknown ${e}`);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));

// --- database -----------------------------------------------------------------------------
const { pgServer, url: dbUrl } = await benchDatabase('cubes_bench', { fresh: false, dataDir: benchDataDir });
{
  const orm = await initOrm({ clientUrl: dbUrl, poolMax: 5 });
  const em = orm.em.fork();
  const [existing] = await em.execute<{ n: number }[]>(
    `select count(*)::int n from users where email like '%@bench.local'`,
  );
  if ((existing?.n ?? 0) < SIZES.users) {
    log(`generating the data set (${SIZES.users} users, ${SIZES.posts} posts)`);
    await generate(em, await hash(BENCH_PASSWORD), log);
  }
  await orm.close();
}
const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
// Gallery items to read and favourite (the feed's data set has none).
const { rows: mediaCount } = await db.query<{ n: number }>('select count(*)::int n from ai_media');
if (mediaCount[0]!.n < 2_000) {
  await db.query(
    `insert into ai_media (id, type, title, image_url, width, height, creator_id, favorites_count, created_at)
     select gen_random_uuid(), (array['art','music','fun','video'])[1 + i % 4], 'Bench cube ' || i,
            '/objects/bench/' || i, 640, 480, u.id, 0, now() - i * interval '1 minute'
       from generate_series(1, 2000) i
       join lateral (select id from users where email = 'bench' || (1 + i % 1000) || '@bench.local') u on true`,
  );
  await db.query('vacuum (analyze) ai_media'); // as generate.ts does: GIN pending lists cleared
}
// The members: bench1..benchN, each with a session written directly (no password hashing).
const { rows: users } = await db.query<{ id: string; username: string }>(
  `select id, username from users where email = any($1::text[]) order by username`,
  [Array.from({ length: USERS }, (_, i) => `bench${i + 1}@bench.local`)],
);
const members = users.map((u) => {
  const token = randomBytes(32).toString('base64url');
  return { ...u, cookie: `cubes_session=${token}`, hash: createHash('sha256').update(token).digest('hex') };
});
await db.query(
  `insert into sessions (id, token_hash, user_id, expires_at)
   select gen_random_uuid(), h, u, now() + interval '1 day' from unnest($1::text[], $2::uuid[]) as t(h, u)`,
  [members.map((m) => m.hash), members.map((m) => m.id)],
);
const { rows: recentPosts } = await db.query<{ id: string }>(
  'select id from posts where removed_at is null order by created_at desc limit 200',
);
const { rows: media } = await db.query<{ id: string }>(
  'select id from ai_media order by created_at desc limit 500',
);
log(`${members.length} members, ${recentPosts.length} recent posts to act on, ${media.length} gallery items`);

// --- servers ------------------------------------------------------------------------------
// Instance i listens on appPort + 2i (and a bare route, unused but for the first, on barePort + 2i).
const servers: Awaited<ReturnType<typeof startBenchServer>>[] = [];
for (let i = 0; i < instances; i++)
  servers.push(await startBenchServer(dbUrl, appPort + 2 * i, barePort + 2 * i));
const server = servers[0]!;
const app = `http://127.0.0.1:${appPort}`;
const bareUrl = `http://127.0.0.1:${barePort}`;
const first = await fetch(`${app}/api/posts/feed`, { headers: { cookie: members[0]!.cookie } });
const firstPage = await first.json();
await fetch(`${bareUrl}/bare-body`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(firstPage),
});
// Cursors of later feed pages, walked once.
const cursors: string[] = [];
let cursor = first.headers.get('x-next-cursor');
while (cursor && cursors.length < 20) {
  cursors.push(cursor);
  const res = await fetch(`${app}/api/posts/feed?cursor=${encodeURIComponent(cursor)}`);
  await res.arrayBuffer();
  cursor = res.headers.get('x-next-cursor');
}

// --- the mix ------------------------------------------------------------------------------
interface Req {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
}
type Member = (typeof members)[number];
const any = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;
const other = (m: Member) => {
  let o = any(members);
  while (o.id === m.id) o = any(members);
  return o;
};
const WORDS = ['cubes', 'pixel', 'community', 'lorem', 'bench', 'art', 'about', 'dolor'];
let seq = 0;
/** [kind, weight in %, request for a member]; reads sum to 80, writes to 20. */
const KINDS: [string, number, (m: Member) => Req][] = [
  ['feed first page', 22, () => ({ method: 'GET', path: '/api/posts/feed' })],
  [
    'feed later page',
    8,
    () => ({ method: 'GET', path: `/api/posts/feed?cursor=${encodeURIComponent(any(cursors))}` }),
  ],
  ['profile', 6, (m) => ({ method: 'GET', path: `/api/users/by-username/${other(m).username}` })],
  ['profile posts', 8, (m) => ({ method: 'GET', path: `/api/users/${other(m).id}/posts` })],
  ['notifications', 10, () => ({ method: 'GET', path: '/api/notifications' })],
  ['conversations', 6, () => ({ method: 'GET', path: '/api/messages/conversations' })],
  ['thread', 8, () => ({ method: 'GET', path: `/api/posts/${any(recentPosts).id}/comments` })],
  ['search', 6, () => ({ method: 'GET', path: `/api/search?q=${any(WORDS)}` })],
  ['gallery', 6, () => ({ method: 'GET', path: '/api/gallery' })],
  ['like', 6, () => ({ method: 'POST', path: `/api/posts/${any(recentPosts).id}/like`, body: {} })],
  ['unlike', 4, () => ({ method: 'DELETE', path: `/api/posts/${any(recentPosts).id}/like` })],
  [
    'post',
    2,
    () => ({
      method: 'POST',
      path: '/api/posts',
      // Worded like the generated posts (generate.ts), so searches find them as they find those.
      body: {
        content: `Mixed bench post ${seq++} about cubes, pixels and the community. Lorem ipsum dolor sit amet.`,
      },
    }),
  ],
  [
    'comment',
    3,
    () => ({
      method: 'POST',
      path: `/api/posts/${any(recentPosts).id}/comments`,
      body: { content: `Nice cube ${seq++}` },
    }),
  ],
  [
    'message',
    3,
    (m) => ({
      method: 'POST',
      path: '/api/messages',
      body: { receiverId: other(m).id, content: `hello ${seq++}`, clientId: `mix${seq}-${Date.now()}` },
    }),
  ],
  ['favourite', 2, () => ({ method: 'POST', path: `/api/gallery/${any(media).id}/favorite`, body: {} })],
];
const total = KINDS.reduce((n, k) => n + k[1], 0);
if (total !== 100) throw new Error(`the mix sums to ${total} %`);
// BENCH_KINDS='search,like': only these kinds, in their shares of the mix (what each costs alone).
const onlyKinds = (process.env.BENCH_KINDS ?? '')
  .split(',')
  .map((k) => k.trim())
  .filter(Boolean);
for (const k of onlyKinds)
  if (!KINDS.some(([kind]) => kind === k)) throw new Error(`BENCH_KINDS: unknown ${k}`);
const picked = onlyKinds.length > 0 ? KINDS.filter(([kind]) => onlyKinds.includes(kind)) : KINDS;
const pickedTotal = picked.reduce((n, k) => n + k[1], 0);
const pickKind = () => {
  let r = Math.random() * pickedTotal;
  for (const k of picked) {
    r -= k[1];
    if (r < 0) return k;
  }
  return picked[0]!;
};

const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(connections, 64) });
interface Outcome {
  kind: string;
  ms: number;
  status: number; // 0: no answer
  /** body bytes received (the open loop does not count them) */
  bytes?: number;
}
let turn = 0;
/** The next request of the mix, as a random member, to the instance on `port`. */
function nextRequest(port: number): OpenLoopRequest {
  const [kind, , make] = pickKind();
  const member = any(members);
  const req = make(member);
  const body = req.body === undefined ? undefined : JSON.stringify(req.body);
  return {
    kind,
    method: req.method,
    path: req.path,
    body,
    headers: {
      cookie: member.cookie,
      origin: `http://127.0.0.1:${port}`,
      ...(body === undefined
        ? {}
        : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
    },
  };
}
function send(encoding = encodings[0]!): Promise<Outcome> {
  const accept = ACCEPT[encoding];
  const port = appPort + 2 * (turn++ % instances);
  const { kind, method, path, headers: base, body } = nextRequest(port);
  const headers = accept === undefined ? base : { ...base, 'accept-encoding': accept };
  const t0 = performance.now();
  return new Promise((resolve) => {
    const r = http.request({ agent, host: '127.0.0.1', port, method, path, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ kind, ms: performance.now() - t0, status: res.statusCode ?? 0, bytes }));
    });
    r.on('error', () => resolve({ kind, ms: performance.now() - t0, status: 0, bytes: 0 }));
    r.end(body);
  });
}

const byEncoding = new Map<string, Outcome[]>(encodings.map((e) => [e, []]));
const outcomes = byEncoding.get(encodings[0]!)!;
const failures = new Map<string, number>(); // "kind status" → count
function record(o: Outcome, into = outcomes) {
  into.push(o);
  if (o.status < 200 || o.status >= 300) {
    const key = `${o.kind} ${o.status}`;
    failures.set(key, (failures.get(key) ?? 0) + 1);
  }
}
interface ServerStats {
  queries: number;
  poolTimeouts: number;
  maxPendingAcquires: number;
}
const serverStats = async (): Promise<ServerStats> => {
  const all = await Promise.all(
    servers.map(
      async (_, i) =>
        (await (await fetch(`http://127.0.0.1:${barePort + 2 * i}/bench-stats`)).json()) as ServerStats,
    ),
  );
  return {
    queries: all.reduce((n, s) => n + s.queries, 0),
    poolTimeouts: all.reduce((n, s) => n + s.poolTimeouts, 0),
    maxPendingAcquires: Math.max(...all.map((s) => s.maxPendingAcquires)),
  };
};
/** CPU time (user + system, ms) the process has used so far, from /proc. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 102.4) / 10;
}

log(
  `load average before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
/** `connections` requests in flight for `seconds`, each sent as the one before it answers. */
async function closedLoop(
  seconds: number,
  onOutcome: (o: Outcome) => void,
  encoding = encodings[0],
): Promise<void> {
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) onOutcome(await send(encoding));
    }),
  );
}
let bare: autocannon.Result | null = null;
let oneQuery: autocannon.Result | null = null;
/** The app's and PostgreSQL's CPU time (ms) while the one-query route ran. */
let oneQueryCpuMs = { app: 0, pg: 0 };
interface Step {
  rate: number;
  sent: number;
  p50: number;
  p99: number;
  failed: number;
  maxLagMs: number;
}
const steps: Step[] = [];
if (warmup > 0) {
  // Unmeasured: the mix for BENCH_WARMUP seconds, so the figures are of a server that has run,
  // not of its first seconds. Each new PostgreSQL backend pays a page fault the first time it
  // touches each page of shared memory: a walk over 5,000 cached posts took 60–190 ms on a new
  // connection (8,354 minor faults) and 5–14 ms on the next calls (none), and the app's pool
  // starts 20 new connections.
  await closedLoop(warmup, () => {});
  if (soak === 0 && openRates.length === 0) {
    await autocannon({ url: `${bareUrl}/bare`, connections, duration: Math.min(warmup, 3) });
    await autocannon({ url: `${bareUrl}/one-query`, connections, duration: Math.min(warmup, 3) });
  }
}
await resetStatementStats(dbUrl);
await Promise.all(
  servers.map((_, i) => fetch(`http://127.0.0.1:${barePort + 2 * i}/bench-stats/reset`, { method: 'POST' })),
);
const rssSamples: { s: number; mb: number }[] = [];
/** The app processes' CPU time (ms) while each encoding's loop ran: what it cost the server. */
const cpuByEncoding = new Map<string, number>();
/** PostgreSQL's CPU time (ms) over the same loops. */
const pgCpuByEncoding = new Map<string, number>();
const started = performance.now();
if (soak > 0) {
  // Open loop at a steady rate: a slow answer does not slow the arrivals down.
  log(`soak: ${rate} req/s for ${soak} s`);
  const pending = new Set<Promise<void>>();
  const sample = () => rssSamples.push({ s: (performance.now() - started) / 1000, mb: rssMb(server.pid!) });
  sample();
  const sampler = setInterval(sample, 10_000);
  let sent = 0;
  while (performance.now() - started < soak * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (sent < due) {
      sent += 1;
      const p = send().then(record);
      pending.add(p);
      p.finally(() => pending.delete(p));
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(pending);
  clearInterval(sampler);
  sample();
} else if (openRates.length > 0) {
  const trace = process.env.BENCH_OPEN_TRACE === '1' ? startCpuSampler(servers.map((s) => s.pid!)) : null;
  // Open loop in steps: each rate for stepSeconds, its own figures; the answers of a step are all
  // in before the next starts.
  const { pools, close } = openLoopPools(servers.map((_, i) => `http://127.0.0.1:${appPort + 2 * i}`));
  // Unmeasured, so the generator is warm (open-loop.ts): the first rate for the warm-up's length.
  if (warmup > 0) {
    await openLoop({
      pools,
      rate: openRates[0]!,
      seconds: warmup,
      next: (i) => nextRequest(appPort + 2 * i),
      onOutcome: () => {},
    });
  }
  const tracedFrom = new Date();
  for (const stepRate of openRates) {
    const list: (Outcome & { dueMs?: number })[] = [];
    const stepStartedAt = Date.now();
    const run = await openLoop({
      pools,
      rate: stepRate,
      seconds: stepSeconds,
      next: (i) => nextRequest(appPort + 2 * i),
      onOutcome: (o) => {
        list.push(o);
        record(o);
      },
    });
    const ms = list.map((o) => o.ms).sort((a, b) => a - b);
    const at = (p: number) =>
      Number((ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))] ?? 0).toFixed(1));
    const step = {
      rate: stepRate,
      sent: run.sent,
      p50: at(50),
      p99: at(99),
      failed: list.filter((o) => o.status < 200 || o.status >= 300).length,
      maxLagMs: Number(run.maxLagMs.toFixed(1)),
    };
    steps.push(step);
    if (trace) printStalls(list, stepStartedAt, trace.samples, log);
    log(
      `open loop ${step.rate} req/s: ${step.sent} sent, p50 ${step.p50} ms, p99 ${step.p99} ms, ${step.failed} failed; generator at most ${step.maxLagMs} ms late; load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
  await close();
  if (trace) {
    trace.stop();
    // Autovacuum and autoanalyze during the steps, to set beside the stalls' times.
    const vacuums = await db.query<{ relname: string; what: string; at: string }>(
      `select relname, what, to_char(at at time zone 'UTC', 'HH24:MI:SS.MS') as at
         from pg_stat_user_tables,
              lateral (values ('autovacuum', last_autovacuum), ('autoanalyze', last_autoanalyze)) v(what, at)
        where at >= $1 order by at`,
      [tracedFrom],
    );
    for (const v of vacuums.rows) log(`  ${v.at}: ${v.what} ${v.relname}`);
  }
} else {
  bare = await autocannon({ url: `${bareUrl}/bare`, connections, duration });
  const oneQueryCpu = { app: cpuMs(server.pid!), pg: postgresCpuMs() };
  oneQuery = await autocannon({ url: `${bareUrl}/one-query`, connections, duration });
  oneQueryCpuMs = { app: cpuMs(server.pid!) - oneQueryCpu.app, pg: postgresCpuMs() - oneQueryCpu.pg };
  // BENCH_PHASE_PROF=dir: a CPU profile of the first app process over the mix's loops only.
  const phaseProf = process.env.BENCH_PHASE_PROF;
  if (phaseProf) await fetch(`${bareUrl}/bench-profile/start`, { method: 'POST' });
  for (let round = 0; round < rounds; round++) {
    for (const encoding of encodings) {
      const into = byEncoding.get(encoding)!;
      const before = servers.reduce((n, s) => n + cpuMs(s.pid!), 0);
      const pgBefore = postgresCpuMs();
      await closedLoop(duration / rounds, (o) => record(o, into), encoding);
      cpuByEncoding.set(
        encoding,
        (cpuByEncoding.get(encoding) ?? 0) + servers.reduce((n, s) => n + cpuMs(s.pid!), 0) - before,
      );
      pgCpuByEncoding.set(encoding, (pgCpuByEncoding.get(encoding) ?? 0) + postgresCpuMs() - pgBefore);
    }
  }
  if (phaseProf) {
    const file = path.resolve(phaseProf, `mix-${Date.now()}.cpuprofile`);
    mkdirSync(phaseProf, { recursive: true });
    await fetch(`${bareUrl}/bench-profile/stop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file }),
    });
    log(`CPU profile of the mix: ${file}`);
  }
}
const elapsed = soak > 0 ? soak : openRates.length > 0 ? openRates.length * stepSeconds : duration;
const stats = await serverStats();
const loadAfter = os.loadavg();
await printStatementStats(dbUrl);
await Promise.all(
  servers.map((s) => {
    s.kill('SIGTERM');
    return new Promise((r) => s.once('exit', r));
  }),
);
await db.query('delete from sessions where token_hash = any($1::text[])', [members.map((m) => m.hash)]);
// What the mix wrote goes, so the data set is the same for the next run: left in place, a few
// hundred posts a run soon made up all of the newest posts that search looks at first.
await db.query(`delete from posts where content like 'Mixed bench post %'`);
await db.query(
  `with gone as (delete from comments where content like 'Nice cube %' returning post_id)
   update posts set comments_count = greatest(0, comments_count - g.n)
     from (select post_id, count(*)::int n from gone group by post_id) g
    where posts.id = g.post_id`,
);
await db.query(`delete from direct_messages where client_id like 'mix%'`);
await db.end();
await pgServer.stop();

// --- figures ------------------------------------------------------------------------------
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
const figure = (name: string, list: Outcome[]) => {
  const ms = list.map((o) => o.ms).sort((a, b) => a - b);
  return {
    name,
    requests: list.length,
    reqPerSec: Math.round(list.length / elapsed),
    p50: Number(pct(ms, 50).toFixed(1)),
    p99: Number(pct(ms, 99).toFixed(1)),
    failed: list.filter((o) => o.status < 200 || o.status >= 300).length,
    bytes: Math.round(list.reduce((n, o) => n + (o.bytes ?? 0), 0) / Math.max(1, list.length)),
  };
};
const perKind = KINDS.map(([kind]) =>
  figure(
    kind,
    outcomes.filter((o) => o.kind === kind),
  ),
);
const overall = figure('overall', outcomes);
const bareReqPerSec = bare ? Math.round(bare.requests.average) : null;
log(`\nload average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
log('\n| kind | requests | req/s | p50 ms | p99 ms | failed |\n|---|---|---|---|---|---|');
for (const f of [...perKind, overall]) {
  log(`| ${f.name} | ${f.requests} | ${f.reqPerSec} | ${f.p50} | ${f.p99} | ${f.failed} |`);
}
const compared = encodings.map((encoding) => ({
  encoding,
  perKind: KINDS.map(([kind]) =>
    figure(
      kind,
      byEncoding.get(encoding)!.filter((o) => o.kind === kind),
    ),
  ),
  overall: figure('overall', byEncoding.get(encoding)!),
  serverCpuMsPerRequest: Number(
    ((cpuByEncoding.get(encoding) ?? 0) / Math.max(1, byEncoding.get(encoding)!.length)).toFixed(3),
  ),
  postgresCpuMsPerRequest: Number(
    ((pgCpuByEncoding.get(encoding) ?? 0) / Math.max(1, byEncoding.get(encoding)!.length)).toFixed(3),
  ),
}));
if (soak === 0 && encodings.length > 1) {
  log(
    `\n| kind | ${encodings.map((e) => `${e} req/s | p99 ms | body bytes`).join(' | ')} |\n|---|${encodings.map(() => '---|---|---|').join('')}`,
  );
  for (const [i, name] of [...KINDS.map(([kind]) => kind), 'overall'].entries()) {
    const cells = compared.map((c) => {
      const f = c.perKind[i] ?? c.overall;
      return `${f.reqPerSec} | ${f.p99} | ${f.bytes}`;
    });
    log(`| ${name} | ${cells.join(' | ')} |`);
  }
}
if (soak === 0 && openRates.length === 0) {
  log(
    `\nCPU per request, the app's and PostgreSQL's: ${compared.map((c) => `${c.encoding} ${c.serverCpuMsPerRequest} ms and ${c.postgresCpuMsPerRequest} ms`).join('; ')}`,
  );
}
if (bare && bareReqPerSec) {
  log(
    `\nbare Fastify route: ${bareReqPerSec} req/s, p50 ${bare.latency.p50} ms, p99 ${bare.latency.p99} ms; the mix: ${(overall.reqPerSec / bareReqPerSec).toFixed(2)} of it`,
  );
}
const oneQueryReqPerSec = oneQuery ? Math.round(oneQuery.requests.average) : null;
if (oneQuery && oneQueryReqPerSec) {
  log(
    `one-query route: ${oneQueryReqPerSec} req/s, p50 ${oneQuery.latency.p50} ms, p99 ${oneQuery.latency.p99} ms${oneQuery.non2xx ? `, ${oneQuery.non2xx} non-2xx` : ''}; the mix: ${(overall.reqPerSec / oneQueryReqPerSec).toFixed(2)} of its req/s, p99 ${(overall.p99 / oneQuery.latency.p99).toFixed(1)}× its p99; CPU per request, the app's and PostgreSQL's: ${(oneQueryCpuMs.app / oneQuery.requests.total).toFixed(3)} ms and ${(oneQueryCpuMs.pg / oneQuery.requests.total).toFixed(3)} ms`,
  );
}
const bestOpenRate = steps.filter((s) => s.p99 < OPEN_P99_MS && s.failed === 0).at(-1)?.rate ?? null;
if (steps.length > 0) {
  log(
    '\n| open-loop rate | sent | p50 ms | p99 ms | failed | generator late, ms |\n|---|---|---|---|---|---|',
  );
  for (const s of steps) log(`| ${s.rate} | ${s.sent} | ${s.p50} | ${s.p99} | ${s.failed} | ${s.maxLagMs} |`);
  log(`highest rate with p99 < ${OPEN_P99_MS} ms and no failure: ${bestOpenRate ?? 'none'}`);
}
log(
  `failures: ${failures.size ? [...failures].map(([k, n]) => `${k} ×${n}`).join(', ') : 'none'}; pool timeouts ${stats.poolTimeouts}, most requests waiting for a connection ${stats.maxPendingAcquires}; ${(stats.queries / Math.max(1, outcomes.length)).toFixed(2)} queries per request`,
);
let slope: number | null = null;
if (rssSamples.length > 1) {
  // Least-squares slope of RSS over time, in MB per minute.
  const n = rssSamples.length;
  const mx = rssSamples.reduce((a, s) => a + s.s, 0) / n;
  const my = rssSamples.reduce((a, s) => a + s.mb, 0) / n;
  const sxy = rssSamples.reduce((a, s) => a + (s.s - mx) * (s.mb - my), 0);
  const sxx = rssSamples.reduce((a, s) => a + (s.s - mx) ** 2, 0);
  slope = (sxy / sxx) * 60;
  log(`RSS every 10 s (MB): ${rssSamples.map((s) => s.mb).join(' ')}; slope ${slope.toFixed(2)} MB/min`);
}
mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(
  path.join(
    benchDir,
    'results',
    soak > 0 ? 'mixed-soak.json' : steps.length > 0 ? 'mixed-open.json' : 'mixed.json',
  ),
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      mode: soak > 0 ? { soakSeconds: soak, rate } : { duration, connections },
      loadAverageAfter: loadAfter,
      bareReqPerSec,
      oneQuery: oneQuery
        ? { reqPerSec: oneQueryReqPerSec, p50: oneQuery.latency.p50, p99: oneQuery.latency.p99 }
        : null,
      openLoopSteps: steps,
      bestOpenRate,
      perKind,
      overall,
      encodings: compared,
      failures: Object.fromEntries(failures),
      pool: stats,
      rssSamples,
      rssSlopeMbPerMin: slope,
    },
    null,
    2,
  )}\n`,
);
