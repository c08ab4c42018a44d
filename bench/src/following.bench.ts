/**
 * The Following feed at the benchmark's data size (×10 with BENCH_SCALE=10).
 *   pnpm --filter @cubes/bench bench:following      (BENCH_DURATION=10 s per load run)
 * Uses the feed benchmark's data set (generated into bench/.data or .data-x10 on the first run,
 * in its own database) plus three members who follow exactly 10, 200 and 2,000 others
 * (BENCH_GENERATE_ONLY=1 stops there). Under load (autocannon, BENCH_CONNECTIONS), in one run:
 * the Everyone feed's first page and page 2, then each member's first Following page, then each
 * one's page 2 (its posts chosen with pages 3 to 6 on the first read, and kept, as the posts and
 * the member's marks among them are; a followee posting 5 times a second leaves them alone), with
 * the load average.
 * BENCH_PLANS=1 first prints what the fan-out on read costs in the database and a materialised
 * timeline compared:
 *   1. the plans and median times of the real procedure (EXPLAIN ANALYZE through the router) for
 *      a member following 1,000, following 5, and a page deep in the feed;
 *   2. the same pages read from a materialised timeline table (one row per follower and post,
 *      keyed (user_id, created_at desc, post_id desc)), built here for HEAVY_FOLLOWERS members;
 *   3. what the timeline would cost to write: rows per post for authors with 15, 1,000 and
 *      10,000 followers (inserted in a transaction that rolls back) and its size for everyone.
 * BENCH_ONLY=text runs only the load runs whose name holds it (and Everyone's first page).
 * BENCH_REPOSTS=0 leaves reposts out of the data (by default every fourth member reposts 8 posts).
 * Writes bench/results/following.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCaller, createContextInner } from '@cubes/api';
import { type EntityManager, initOrm } from '@cubes/db';
import { hash } from '@node-rs/argon2';
import autocannon from 'autocannon';
import { startBenchServer } from './bench-server.js';
import { benchDatabase } from './database.js';
import { BENCH_PASSWORD, benchDataDir, generate, SIZES } from './generate.js';
import { median } from './stats.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.resolve(here, '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const HEAVY_FOLLOWERS = 100;
const HEAVY_FOLLOWS = 1_000;
const REPEATS = 30;
const log = (s: string) => console.log(s);

const FOLLOW_CASES = [10, 200, 2_000];
const { pgServer, url: dbUrl } = await benchDatabase('cubes_bench_following', {
  fresh: false,
  dataDir: benchDataDir,
});
const orm = await initOrm({ clientUrl: dbUrl, poolMax: 5 });
const em = orm.em.fork();
const [existing] = await em.execute<{ n: number }[]>(
  `select count(*)::int n from users where email like '%@bench.local'`,
);
if ((existing?.n ?? 0) < SIZES.users) {
  log('generating the data set');
  await generate(em, await hash(BENCH_PASSWORD), log);
}
// The last three members follow exactly 10, 200 and 2,000 others, spread over everyone (9 and the
// number of members have no common factor, so the k-th followee differs for every k).
const caseEmail = (i: number) => `bench${SIZES.users - i}@bench.local`;
for (const [i, n] of FOLLOW_CASES.entries()) {
  await em.execute(
    `delete from follows where follower_id = (select id from users where email = '${caseEmail(i)}')`,
  );
  await em.execute(
    `insert into follows (follower_id, followee_id, created_at)
     select a.id, b.id, now()
       from (select id from users where email = '${caseEmail(i)}') a
       cross join generate_series(1, ${n}) k
       join (select id, row_number() over (order by created_at, id) - 1 rn from users where email like '%@bench.local') b
         on b.rn = (${i * 1_000} + k * 9) % ${SIZES.users}
      where a.id <> b.id`,
  );
}
if (process.env.BENCH_GENERATE_ONLY === '1') {
  await orm.close();
  await pgServer.stop();
  process.exit(0);
}
const plans = process.env.BENCH_PLANS === '1';
// bench1..bench100 follow 1,000 members each, spread over everyone (on conflict: idempotent).
if (plans)
  await em.execute(
    `insert into follows (follower_id, followee_id, created_at)
   select a.id, b.id, now()
     from (select id, row_number() over (order by created_at, id) rn from users where email like '%@bench.local') a
     cross join generate_series(1, ${HEAVY_FOLLOWS}) k
     join (select id, row_number() over (order by created_at, id) - 1 rn from users where email like '%@bench.local') b
       on b.rn = (a.rn * 13 + k * 9) % ${SIZES.users}
    where a.rn <= ${HEAVY_FOLLOWERS} and a.id <> b.id
   on conflict do nothing`,
  );
// Reposts (issue #49), unless BENCH_REPOSTS=0: every fourth member reposts 8 of the 20,000 newest
// posts, each a little after the post, so the Following feeds of the cases hold reposts among
// their followees' posts (about one entry in eight). Written afresh each run, counts set to match.
const REPOSTS = process.env.BENCH_REPOSTS !== '0';
await em.execute(
  `delete from reposts where user_id in (select id from users where email like '%@bench.local')`,
);
if (REPOSTS) {
  await em.execute(
    `with recent as (select id, created_at, row_number() over (order by created_at desc, id desc) rn
                       from posts order by created_at desc, id desc limit 20000),
          members as (select id, row_number() over (order by created_at, id) rn from users where email like '%@bench.local')
     insert into reposts (user_id, post_id, created_at)
     select m.id, r.id, least(now(), r.created_at + interval '1 minute' * (1 + (m.rn * 7 + k * 37) % 600))
       from members m cross join generate_series(1, 8) k
       join recent r on r.rn = (m.rn * 131 + k * 977) % 20000 + 1
      where m.rn % 4 = 0
     on conflict do nothing`,
  );
}
await em.execute(
  `update posts p set reposts_count = coalesce((select count(*) from reposts r where r.post_id = p.id), 0)
    where p.reposts_count <> coalesce((select count(*) from reposts r where r.post_id = p.id), 0)`,
);
// As autovacuum leaves a table whose rows are mostly old: the visibility map set, so reading a
// member's follows is index-only (the cases' follows were just written).
await em.execute('vacuum analyze follows');
await em.execute('vacuum analyze reposts');
const counts = (
  await em.execute(
    `select (select count(*) from users) users, (select count(*) from posts) posts,
            (select count(*) from follows) follows, (select count(*) from reposts) reposts,
            (select count(*) from follows where follower_id = (select id from users where email = 'bench1@bench.local')) heavy_follows,
            (select count(*) from follows where follower_id = (select id from users where email = 'bench4242@bench.local')) light_follows,
            ${FOLLOW_CASES.map((n, i) => `(select count(*) from follows where follower_id = (select id from users where email = '${caseEmail(i)}')) follows_${n}`).join(', ')}`,
  )
)[0];
log(`data: ${JSON.stringify(counts)}`);

const member = async (email: string) =>
  (
    await em.execute<{ id: string; username: string }[]>('select id, username from users where email = ?', [
      email,
    ])
  )[0]!;
const heavy = await member('bench1@bench.local');
const light = await member('bench4242@bench.local');
const figures: PageFigure[] = [];
const writeFigures: { followers: number; ms: number }[] = [];
// The real procedures, as a member (planFigures, below, reads through them).
const caller = (user: { id: string; username: string }, emFor = orm.em.fork()) =>
  createCaller(createContextInner({ em: emFor, session: { id: 'bench', user } }));
if (plans) await planFigures();
// A member the one following 200 follows, who posts during one run (each post drops the page);
// the posts of the run before go first.
await em.execute(`delete from posts where content like 'Following bench post %'`);
const [followee] = await em.execute<{ email: string }[]>(
  `select u.email from follows f join users u on u.id = f.followee_id
    where f.follower_id = (select id from users where email = '${caseEmail(1)}') limit 1`,
);
await orm.close();

// --- 1. fan-out on read: the real procedure ----------------------------------------------
function explaining(plans: string[]): EntityManager {
  return new Proxy(orm.em.fork(), {
    get(target, prop, receiver) {
      // As if in a transaction, so prepared.ts sends its statements as text, through `execute`.
      if (prop === 'getTransactionContext') return () => ({});
      if (prop !== 'execute') return Reflect.get(target, prop, receiver);
      return async (sql: string, params?: unknown[]) => {
        const rows = await target.execute<{ 'QUERY PLAN': string }[]>(
          `explain (analyze, buffers) ${sql}`,
          params,
        );
        plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
        return target.execute(sql, params);
      };
    },
  });
}

interface PageFigure {
  label: string;
  medianMs: number;
  plan?: string;
}
async function planFigures(): Promise<void> {
  async function timed(label: string, fn: () => Promise<unknown>, plan?: string) {
    for (let i = 0; i < 3; i++) await fn(); // warm
    const times: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const t0 = performance.now();
      await fn();
      times.push(performance.now() - t0);
    }
    const f = { label, medianMs: Number(median(times).toFixed(2)), plan };
    figures.push(f);
    log(`${label}: median ${f.medianMs} ms over ${REPEATS}`);
  }
  /** The cursor of page `n` (1-based) of a member's Following feed. */
  async function cursorOf(user: { id: string; username: string }, n: number): Promise<string | null> {
    let cursor: string | null = null;
    for (let i = 1; i < n; i++)
      cursor = (await caller(user).posts.feed({ scope: 'following', cursor })).nextCursor;
    return cursor;
  }
  const heavyDeep = await cursorOf(heavy, 10);
  const lightDeep = await cursorOf(light, 3);
  const cases = [
    { label: 'following 1,000: first page', user: heavy, cursor: null },
    { label: 'following 1,000: page 10', user: heavy, cursor: heavyDeep },
    { label: 'following 5: first page', user: light, cursor: null },
    { label: 'following 5: page 3', user: light, cursor: lightDeep },
  ];
  log('\n1. fan-out on read (the real procedure, 20 posts a page)');
  for (const c of cases) {
    const plans: string[] = [];
    await caller(c.user, explaining(plans)).posts.feed({ scope: 'following', cursor: c.cursor });
    // The page's statements (the followee count, the ids, the posts): the ids' plan is the one.
    const plan = plans.find((p) => p.includes('Limit')) ?? plans.at(-1) ?? '';
    const nodes =
      plan.match(
        /(Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan|Hash Join|Nested Loop|Sort)[^\n]*/g,
      ) ?? [];
    log(`\nplan: ${c.label}\n  ${nodes.map((s) => s.trim()).join('\n  ')}`);
    log(
      `  ${plans
        .map((p) =>
          p
            .split('\n')
            .find((l) => l.includes('Execution Time'))
            ?.trim(),
        )
        .join('; ')}`,
    );
    await timed(
      `fan-out on read, ${c.label}`,
      () => caller(c.user).posts.feed({ scope: 'following', cursor: c.cursor }),
      plan,
    );
  }
  await timed('everyone feed, first page (uncached query)', () =>
    orm.em
      .fork()
      .execute(
        `select p.id from posts p join users u on u.id = p.author_id order by p.created_at desc, p.id desc limit 21`,
      ),
  );

  // --- 2. a materialised timeline, for comparison -----------------------------------------
  log('\n2. materialised timeline (built for the 100 heavy followers only)');
  await em.execute('drop table if exists bench_timeline');
  const t0 = performance.now();
  await em.execute(`create unlogged table bench_timeline as
  select f.follower_id as user_id, p.created_at, p.id as post_id
    from follows f join posts p on p.author_id = f.followee_id
   where f.follower_id in (select id from users where email in (${Array.from({ length: HEAVY_FOLLOWERS }, (_, i) => `'bench${i + 1}@bench.local'`).join(', ')}))`);
  await em.execute('create index on bench_timeline (user_id, created_at desc, post_id desc)');
  await em.execute('analyze bench_timeline');
  const [tl] = await em.execute<{ n: number }[]>('select count(*)::int n from bench_timeline');
  log(`  built ${tl!.n} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const timelineRead = (userId: string, after: { createdAt: string; id: string } | null) =>
    orm.em.fork().execute(
      `select p.id, p.content, u.username, p.likes_count, p.comments_count
       from bench_timeline t join posts p on p.id = t.post_id join users u on u.id = p.author_id
      where t.user_id = ? ${after ? 'and (t.created_at, t.post_id) < (?::timestamptz, ?::uuid)' : ''}
      order by t.created_at desc, t.post_id desc limit 21`,
      after ? [userId, after.createdAt, after.id] : [userId],
    );
  // A posts cursor is base64url of 'posts|<createdAt>|<id>' (packages/api/src/paging.ts).
  const [, deepCreatedAt, deepId] = heavyDeep
    ? Buffer.from(heavyDeep, 'base64url').toString().split('|')
    : [];
  const deepAfter = deepCreatedAt && deepId ? { createdAt: deepCreatedAt, id: deepId } : null;
  await timed('timeline, following 1,000: first page', () => timelineRead(heavy.id, null));
  if (deepAfter) await timed('timeline, following 1,000: page 10', () => timelineRead(heavy.id, deepAfter));

  // --- 3. what a timeline costs to write --------------------------------------------------
  log('\n3. fan-out on write: timeline rows per new post');
  const [avg] = await em.execute<{ per_post: number; total: string }[]>(
    `select (select count(*) from follows)::float / (select count(*) from users) as per_post,
          (select sum(c.n) from posts p join (select followee_id, count(*) n from follows group by followee_id) c
             on c.followee_id = p.author_id)::text as total`,
  );
  log(
    `  followers per author on average: ${avg!.per_post.toFixed(1)}; rows for every post so far: ${avg!.total}`,
  );
  for (const followers of [15, 1_000, 10_000]) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const fork = orm.em.fork();
      const t = performance.now();
      await fork
        .transactional(async (tx) => {
          await tx.execute(
            `insert into bench_timeline (user_id, created_at, post_id)
         select u.id, now(), gen_random_uuid() from users u limit ${followers}`,
          );
          throw new Error('rollback');
        })
        .catch(() => {});
      times.push(performance.now() - t);
    }
    const ms = Number(median(times).toFixed(2));
    writeFigures.push({ followers, ms });
    log(`  a post by an author with ${followers} followers: ${ms} ms of inserts (median of 5)`);
  }
  await em.execute('drop table bench_timeline');
}

// --- 4. under load (BENCH_LOAD=0 skips it) ---------------------------------------------
if (process.env.BENCH_LOAD === '0') {
  await pgServer.stop();
  process.exit(0);
}
const appPort = 3911;
const barePort = 3912;
const server = await startBenchServer(dbUrl, appPort, barePort);
const app = `http://127.0.0.1:${appPort}`;
async function cookieOf(email: string): Promise<string> {
  const res = await fetch(`${app}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  return res.headers.get('set-cookie')!.split(';')[0]!;
}
const cookies = await Promise.all(FOLLOW_CASES.map((_, i) => cookieOf(caseEmail(i))));
// Page 2 of each member's Following feed, and of the Everyone feed.
const everyonePage2 = (
  await fetch(`${app}/api/posts/feed`, { headers: { cookie: cookies[2]! } })
).headers.get('x-next-cursor');
const page2s = await Promise.all(
  cookies.map(async (cookie) =>
    (await fetch(`${app}/api/posts/feed?scope=following`, { headers: { cookie } })).headers.get(
      'x-next-cursor',
    ),
  ),
);
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
log(`\n4. load: ${connections} connections, ${duration} s per run; load average ${loadavg()}`);
const load: { name: string; reqPerSec: number; p50: number; p99: number; non2xx: number; loadavg: string }[] =
  [];
const followeeCookie = await cookieOf(followee!.email);
const POSTS_PER_SECOND = 5;
const runs: { name: string; url: string; cookie: string; posting?: boolean }[] = [
  { name: 'everyone, first page', url: `${app}/api/posts/feed`, cookie: cookies[2]! },
  {
    name: 'everyone, page 2',
    url: `${app}/api/posts/feed?cursor=${encodeURIComponent(everyonePage2!)}`,
    cookie: cookies[2]!,
  },
  ...FOLLOW_CASES.map((n, i) => ({
    name: `following ${n.toLocaleString('en')}, first page`,
    url: `${app}/api/posts/feed?scope=following`,
    cookie: cookies[i]!,
  })),
  {
    name: `following 200, first page, a followee posting ${POSTS_PER_SECOND} times a second`,
    url: `${app}/api/posts/feed?scope=following`,
    cookie: cookies[1]!,
    posting: true,
  },
  ...FOLLOW_CASES.flatMap((n, i) => {
    const cursor = page2s[i];
    return cursor
      ? [
          {
            name: `following ${n.toLocaleString('en')}, page 2`,
            url: `${app}/api/posts/feed?scope=following&cursor=${encodeURIComponent(cursor)}`,
            cookie: cookies[i]!,
          },
        ]
      : [];
  }),
  ...(page2s[1]
    ? [
        {
          name: `following 200, page 2, a followee posting ${POSTS_PER_SECOND} times a second`,
          url: `${app}/api/posts/feed?scope=following&cursor=${encodeURIComponent(page2s[1])}`,
          cookie: cookies[1]!,
          posting: true,
        },
      ]
    : []),
];
// BENCH_ONLY=text: only the runs whose name holds it, after Everyone's first page (the ratios' base).
const only = process.env.BENCH_ONLY;
for (const run of runs.filter((r, i) => i === 0 || !only || r.name.includes(only))) {
  await autocannon({ url: run.url, connections, duration: 2, headers: { cookie: run.cookie } }); // warm
  let posting = run.posting === true;
  const poster = (async () => {
    for (let i = 0; posting; i++) {
      await fetch(`${app}/api/posts`, {
        method: 'POST',
        headers: { cookie: followeeCookie, origin: app, 'content-type': 'application/json' },
        body: JSON.stringify({ content: `Following bench post ${i}` }),
      });
      await new Promise((r) => setTimeout(r, 1000 / POSTS_PER_SECOND));
    }
  })();
  const r = await autocannon({ url: run.url, connections, duration, headers: { cookie: run.cookie } });
  posting = false;
  await poster;
  const f = {
    name: run.name,
    reqPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    loadavg: loadavg(),
  };
  load.push(f);
  log(
    `${f.name}: ${f.reqPerSec} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms${f.non2xx ? `, ${f.non2xx} non-2xx` : ''}; load average ${f.loadavg}`,
  );
}
const everyone = load[0]!.reqPerSec;
log(
  `\n| run | req/s | of Everyone's | p50 ms | p99 ms |\n|---|---|---|---|---|\n${load
    .map(
      (f) => `| ${f.name} | ${f.reqPerSec} | ${(f.reqPerSec / everyone).toFixed(2)} | ${f.p50} | ${f.p99} |`,
    )
    .join('\n')}`,
);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
await pgServer.stop();

mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(
  path.join(benchDir, 'results', 'following.json'),
  JSON.stringify(
    { at: new Date().toISOString(), scale: SIZES.users / 10_000, counts, figures, writeFigures, load },
    null,
    2,
  ),
);
