/**
 * Search and the gallery under load, against a bare Fastify route measured in the same run.
 *   pnpm --filter @cubes/bench bench:search   (BENCH_DURATION=10 s per run, BENCH_CONNECTIONS=50,
 *   BENCH_APP_PORT=3911 and BENCH_BARE_PORT=3912 for the two servers it starts)
 * First run generates 1,000,000 posts, 10,000 users and 100,000 gallery items into
 * bench/.data-search (kept for later runs; delete it to redo). Prints the EXPLAIN ANALYZE of each
 * search through the real procedure, then p50/p90/p97.5/p99 (autocannon has no p95: it lies
 * between p90 and p97.5) and the ratio to the bare route; writes bench/results/search.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCaller, createContextInner } from '@cubes/api';
import { type EntityManager, initOrm } from '@cubes/db';
import { hash } from '@node-rs/argon2';
import autocannon from 'autocannon';
import { startBenchServer } from './bench-server.js';
import { benchDatabase } from './database.js';
import { generateSearchData, SEARCH_SIZES, WORDS } from './search.generate.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.resolve(here, '..');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const log = (s: string) => console.log(s);

const { pgServer, url: dbUrl } = await benchDatabase('cubes_search_bench', {
  fresh: false,
  dataDir: '.data-search',
});
const orm = await initOrm({ clientUrl: dbUrl, poolMax: 5 });
const em = orm.em.fork();
const [existing] = await em.execute<{ n: number }[]>('select count(*)::int n from posts');
if ((existing?.n ?? 0) < SEARCH_SIZES.posts) {
  log(
    `generating ${SEARCH_SIZES.posts} posts, ${SEARCH_SIZES.users} users, ${SEARCH_SIZES.media} gallery items`,
  );
  await generateSearchData(em, await hash('bench-password'), log);
}
// Bulk loads leave GIN pending lists and dead counter rows that autovacuum would clear later;
// clear them now, so its timing does not decide the figures.
await em.execute('vacuum analyze');
const counts = await em.execute(
  `select (select count(*) from users) users, (select count(*) from posts) posts,
          (select count(*) from ai_media) media, (select count(*) from search_words) words`,
);
log(`data: ${JSON.stringify(counts[0])}`);

const QUERIES = [
  { name: 'common word', q: 'cubes' },
  { name: 'rare word', q: 'zebrafish' },
  { name: 'typo', q: 'zebrafsh' },
  { name: 'two-word phrase', q: '"pixel art"' },
  { name: 'prefix', q: 'communi' },
] as const;

// --- plans: the real procedure, every statement also run under EXPLAIN ANALYZE -----------------
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
        return target.execute(sql, params);
      };
    },
  });
}
for (const { name, q } of QUERIES) {
  const result = await createCaller(createContextInner({ em: explaining(name) })).search.query({ q });
  log(
    `\n${name} (${q}): ${result.users.length} users, ${result.posts.length} posts, ${result.aiMedia.length} media`,
  );
}
await createCaller(createContextInner({ em: explaining('gallery') })).gallery.list({});
for (const { label, plan } of plans) {
  const scans = [
    ...new Set(
      plan.match(/(Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)[^\n]*/g)?.map((s) => s.trim()),
    ),
  ];
  const time = plan
    .split('\n')
    .find((l) => l.includes('Execution Time'))
    ?.trim();
  log(`plan: ${label}: ${time}\n  ${scans.join('\n  ')}`);
}
await orm.close();

// --- load ------------------------------------------------------------------------------------
const appPort = Number(process.env.BENCH_APP_PORT ?? 3911);
const barePort = Number(process.env.BENCH_BARE_PORT ?? 3912);
const server = await startBenchServer(dbUrl, appPort, barePort);
const app = `http://127.0.0.1:${appPort}`;
const sample = await (await fetch(`${app}/api/search?q=cubes`)).json();
await fetch(`http://127.0.0.1:${barePort}/bare-body`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(sample),
});

interface Figures {
  name: string;
  reqPerSec: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  non2xx: number;
  errors: number;
}
const login = await fetch(`${app}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'search42@bench.local', password: 'bench-password' }),
});
const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
// Two words of the vocabulary, a new pair for each request (200 × 199 pairs): answers the cache
// (search.cache.ts) cannot have, so every request runs the whole search.
let pair = 0;
const uncached = (): string => {
  pair += 1;
  const a = WORDS[(pair * 7919) % WORDS.length]!;
  const b = WORDS[(pair * 104_729 + Math.floor(pair / WORDS.length)) % WORDS.length]!;
  return `/api/search?q=${encodeURIComponent(`${a} ${b}`)}`;
};

const runs: { name: string; opts: Omit<autocannon.Options, 'connections' | 'duration'> }[] = [
  { name: 'bare Fastify route (a search answer)', opts: { url: `http://127.0.0.1:${barePort}/bare` } },
  ...QUERIES.map(({ name, q }) => ({
    name: `GET /api/search: ${name}`,
    opts: { url: `${app}/api/search?q=${encodeURIComponent(q)}` },
  })),
  {
    name: 'GET /api/search: common word, logged in',
    opts: { url: `${app}/api/search?q=cubes`, headers: { cookie } },
  },
  {
    name: 'GET /api/search: a new pair of words each request (not cached)',
    opts: { url: app, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: uncached() }) }] },
  },
  { name: 'GET /api/gallery (100,000 items)', opts: { url: `${app}/api/gallery` } },
];
const results: Figures[] = [];
for (const run of runs) {
  const r = await autocannon({ ...run.opts, connections, duration });
  const f = {
    name: run.name,
    reqPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p90: r.latency.p90,
    p97_5: r.latency.p97_5,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
  results.push(f);
  log(
    `${f.name}: ${f.reqPerSec} req/s, p50 ${f.p50} ms, p90 ${f.p90} ms, p97.5 ${f.p97_5} ms, p99 ${f.p99} ms${f.non2xx || f.errors ? `, ${f.non2xx} non-2xx, ${f.errors} errors` : ''}`,
  );
}
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
await pgServer.stop();

const bare = results[0]!.reqPerSec || 1;
log('\n| run | req/s | p50 ms | p90 ms | p97.5 ms | p99 ms | vs bare |\n|---|---|---|---|---|---|---|');
for (const r of results) {
  log(
    `| ${r.name} | ${r.reqPerSec} | ${r.p50} | ${r.p90} | ${r.p97_5} | ${r.p99} | ${(r.reqPerSec / bare).toFixed(2)} |`,
  );
}
mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(
  path.join(benchDir, 'results', 'search.json'),
  JSON.stringify({ at: new Date().toISOString(), duration, connections, results, plans }, null, 2),
);
