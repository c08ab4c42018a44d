/**
 * Feed and like/unlike under load, against a bare Fastify route measured in the same run.
 *   pnpm bench            (BENCH_DURATION=20 seconds per run, BENCH_CONNECTIONS=50)
 * Runs take turns in BENCH_ROUNDS (default 2) rounds; req/s is the mean of the rounds, p50 and
 * p99 the worst round's.
 * First run generates the data set into bench/.data (kept for later runs; delete it to redo);
 * BENCH_SCALE=10 uses ten times the data, in bench/.data-x10.
 * Prints req/s, p50, p99, the ratio to the bare route and the CPU a request used (the app's
 * process and its PostgreSQL cluster's), and for the like run the bus's events per toggle; writes
 * bench/results/feed.json.
 * Compression: each GET run is measured once per BENCH_ENCODINGS (default `identity,br`; also
 * `gzip`), in the same rounds: `identity` sends no Accept-Encoding, `br` what browsers send
 * (`gzip, deflate, br, zstd`, so Brotli), `gzip` only gzip. Prints the bytes of each answer too.
 * `GET /api/users/:id/posts` runs three times: one member's posts asked again and again (the kept
 * page's hit path); 1,000 members' in turn, each request by one of 50 logged-in readers (many
 * profiles: issue #45's scenario); and each of the 10,000 members' at a page size nobody asked
 * before (cold profiles: the page and the reader's marks come from the database every time).
 * Also prints the query plans of the feed, a profile and its posts, notifications, comments,
 * conversations, a thread and search on that data.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCaller, createContextInner } from '@cubes/api';
import { type EntityManager, initOrm } from '@cubes/db';
import { hash } from '@node-rs/argon2';
import autocannon from 'autocannon';
import pg from 'pg';
import { startBenchServer } from './bench-server.js';
import { clusterCpuMs, cpuMs } from './cpu.js';
import { benchDatabase, printStatementStats, resetStatementStats } from './database.js';
import { BENCH_PASSWORD, benchDataDir, generate, SIZES } from './generate.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.resolve(here, '..');
const duration = Number(process.env.BENCH_DURATION ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const log = (s: string) => console.log(s);

// --- database -----------------------------------------------------------------------------
const { pgServer, url: dbUrl } = await benchDatabase('cubes_bench', { fresh: false, dataDir: benchDataDir });
const orm = await initOrm({ clientUrl: dbUrl, poolMax: 5 });
const em = orm.em.fork();
const [existing] = await em.execute<{ n: number }[]>(
  `select count(*)::int n from users where email like '%@bench.local'`,
);
const n = existing?.n ?? 0;
if (n < SIZES.users) {
  log(
    `generating the data set (${SIZES.users} users, ${SIZES.posts} posts, ${SIZES.users * SIZES.likesPerUser} likes, ${SIZES.users * SIZES.followsPerUser} follows)`,
  );
  await generate(em, await hash(BENCH_PASSWORD), log);
}
const counts = await em.execute(
  `select (select count(*) from users) users, (select count(*) from posts) posts,
          (select count(*) from likes) likes, (select count(*) from follows) follows,
          (select count(*) from notifications) notifications`,
);
log(`data: ${JSON.stringify(counts[0])}`);

// --- what the read endpoints need besides the generated set (added once, kept) --------------
const [viewer] = await em.execute<{ id: string; username: string }[]>(
  `select id, username from users where email = 'bench42@bench.local'`,
);
const [peer] = await em.execute<{ id: string; username: string }[]>(
  `select id, username from users where email = 'bench43@bench.local'`,
);
// The post with the 40 comments: one of the newest generated posts when first seeded (never one
// the mixed benchmark wrote, which it deletes afterwards), found by its comments afterwards.
let [commented] = await em.execute<{ id: string }[]>(
  `select post_id as id from comments where content = 'Comment number 1' limit 1`,
);
if (!commented) {
  [commented] = await em.execute<{ id: string }[]>(
    `select id from posts where content like 'Post %' order by created_at desc, id desc offset 5 limit 1`,
  );
  await em.execute(
    `insert into comments (id, post_id, author_id, content, created_at)
     select gen_random_uuid(), ?, u.id, 'Comment number ' || u.rn, now() - (40 - u.rn) * interval '1 second'
       from (select id, row_number() over (order by email) rn from users where email like 'bench1__@bench.local' limit 40) u`,
    [commented!.id],
  );
  await em.execute(
    'update posts set comments_count = (select count(*) from comments c where c.post_id = posts.id) where id = ?',
    [commented!.id],
  );
  await em.execute('analyze comments');
}
const [seeded] = await em.execute<{ n: number }[]>(
  `select count(*)::int n from direct_messages where content = 'Message 1 between bench members'`,
);
if ((seeded?.n ?? 0) === 0) {
  // 30 conversations of 20 messages (the one with bench43 has 200), read, oldest first.
  await em.execute(
    `insert into direct_messages (id, sender_id, receiver_id, content, created_at, read_at)
     select gen_random_uuid(), case when k % 2 = 0 then ? else u.id end, case when k % 2 = 0 then u.id else ? end,
            'Message ' || k || ' between bench members', now() - interval '1 day' + k * interval '1 second', now()
       from users u
       cross join generate_series(1, 200) k
      where u.email in (${Array.from({ length: 30 }, (_, i) => `'bench${i + 43}@bench.local'`).join(', ')})
        and (k <= 20 or u.email = 'bench43@bench.local')`,
    [viewer!.id, viewer!.id],
  );
  await em.execute('analyze direct_messages');
}

// --- query plans of the real procedures ---------------------------------------------------
const plans: { label: string; plan: string }[] = [];
function explaining(label: string): EntityManager {
  return new Proxy(orm.em.fork(), {
    get(target, prop, receiver) {
      // preparedRows (prepared.ts) runs statements as text through `execute` inside a
      // transaction: seeming to be in one sends every statement through the EXPLAIN below.
      if (prop === 'getTransactionContext') return () => ({ explaining: true });
      if (prop !== 'execute') return Reflect.get(target, prop, receiver);
      return async (sql: string, params?: unknown[]) => {
        const rows = await target.execute<{ 'QUERY PLAN': string }[]>(
          `explain (analyze, costs off) ${sql}`,
          params,
        );
        plans.push({ label, plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
        return target.execute(sql, params); // the service goes on with the real rows
      };
    },
  });
}
const session = { id: 'bench', user: { id: viewer!.id, username: viewer!.username } };
const call = (label: string) => createCaller(createContextInner({ em: explaining(label), session }));
await call('feed (first page)').posts.feed({ limit: 20 });
await call('profile posts').users.posts({ userId: viewer!.id, limit: 20 });
await call('notifications').notifications.list();
await call('comments').comments.list({ postId: commented!.id });
await call('conversations').messages.conversations();
await call('thread').messages.thread({ userId: peer!.id });
await call('profile').users.byUsername({ username: peer!.username });
// Search: a word in every post walks the newest posts; one in none goes to the index at once.
await call('search, a common word').search.query({ q: 'lorem' });
await call('search, a word in no post').search.query({ q: 'art' });
for (const { label, plan } of plans) {
  const scans = plan.match(/(Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)[^\n]*/g) ?? [];
  log(`\nplan: ${label}\n  ${scans.map((s) => s.trim()).join('\n  ')}`);
  log(
    `  ${plan
      .split('\n')
      .find((l) => l.includes('Execution Time'))
      ?.trim()}`,
  );
}
await orm.close();

// --- servers ------------------------------------------------------------------------------
const appPort = Number(process.env.BENCH_APP_PORT ?? 3901);
const barePort = Number(process.env.BENCH_BARE_PORT ?? 3902);
const server = await startBenchServer(dbUrl, appPort, barePort);
const app = `http://127.0.0.1:${appPort}`;
const login = await fetch(`${app}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'bench42@bench.local', password: BENCH_PASSWORD }),
});
const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
const page = await (await fetch(`${app}/api/posts/feed`, { headers: { cookie } })).json();
const pageIds = (page as { id: string }[]).map((p) => p.id);
await fetch(`http://127.0.0.1:${barePort}/bare-body`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(page),
});
const postIds = (await (await fetch(`${app}/api/posts/feed?limit=50`, { headers: { cookie } })).json()) as {
  id: string;
}[];
// Every generated member, in a fixed shuffled order: the profiles the two runs of profiles ask.
const members = await (async () => {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `select id from users where email like '%@bench.local' order by md5(id::text)`,
    );
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
})();
// Many profiles: 1,000 of them (the issue's community), each request another, by one of 50 readers.
const MANY_PROFILES = 1_000;
let nextMember = 0;
const otherMember = () => members[nextMember++ % Math.min(MANY_PROFILES, members.length)]!;
// The cold path: a profile's first page nobody has read at that size. Each pass over the members
// asks another page size, from 25 out to 1 and 50 in turn (25, 26, 24, 27, …: 25 posts on
// average, where the other runs read 20), so a page is never asked twice: a kept page would answer.
let nextCold = 0;
const coldPage = () => {
  const pass = Math.floor(nextCold / members.length) % 50;
  const limit = 25 + (pass % 2 === 1 ? (pass + 1) / 2 : -pass / 2);
  return `/api/users/${members[nextCold++ % members.length]}/posts?limit=${limit}`;
};
const readers = await Promise.all(
  Array.from({ length: 50 }, async (_, n) => {
    const res = await fetch(`${app}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `bench${100 + n}@bench.local`, password: BENCH_PASSWORD }),
    });
    if (!res.ok) throw new Error(`login of reader ${n}: ${res.status}`);
    return res.headers.get('set-cookie')!.split(';')[0]!;
  }),
);
let nextReader = 0;
const otherReader = () => readers[nextReader++ % readers.length]!;

interface Figures {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** bytes read per answer, headers included */
  bytes: number;
  /** CPU ms a request: the app's process and its PostgreSQL's (steadier than req/s on a shared machine) */
  appCpuMs: number;
  pgCpuMs: number;
}
// BENCH_ONLY=feed (or like, bare, notifications, …) runs just the runs whose name contains it,
// or any of a list (`bare,profiles,like`); the rest report 0.
const only = process.env.BENCH_ONLY?.split(',').map((o) => o.trim().toLowerCase());
// The load generator shares the machine, so figures drift; the runs take turns in BENCH_ROUNDS
// rounds of duration/rounds seconds each, and each figure sums up its rounds.
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
type Run = { name: string; opts: autocannon.Options };
async function measureOnce(run: Run): Promise<autocannon.Result> {
  return autocannon({ connections, duration: duration / rounds, ...run.opts });
}
/** CPU ms each run's rounds used, app and PostgreSQL, and the requests they answered. */
const cpu = new Map<string, { app: number; pg: number; requests: number }>();
function summarise(name: string, results: autocannon.Result[]): Figures {
  const used = cpu.get(name);
  const perRequest = (ms: number) => (used?.requests ? Number((ms / used.requests).toFixed(3)) : 0);
  const f = {
    name,
    reqPerSec: Math.round(results.reduce((n, r) => n + r.requests.average, 0) / (results.length || 1)),
    p50: Math.max(0, ...results.map((r) => r.latency.p50)),
    p99: Math.max(0, ...results.map((r) => r.latency.p99)),
    errors: results.reduce((n, r) => n + r.errors, 0),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    bytes: Math.round(
      results.reduce((n, r) => n + r.throughput.total, 0) /
        Math.max(
          1,
          results.reduce((n, r) => n + r.requests.total, 0),
        ),
    ),
    appCpuMs: perRequest(used?.app ?? 0),
    pgCpuMs: perRequest(used?.pg ?? 0),
  };
  log(
    `${name}: ${f.reqPerSec} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, CPU a request: app ${f.appCpuMs} ms, PostgreSQL ${f.pgCpuMs} ms${f.non2xx || f.errors ? `, ${f.non2xx} non-2xx, ${f.errors} errors` : ''}`,
  );
  return f;
}

log(
  `\nload: ${connections} connections, ${duration} s per run in ${rounds} round(s); feed page of ${pageIds.length} posts`,
);
let i = 0;
const pick = () => postIds[i++ % postIds.length]!.id;
const logged = (path: string) => ({ url: `${app}${path}`, headers: { cookie } });
/** What each name in BENCH_ENCODINGS sends as Accept-Encoding (none for `identity`). */
const ACCEPT: Record<string, string | undefined> = {
  identity: undefined,
  br: 'gzip, deflate, br, zstd',
  gzip: 'gzip',
};
const encodings = (process.env.BENCH_ENCODINGS ?? 'identity,br').split(',').map((e) => e.trim());
for (const e of encodings) if (!(e in ACCEPT)) throw new Error(`BENCH_ENCODINGS: unknown ${e}`);
/** The run once per encoding: `identity` keeps its name (as in earlier runs), others get `[br]`. */
const perEncoding = (run: Run): Run[] =>
  encodings.map((encoding) => {
    const accept = ACCEPT[encoding];
    if (accept === undefined) return run;
    const headers = { ...(run.opts.headers ?? {}), 'accept-encoding': accept };
    return { name: `${run.name} [${encoding}]`, opts: { ...run.opts, headers } };
  });
// The rendered runs need the built web app (dist and its server renderer: `pnpm build`).
const rendered = (await fetch(`${app}/`)).headers.get('content-type')?.startsWith('text/html') ?? false;
if (!rendered) log('no built web app (pnpm build): the rendered pages are not measured');
const reads: Run[] = [
  { name: 'bare Fastify route (same body)', opts: { url: `http://127.0.0.1:${barePort}/bare` } },
  { name: 'GET /api/posts/feed (logged in)', opts: logged('/api/posts/feed') },
  { name: 'GET /api/posts/feed (a visitor)', opts: { url: `${app}/api/posts/feed` } },
  // Pages rendered on the server for a visitor (issue #48), beside the JSON they are made of.
  ...(rendered
    ? [
        { name: 'GET / (a visitor: rendered page)', opts: { url: `${app}/` } },
        { name: 'GET /api/posts/:id (a visitor)', opts: { url: `${app}/api/posts/${postIds[0]!.id}` } },
        {
          name: 'GET /posts/:id (a visitor: rendered page)',
          opts: { url: `${app}/posts/${postIds[0]!.id}` },
        },
        // A member's home and Chat, rendered with their data for each request (never kept).
        { name: 'GET / (a member: rendered page with their data)', opts: logged('/') },
        { name: 'GET /chat (a member: rendered page with their data)', opts: logged('/chat') },
      ]
    : []),
  // Each read endpoint on its own, as the same member.
  { name: 'GET /api/notifications', opts: logged('/api/notifications') },
  { name: 'GET /api/users/:id/posts (a user’s posts)', opts: logged(`/api/users/${peer!.id}/posts`) },
  {
    name: 'GET /api/users/:id/posts (a different member each, 50 readers: many profiles)',
    opts: {
      ...logged('/api/users/-/posts'),
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            path: `/api/users/${otherMember()}/posts`,
            headers: { ...req.headers, cookie: otherReader() },
          }),
        },
      ],
    },
  },
  {
    name: 'GET /api/users/:id/posts (each member and page size once: cold profiles)',
    opts: {
      ...logged('/api/users/-/posts'),
      requests: [{ setupRequest: (req) => ({ ...req, path: coldPage() }) }],
    },
  },
  { name: 'GET /api/posts/:id/comments (40 comments)', opts: logged(`/api/posts/${commented!.id}/comments`) },
  { name: 'GET /api/messages/conversations (30)', opts: logged('/api/messages/conversations') },
  { name: 'GET /api/messages/:userId (a thread of 200)', opts: logged(`/api/messages/${peer!.id}`) },
];
const runs: Run[] = [
  ...reads.flatMap((run) => (run.name.startsWith('GET') ? perEncoding(run) : [run])),
  {
    name: 'POST+DELETE /api/posts/:id/like',
    opts: {
      url: app,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => ({
            ...req,
            path: `/api/posts/${pick()}/like`,
            headers: { cookie, 'content-type': 'application/json' },
            body: '{}',
          }),
        },
        {
          method: 'DELETE',
          setupRequest: (req) => ({
            ...req,
            path: `/api/posts/${pick()}/like`,
            headers: { cookie },
            body: undefined,
          }),
        },
      ],
    },
  },
];
const chosen = runs.filter((r) => !only || only.some((o) => r.name.toLowerCase().includes(o)));
const collected = new Map<string, autocannon.Result[]>(runs.map((r) => [r.name, []]));
// What one like or unlike costs the database: the queries the app sent (knex counts BEGIN and
// COMMIT too) and the transactions PostgreSQL committed, per request of the like run.
const stats = new pg.Client({ connectionString: dbUrl });
await stats.connect();
const transactions = async () =>
  Number(
    (
      await stats.query<{ n: string }>(
        'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
      )
    ).rows[0]!.n,
  );
const queries = async () =>
  ((await (await fetch(`http://127.0.0.1:${barePort}/bench-stats`)).json()) as { queries: number }).queries;
const perToggle = { requests: 0, queries: 0, transactions: 0 };
// The bus's events during the like runs, by topic, as another instance hears them (LISTEN on the
// app's channel): what a toggle sends to every instance besides its own statement.
const busEvents = new Map<string, number>();
let countingBus = false;
stats.on('notification', ({ payload }) => {
  if (!countingBus || !payload) return;
  const topic = (JSON.parse(payload) as { t?: string }).t ?? '?';
  busEvents.set(topic, (busEvents.get(topic) ?? 0) + 1);
});
await stats.query('listen cubes_events');
// Unmeasured: each chosen run for BENCH_WARMUP (3) s first, so the rounds measure a server that
// has run. A new PostgreSQL backend pays a page fault the first time it touches each page of
// shared memory (see the mixed bench); the app's pool starts 20 new ones, and a larger data set
// has more pages to touch.
const warmup = Number(process.env.BENCH_WARMUP ?? 3);
if (warmup > 0) for (const run of chosen) await autocannon({ connections, duration: warmup, ...run.opts });
await resetStatementStats(dbUrl);
for (let round = 0; round < rounds; round++) {
  for (const run of chosen) {
    const isLike = run.name.includes('like');
    const before = isLike ? { q: await queries(), t: await transactions() } : null;
    const cpuBefore = { app: cpuMs(server.pid!), pg: clusterCpuMs(pgServer.pid() ?? 0) };
    countingBus = isLike;
    const result = await measureOnce(run);
    const used = cpu.get(run.name) ?? { app: 0, pg: 0, requests: 0 };
    used.app += cpuMs(server.pid!) - cpuBefore.app;
    used.pg += clusterCpuMs(pgServer.pid() ?? 0) - cpuBefore.pg;
    used.requests += result.requests.total;
    cpu.set(run.name, used);
    collected.get(run.name)!.push(result);
    if (before) {
      await new Promise((r) => setTimeout(r, 1_000)); // backends report their counts when idle
      perToggle.requests += result.requests.total;
      perToggle.queries += (await queries()) - before.q;
      perToggle.transactions += (await transactions()) - before.t - 1; // - the query above
      countingBus = false;
    }
  }
}
await stats.end();
await printStatementStats(dbUrl);
if (perToggle.requests > 0) {
  log(
    // knex sees only statements sent through MikroORM; the toggle itself is a prepared statement
    // (prepared.ts), so PostgreSQL's commit count is the figure (the bell's NOTIFY included).
    `like/unlike: ${(perToggle.transactions / perToggle.requests).toFixed(2)} transactions per toggle (${(perToggle.queries / perToggle.requests).toFixed(2)} statements through knex besides the prepared toggle)`,
  );
  const perToggleOf = (n: number) => (n / perToggle.requests).toFixed(3);
  log(
    `like/unlike: bus events per toggle ${[...busEvents].map(([topic, n]) => `${topic} ${perToggleOf(n)}`).join(', ') || 'none'}`,
  );
}
const results = runs.map((r) => summarise(r.name, collected.get(r.name)!));
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
await pgServer.stop();

const bare = results[0]!.reqPerSec || 1;
log(
  '\n| run | req/s | p50 ms | p99 ms | vs bare | bytes/answer | CPU ms a request, app + PostgreSQL |\n|---|---|---|---|---|---|---|',
);
for (const r of results) {
  log(
    `| ${r.name} | ${r.reqPerSec} | ${r.p50} | ${r.p99} | ${(r.reqPerSec / bare).toFixed(3)} | ${r.bytes} | ${r.appCpuMs} + ${r.pgCpuMs} |`,
  );
}
mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(
  path.join(benchDir, 'results', 'feed.json'),
  JSON.stringify({ at: new Date().toISOString(), duration, connections, results, plans }, null, 2),
);
