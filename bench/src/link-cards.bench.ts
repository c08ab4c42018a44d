/**
 * What a link card costs per post (issue #49): the job (link-cards/link-card.service.ts's
 * buildLinkCard, as the job runner calls it) against a page and its image served on 127.0.0.1,
 * fetched (each post a new URL: the page, its 1200×630 PNG, sharp's re-encode, the upload row and
 * the objects) and cached (posts of a URL fetched already: the create answers the card at once and
 * no job is queued). Prints wall time and the SQL statements each costs (every query the pg
 * clients of this process send, counted at pg.Client's query), and the page server's hits.
 *   pnpm --filter @cubes/bench bench:link-cards   (a fresh database under bench/.data)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildLinkCard,
  type Context,
  createCaller,
  createContextInner,
  createMemoryEventBus,
} from '@cubes/api';
import { initOrm, User } from '@cubes/db';
import { createMemoryStorage } from '@cubes/storage';
import pg from 'pg';
import sharp from 'sharp';
import { benchDatabase } from './database.js';

const POSTS = Number(process.env.BENCH_LINK_POSTS ?? 40);
const log = (s: string) => console.log(s);

// Every statement this process sends: pg.Client's query, which MikroORM's pool and prepared.ts use.
let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  statements += 1;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const image = await sharp({
  create: { width: 1200, height: 630, channels: 3, background: '#2a6df4' },
})
  .png()
  .toBuffer();
const hits = { pages: 0, images: 0 };
const server = http.createServer((req, res) => {
  if ((req.url ?? '').startsWith('/og.png')) {
    hits.images += 1;
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(image);
    return;
  }
  hits.pages += 1;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Page ${req.url}</title>
    <meta property="og:title" content="A story about cubes ${req.url}">
    <meta property="og:description" content="${'Cubes and more cubes. '.repeat(20)}">
    <meta property="og:site_name" content="Bench News"><meta property="og:image" content="/og.png?${req.url}">
    </head><body>${'<p>text</p>'.repeat(2_000)}</body></html>`);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const { pgServer, url } = await benchDatabase('cubes_bench_links', { fresh: true });
const orm = await initOrm({ clientUrl: url, poolMax: 5 });
const storage = createMemoryStorage();
const bus = createMemoryEventBus();
const em = orm.em.fork();
const user = em.create(User, {
  username: 'linker',
  displayName: 'Linker',
  email: 'linker@bench.local',
  passwordHash: 'x',
  emailVisible: false,
  createdAt: new Date(),
});
await em.flush();
const queued: { postId: string }[] = [];
const ctx: Context = createContextInner({
  em: orm.em.fork(),
  storage,
  bus,
  session: { id: 'bench', user: { id: user.id, username: 'linker' } },
  linkPreviews: { allowPrivate: true },
  jobs: {
    send: async (_name, data) => {
      queued.push(data as { postId: string });
    },
  },
});
const caller = createCaller(ctx);
const deps = {
  fork: () => orm.em.fork(),
  storage,
  bus,
  cacheScope: ctx.cacheScope,
  settings: { allowPrivate: true },
};

interface Run {
  label: string;
  createMs: number[];
  createStatements: number[];
  jobMs: number[];
  jobStatements: number[];
}

async function run(label: string, urlOf: (i: number) => string): Promise<Run> {
  const result: Run = { label, createMs: [], createStatements: [], jobMs: [], jobStatements: [] };
  for (let i = 0; i < POSTS; i++) {
    let before = statements;
    let t0 = performance.now();
    await caller.posts.create({ content: `look at this ${urlOf(i)}` });
    result.createMs.push(performance.now() - t0);
    result.createStatements.push(statements - before);
    for (const job of queued.splice(0)) {
      before = statements;
      t0 = performance.now();
      await buildLinkCard(deps, job);
      result.jobMs.push(performance.now() - t0);
      result.jobStatements.push(statements - before);
    }
  }
  return result;
}

const median = (values: number[]) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const plainCreates = await run('a post without a link (for comparison)', () => '');
const fetched = await run('fetched: a new URL each post', (i) => `${base}/story/${i}`);
const hitsAfterFetched = { ...hits };
const cached = await run('cached: a URL fetched already', (i) => `${base}/story/${i % POSTS}`);

log(`\n${POSTS} posts each; median (mean) per post\n`);
log('| run | create ms | create statements | jobs | job ms | job statements |');
log('|---|---|---|---|---|---|');
for (const r of [plainCreates, fetched, cached]) {
  log(
    `| ${r.label} | ${median(r.createMs).toFixed(2)} (${mean(r.createMs).toFixed(2)}) | ${median(r.createStatements)} | ${r.jobMs.length} | ${median(r.jobMs).toFixed(1)} (${mean(r.jobMs).toFixed(1)}) | ${median(r.jobStatements)} |`,
  );
}
log(
  `\npage server: ${hitsAfterFetched.pages} pages and ${hitsAfterFetched.images} images for the fetched run; ` +
    `${hits.pages - hitsAfterFetched.pages} pages and ${hits.images - hitsAfterFetched.images} images for the cached run`,
);

server.closeAllConnections();
server.close();
await orm.close(true);
await pgServer.stop();
