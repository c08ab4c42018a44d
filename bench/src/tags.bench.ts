/**
 * Tags at 1,000,000 posts: what trending and a tag's page cost in the database.
 *   pnpm --filter @cubes/bench bench:tags      (BENCH_TAG_POSTS to change the size)
 * Generates into its own database (cubes_bench_tags in bench/.data, kept between runs) 10,000
 * members and BENCH_TAG_POSTS posts over 30 days (one every ~2.6 s, so ~33,000 in the last 24
 * hours); half the posts carry 1–3 tags out of 2,000, skewed so a few tags are very common (the
 * commonest on ~1 post in 12). Then times, through the real procedures (median of REPEATS after
 * warming): trending uncached (the statement the 30 s cache runs) and cached, a tag page's first
 * page and page 20 for the commonest tag and a rare one, the tag's counts, and Search's tags for
 * a few prefixes as typed. Prints the plans with BENCH_PLANS=1. Writes bench/results/tags.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCaller, createContextInner } from '@cubes/api';
import { initOrm } from '@cubes/db';
import { benchDatabase } from './database.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchDir = path.resolve(here, '..');
const POSTS = Number(process.env.BENCH_TAG_POSTS ?? 1_000_000);
const USERS = 10_000;
const TAGS = 2_000;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);
const log = (s: string) => console.log(s);

const { pgServer, url } = await benchDatabase('cubes_bench_tags', { fresh: false });
const orm = await initOrm({ clientUrl: url, poolMax: 5 });
const em = orm.em.fork();
// A data set generated before the index joined the tags migration gets it here.
await em.execute(
  'create index if not exists "posts_removed_created_at_index" on "posts" ("created_at") where "removed_at" is not null',
);

const [have] = await em.execute<{ n: number }[]>('select count(*)::int as n from posts');
if ((have?.n ?? 0) < POSTS) {
  log(`generating ${POSTS.toLocaleString('en')} posts`);
  const run = async (label: string, sql: string) => {
    const t0 = performance.now();
    await em.execute(sql);
    log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  await run('truncate', 'truncate users cascade');
  await run(
    'users',
    `insert into users (id, username, display_name, email, password_hash, email_visible, created_at)
     select gen_random_uuid(), 'tagger_' || i, 'Tagger ' || i, 'tagger' || i || '@bench.local', 'x', false,
            now() - interval '60 days' from generate_series(1, ${USERS}) i`,
  );
  await run(
    'ranked users',
    `create temporary table bench_users as select id, row_number() over (order by id) - 1 as rn from users`,
  );
  await run('index ranked users', 'create unique index on bench_users (rn)');
  // Tag k of a post is 'tag' || floor(TAGS * r^3): r uniform, so small numbers are common.
  await run(
    'posts',
    `insert into posts (id, author_id, content, likes_count, comments_count, created_at)
     select gen_random_uuid(), u.id,
            'Post ' || i || ' about cubes' ||
            case when i % 2 = 0 then
              ' #tag' || floor(${TAGS} * power(((i * 7919) % 10007) / 10007.0, 3))::int ||
              case when i % 4 = 0 then ' #tag' || floor(${TAGS} * power(((i * 104729) % 10009) / 10009.0, 3))::int else '' end ||
              case when i % 8 = 0 then ' #tag' || floor(${TAGS} * power(((i * 1299709) % 10037) / 10037.0, 3))::int else '' end
            else '' end,
            0, 0, now() - (${POSTS} - i) * (interval '30 days' / ${POSTS})
       from generate_series(1::bigint, ${POSTS}::bigint) i
       join bench_users u on u.rn = (i * 7) % ${USERS}`,
  );
  await run(
    'post_tags',
    `insert into post_tags (post_id, tag, author_id, created_at)
     select distinct p.id, lower(m[1]), p.author_id, p.created_at
       from posts p cross join lateral regexp_matches(p.content, '#(\\w+)', 'g') as m`,
  );
  // Vacuumed as autovacuum would leave it: the visibility map lets the counts read the indexes alone.
  await run('vacuum analyze', 'vacuum analyze');
}

const [counts] = await em.execute<
  { posts: number; tagged: number; day: number; common: string; rare: string }[]
>(
  `select (select count(*)::int from posts) as posts,
          (select count(*)::int from post_tags) as tagged,
          (select count(*)::int from post_tags where created_at > now() - interval '24 hours') as day,
          (select tag from post_tags group by tag order by count(*) desc limit 1) as common,
          (select tag from post_tags group by tag having count(*) between 50 and 200 order by tag limit 1) as rare`,
);
if (!counts) throw new Error('no data');
log(
  `posts ${counts.posts.toLocaleString('en')}, post_tags rows ${counts.tagged.toLocaleString('en')}, in the last 24 h ${counts.day.toLocaleString('en')}; commonest #${counts.common}, rare #${counts.rare}`,
);
const [viewerRow] = await em.execute<{ id: string; username: string }[]>(
  'select id, username from users order by username limit 1',
);
if (!viewerRow) throw new Error('no members');

// A second member who blocked 10 and muted 10 of the members who used tags in the last 24 hours
// (trending subtracts what they add).
const [hiderRow] = await em.execute<{ id: string; username: string }[]>(
  'select id, username from users order by username offset 1 limit 1',
);
if (!hiderRow) throw new Error('no second member');
await em.execute(
  `with active as (
     select author_id, row_number() over (order by author_id) as n
       from (select distinct author_id from post_tags where created_at > now() - interval '24 hours' limit 20) a
   ), b as (
     insert into blocks (blocker_id, blocked_id, created_at)
     select ?, author_id, now() from active where n <= 10 and author_id <> ? on conflict do nothing
   )
   insert into mutes (muter_id, muted_id, created_at)
   select ?, author_id, now() from active where n > 10 and author_id <> ? on conflict do nothing`,
  [hiderRow.id, hiderRow.id, hiderRow.id, hiderRow.id],
);
const visitor = () => createCaller(createContextInner({ em: orm.em.fork(), session: null }));
const member = () =>
  createCaller(createContextInner({ em: orm.em.fork(), session: { id: 'bench', user: viewerRow } }));
const hider = () =>
  createCaller(createContextInner({ em: orm.em.fork(), session: { id: 'bench', user: hiderRow } }));

async function timed(label: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const p95 = times[Math.floor(times.length * 0.95)] ?? 0;
  log(`  ${label}: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  return { label, medianMs: Number(median.toFixed(2)), p95Ms: Number(p95.toFixed(2)) };
}

const { findTrending } = await import('../../packages/api/src/modules/tags/tag.repository.js');
async function pageAt(tag: string, pages: number) {
  let cursor: string | null = null;
  for (let i = 0; i < pages; i++)
    cursor = (await visitor().tags.posts({ tag, cursor, limit: 20 })).nextCursor;
  return cursor;
}
const deepCommon = await pageAt(counts.common, 19);
const figures = [
  await timed('trending, uncached (the statement)', () =>
    findTrending(orm.em.fork(), new Date(Date.now() - 24 * 3600_000), 30),
  ),
  await timed('trending, through the procedure (kept 30 s)', () => visitor().tags.trending()),
  await timed('trending, a member who hides nobody', () => member().tags.trending()),
  await timed('trending, a member who blocked 10 and muted 10 taggers', () => hider().tags.trending()),
  await timed(`tag page 1, #${counts.common} (commonest), member`, () =>
    member().tags.posts({ tag: counts.common, limit: 20 }),
  ),
  await timed(`tag page 20, #${counts.common}`, () =>
    visitor().tags.posts({ tag: counts.common, cursor: deepCommon, limit: 20 }),
  ),
  await timed(`tag page 1, #${counts.rare} (rare)`, () =>
    visitor().tags.posts({ tag: counts.rare, limit: 20 }),
  ),
  await timed(`tag counts, #${counts.common}`, () => visitor().tags.summary({ tag: counts.common })),
  await timed(`tag counts, #${counts.rare}`, () => visitor().tags.summary({ tag: counts.rare })),
  // Search's tags, as typed: every tag here starts with "tag", so "t" and "tag" count the most
  // candidates (the commonest tags among them); "tag19" a few rare ones; "zz" finds none.
  ...(await searchFigures()),
];
async function searchFigures() {
  const figures = [];
  for (const q of ['t', '#tag', 'tag1', 'tag19', 'zz']) {
    const found = await visitor().tags.search({ q });
    log(
      `  search "${q}": ${found.map((t) => `#${t.tag} ${t.peopleCount}/${t.postsCount}`).join(', ') || 'none'}`,
    );
    figures.push(await timed(`tag search "${q}"`, () => visitor().tags.search({ q })));
  }
  return figures;
}
if (process.env.BENCH_PLANS === '1') {
  const since = new Date(Date.now() - 24 * 3600_000).toISOString();
  for (const [label, sql] of [
    [
      'trending',
      `explain (analyze, buffers) with removed as (select p.id from posts p where p.removed_at is not null and p.created_at > '${since}'),
        per_author as (select t.tag, t.author_id, count(*) n from post_tags t where t.created_at > '${since}' and t.post_id not in (select id from removed) group by 1, 2)
        select pa.tag, sum(n), count(*) from per_author pa join users u on u.id = pa.author_id where u.suspended_at is null
        group by pa.tag order by 3 desc, 2 desc, pa.tag limit 10`,
    ],
    [
      'counts',
      `explain (analyze, buffers) with removed as (select t.post_id from posts p join post_tags t on t.post_id = p.id and t.tag = '${counts.common}' where p.removed_at is not null),
        per_author as (select t.author_id, count(*) n from post_tags t where t.tag = '${counts.common}' and t.post_id not in (select post_id from removed) group by 1)
        select sum(n), count(*) from per_author`,
    ],
  ] as const) {
    const rows = await em.execute<{ 'QUERY PLAN': string }[]>(sql);
    log(`\n${label}:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
}
mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(
  path.join(benchDir, 'results', 'tags.json'),
  `${JSON.stringify({ at: new Date().toISOString(), ...counts, figures }, null, 2)}\n`,
);
await orm.close();
await pgServer.stop();
