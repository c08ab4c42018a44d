/**
 * Link cards end to end below HTTP: real PostgreSQL, a real HTTP server on 127.0.0.1 serving the
 * pages and the image (LINK_PREVIEW_ALLOW_PRIVATE's setting on), the real job handler. The queue
 * is the one seam: posts are created with a queue that keeps what was sent, and the test runs the
 * job handler on it, as the runner would; one test leaves the queue out and the card is built in
 * this process, watched through the bus.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStorage, type StorageDriver } from '@cubes/storage';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, expectCode, setupDatabase, visitor } from '../../../test/harness.js';
import type { Context } from '../../context.js';
import type { EventTopics } from '../../events/event-bus.js';
import type { LinkCardJob } from '../../jobs/jobs.names.js';
import {
  buildLinkCard,
  LINK_PREVIEW_TTL_MS,
  type LinkCardDeps,
  POST_NOT_FOUND,
} from './link-card.service.js';

let db: Awaited<ReturnType<typeof setupDatabase>>;
let server: http.Server;
let base = '';
const hits = new Map<string, number>();
let png: Buffer;
const storage: StorageDriver = createMemoryStorage();
const sent: LinkCardJob[] = [];
const linkPreviews = { allowPrivate: true };
const held = {
  waiting: [] as (() => void)[],
  release() {
    for (const answer of held.waiting.splice(0)) answer();
  },
};

const page = (title: string, image = '/card.png') => `<!doctype html><html><head>
  <meta property="og:title" content="${title}">
  <meta property="og:description" content="A page about cubes &amp; more">
  <meta property="og:site_name" content="Cube News">
  <meta property="og:image" content="${image}">
  </head><body>hi</body></html>`;

beforeAll(async () => {
  db = await setupDatabase();
  png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/card.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(png);
    }
    if (path === '/not-an-image.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end('<svg onload="alert(1)"></svg>');
    }
    if (path === '/text') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('<title>plain text is no page</title>');
    }
    if (path === '/held') {
      // Answered when the test lets go (held.release), to keep one fetch in flight.
      held.waiting.push(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(page('Held page'));
      });
      return;
    }
    if (path.startsWith('/bad-image')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(page('Bad image', '/not-an-image.png'));
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page(`Title of ${path}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await db.close();
});

const queued: Partial<Context> = {
  storage,
  linkPreviews,
  jobs: {
    send: async (_name, data) => {
      sent.push(data as LinkCardJob);
    },
  },
};

function depsOf(ctx: Context): LinkCardDeps {
  return { fork: ctx.fork, storage, bus: ctx.bus, cacheScope: ctx.cacheScope, settings: linkPreviews };
}

/** Runs the jobs queued so far, as the runner would. */
async function runJobs(ctx: Context) {
  const outcomes = [];
  for (const job of sent.splice(0)) outcomes.push(await buildLinkCard(depsOf(ctx), job));
  return outcomes;
}

/** The next linkCard change of `postId` on the bus. */
function nextCardChange(ctx: Context, postId: string): Promise<EventTopics['postChanges']> {
  return new Promise((resolve) => {
    const stop = ctx.bus.on('postChanges', (event) => {
      if (event.payload.postId === postId && event.payload.kind === 'linkCard') {
        stop();
        resolve(event.payload);
      }
    });
  });
}

describe('link cards', () => {
  it('a new post with a link gets its card from a job; the image is re-encoded and served from /objects', async () => {
    const me = await createMember(db.orm, {}, queued);
    const { post } = await me.caller.posts.create({ content: `look ${base}/a?x=1#top and ${base}/b` });
    // The post appears at once, without its card; the job follows.
    expect(post.linkCard).toBeNull();
    expect(sent).toEqual([{ postId: post.id }]);
    const heard = nextCardChange(me.ctx, post.id);
    expect(await runJobs(me.ctx)).toEqual(['fetched']);
    expect(await heard).toEqual({ postId: post.id, kind: 'linkCard', authorId: me.user.id, hidden: false });

    const { post: seen } = await visitor(db.orm).posts.byId({ postId: post.id });
    expect(seen.linkCard).toMatchObject({
      url: `${base}/a?x=1`,
      title: 'Title of /a',
      description: 'A page about cubes & more',
      siteName: 'Cube News',
    });
    const imageUrl = seen.linkCard?.imageUrl ?? '';
    expect(imageUrl).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
    // Re-encoded by the upload pipeline: a PNG of the page's image's size, stored as ours.
    const stored = await storage.read(imageUrl.replace('/objects/', ''));
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'png', width: 40, height: 20 });
    expect(await storage.stat(`${imageUrl.replace('/objects/', '')}-thumb.webp`)).not.toBeNull();
    // Every read of posts carries it: the feed, the profile, search.
    const feed = await visitor(db.orm).posts.feed({ limit: 50 });
    expect(feed.items.find((p) => p.id === post.id)?.linkCard?.title).toBe('Title of /a');
    const profile = await me.caller.users.posts({ userId: me.user.id, limit: 50 });
    expect(profile.items.find((p) => p.id === post.id)?.linkCard?.title).toBe('Title of /a');
  });

  it('is fetched once per URL a day: a second post of the same link shows the card at once', async () => {
    const [first, second, third] = await Promise.all([
      createMember(db.orm, {}, queued),
      createMember(db.orm, {}, queued),
      createMember(db.orm, {}, queued),
    ]);
    const url = `${base}/shared`;
    await first.caller.posts.create({ content: `first ${url}` });
    expect(await runJobs(first.ctx)).toEqual(['fetched']);
    expect(hits.get('/shared')).toBe(1);
    const { post } = await second.caller.posts.create({ content: `me too ${url}#frag` });
    expect(post.linkCard?.title).toBe('Title of /shared');
    expect(sent).toEqual([]);
    // A job queued before the first one ran finds the preview fresh and fetches nothing.
    expect(await buildLinkCard(depsOf(second.ctx), { postId: post.id })).toBe('cached');
    expect(hits.get('/shared')).toBe(1);
    expect(hits.get('/card.png')).toBe(2); // one image per fetched page: /a's and /shared's

    // A day later the page is fetched again.
    await db.orm.em
      .fork()
      .execute(
        `update link_previews set fetched_at = now() - interval '${LINK_PREVIEW_TTL_MS + 1000} milliseconds' where url = ?`,
        [url],
      );
    await third.caller.posts.create({ content: `again ${url}` });
    expect(await runJobs(third.ctx)).toEqual(['fetched']);
    expect(hits.get('/shared')).toBe(2);
  });

  it('is built in this process when there is no job runner, and reaches open feeds through the bus', async () => {
    const me = await createMember(db.orm, {}, { storage, linkPreviews });
    // Listening before the post exists: the first linkCard change by this author.
    const heard = new Promise<EventTopics['postChanges']>((resolve) => {
      const stop = me.ctx.bus.on('postChanges', (event) => {
        if (event.payload.authorId === me.user.id && event.payload.kind === 'linkCard') {
          stop();
          resolve(event.payload);
        }
      });
    });
    const { post } = await me.caller.posts.create({ content: `${base}/in-process` });
    expect(await heard).toEqual({ postId: post.id, kind: 'linkCard', authorId: me.user.id, hidden: false });
    const { post: seen } = await me.caller.posts.byId({ postId: post.id });
    expect(seen.linkCard?.title).toBe('Title of /in-process');
  });

  it('none when the author says so, and none for pages that are not HTML, unreachable or refused', async () => {
    const me = await createMember(db.orm, {}, queued);
    const { post } = await me.caller.posts.create({ content: `${base}/not-wanted`, linkCard: false });
    expect(post.linkCard).toBeNull();
    expect(sent).toEqual([]);

    const { post: text } = await me.caller.posts.create({ content: `${base}/text` });
    const { post: closed } = await me.caller.posts.create({ content: 'http://127.0.0.1:1/nothing-listens' });
    expect(await runJobs(me.ctx)).toEqual(['fetched', 'fetched']);
    for (const id of [text.id, closed.id]) {
      expect((await me.caller.posts.byId({ postId: id })).post.linkCard).toBeNull();
    }
    // Without LINK_PREVIEW_ALLOW_PRIVATE this machine's pages are refused before any connection.
    const before = hits.get('/refused') ?? 0;
    const shut = await createMember(db.orm, {}, { ...queued, linkPreviews: { allowPrivate: false } });
    const { post: refused } = await shut.caller.posts.create({ content: `${base}/refused` });
    for (const job of sent.splice(0)) {
      await buildLinkCard({ ...depsOf(shut.ctx), settings: { allowPrivate: false } }, job);
    }
    expect(hits.get('/refused') ?? 0).toBe(before);
    expect((await shut.caller.posts.byId({ postId: refused.id })).post.linkCard).toBeNull();
  });

  it('a queue that refuses the job costs the post its card, not its answer', async () => {
    const logged: string[] = [];
    const me = await createMember(
      db.orm,
      {},
      {
        storage,
        linkPreviews,
        logError: (message) => logged.push(message),
        jobs: {
          send: async () => {
            throw new Error('the queue is away');
          },
        },
      },
    );
    const { post } = await me.caller.posts.create({ content: `${base}/queue-away` });
    expect(post.linkCard).toBeNull();
    expect(logged).toEqual(['link card not queued']);
    expect((await me.caller.posts.byId({ postId: post.id })).post.content).toBe(`${base}/queue-away`);
  });

  it('a bad image leaves a card without an image', async () => {
    const me = await createMember(db.orm, {}, queued);
    const { post } = await me.caller.posts.create({ content: `${base}/bad-image` });
    await runJobs(me.ctx);
    const { post: seen } = await me.caller.posts.byId({ postId: post.id });
    expect(seen.linkCard).toMatchObject({ title: 'Bad image', imageUrl: null });
  });

  it('hostile text makes no card: javascript: URLs, NUL, 70,000 characters', async () => {
    const me = await createMember(db.orm, {}, queued);
    await expectCode(me.caller.posts.create({ content: `${base}/x\u0000` }), 'BAD_REQUEST');
    await expectCode(
      me.caller.posts.create({ content: `https://x.io/${'a'.repeat(70_000)}` }),
      'BAD_REQUEST',
    );
    const { post } = await me.caller.posts.create({ content: 'javascript:alert(1) data:text/html,<b>x</b>' });
    expect(post.linkCard).toBeNull();
    expect(sent).toEqual([]);
    // biome-ignore lint/suspicious/noExplicitAny: a wrong type on purpose
    await expectCode(me.caller.posts.create({ content: 'x', linkCard: 'no' as any }), 'BAD_REQUEST');
  });

  it('the author removes the card after posting; others get 404; feeds hear of it', async () => {
    const me = await createMember(db.orm, {}, queued);
    const other = await createMember(db.orm, {}, queued);
    const { post } = await me.caller.posts.create({ content: `${base}/remove-me` });
    await runJobs(me.ctx);
    expect((await me.caller.posts.byId({ postId: post.id })).post.linkCard).not.toBeNull();

    await expectCode(other.caller.linkCards.remove({ postId: post.id }), 'NOT_FOUND', POST_NOT_FOUND);
    await expectCode(visitor(db.orm).linkCards.remove({ postId: post.id }), 'UNAUTHORIZED');
    await expectCode(me.caller.linkCards.remove({ postId: 'not-a-uuid' }), 'NOT_FOUND', POST_NOT_FOUND);
    await expectCode(me.caller.linkCards.remove({ postId: 'x'.repeat(70_000) }), 'BAD_REQUEST');

    const heard = nextCardChange(me.ctx, post.id);
    expect(await me.caller.linkCards.remove({ postId: post.id })).toEqual({ ok: true });
    expect(await heard).toMatchObject({ kind: 'linkCard', hidden: false });
    expect((await other.caller.posts.byId({ postId: post.id })).post.linkCard).toBeNull();
    // Idempotent; a job still queued for it builds nothing.
    expect(await me.caller.linkCards.remove({ postId: post.id })).toEqual({ ok: true });
    expect(await buildLinkCard(depsOf(me.ctx), { postId: post.id })).toBe('none');
  });

  it('a post out of sight or blocked leaks nothing: its card event is marked hidden, and reads stay 404', async () => {
    const me = await createMember(db.orm, {}, queued);
    const blocked = await createMember(db.orm, {}, queued);
    await me.caller.safety.block({ userId: blocked.user.id });
    const { post } = await me.caller.posts.create({ content: `${base}/secret` });
    await db.orm.em.fork().execute('update posts set removed_at = now() where id = ?', [post.id]);
    const heard = nextCardChange(me.ctx, post.id);
    await runJobs(me.ctx);
    // Caches hear it; posts.onChange tells no listener of a hidden post.
    expect((await heard).hidden).toBe(true);
    await expectCode(blocked.caller.posts.byId({ postId: post.id }), 'NOT_FOUND');
    await expectCode(visitor(db.orm).posts.byId({ postId: post.id }), 'NOT_FOUND');

    const { post: shown } = await me.caller.posts.create({ content: `${base}/shown` });
    await runJobs(me.ctx);
    await expectCode(blocked.caller.posts.byId({ postId: shown.id }), 'NOT_FOUND');
    const feed = await blocked.caller.posts.feed({ limit: 50 });
    expect(feed.items.some((p) => p.id === shown.id)).toBe(false);
    // Removing a card of a post the block hides is 404 like any other's.
    await expectCode(blocked.caller.linkCards.remove({ postId: shown.id }), 'NOT_FOUND');
  });

  it('an edit that changes the first link swaps the card; the same link keeps it, or keeps it removed', async () => {
    const me = await createMember(db.orm, {}, queued);
    const { post } = await me.caller.posts.create({ content: `before ${base}/edit-one` });
    await runJobs(me.ctx);
    expect((await me.caller.posts.byId({ postId: post.id })).post.linkCard?.title).toBe('Title of /edit-one');

    // Another link: the old card goes in the edit's answer, the new one follows from its job.
    const { post: edited } = await me.caller.posts.edit({
      postId: post.id,
      content: `after ${base}/edit-two`,
    });
    expect(edited.linkCard).toBeNull();
    expect(sent).toEqual([{ postId: post.id }]);
    expect(await runJobs(me.ctx)).toEqual(['fetched']);
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.linkCard?.title).toBe(
      'Title of /edit-two',
    );

    // The same first link, other words: nothing fetched, the card stays.
    await me.caller.posts.edit({ postId: post.id, content: `still ${base}/edit-two#part` });
    expect(sent).toEqual([]);
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.linkCard?.title).toBe(
      'Title of /edit-two',
    );

    // Removed by the author: an edit keeping the link does not bring it back.
    await me.caller.linkCards.remove({ postId: post.id });
    await me.caller.posts.edit({ postId: post.id, content: `again ${base}/edit-two` });
    expect(sent).toEqual([]);
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.linkCard).toBeNull();

    // A link fetched today: its card is in the edit's answer at once. No link: no card.
    const { post: known } = await me.caller.posts.edit({ postId: post.id, content: `now ${base}/edit-one` });
    expect(known.linkCard?.title).toBe('Title of /edit-one');
    expect(sent).toEqual([]);
    const { post: bare } = await me.caller.posts.edit({ postId: post.id, content: 'no link at all' });
    expect(bare.linkCard).toBeNull();
    expect(await buildLinkCard(depsOf(me.ctx), { postId: post.id })).toBe('none');
  });

  it('two jobs for the same new link, run at once (two instances), fetch it once', async () => {
    const [a, b] = await Promise.all([createMember(db.orm, {}, queued), createMember(db.orm, {}, queued)]);
    const url = `${base}/held`;
    await a.caller.posts.create({ content: `one ${url}` });
    await b.caller.posts.create({ content: `two ${url}` });
    const jobs = sent.splice(0);
    expect(jobs).toHaveLength(2);
    const outcomes = Promise.all(jobs.map((job) => buildLinkCard(depsOf(a.ctx), job)));
    // One job's fetch is in flight; wait until the other either fetches too or waits on the URL's lock.
    const waitingOnLock = async () =>
      Number(
        (
          await db.orm.em
            .fork()
            .execute(`select count(*) as n from pg_locks where locktype = 'advisory' and not granted
                and database = (select oid from pg_database where datname = current_database())`)
        )[0]?.n ?? 0,
      );
    const fetches = () => hits.get('/held') ?? 0;
    while (fetches() < 2 && !(fetches() === 1 && (await waitingOnLock()) >= 1)) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(hits.get('/held')).toBe(1);
    held.release();
    expect((await outcomes).sort()).toEqual(['cached', 'fetched']);
    expect(hits.get('/held')).toBe(1);
    const { post } = await visitor(db.orm).posts.byId({ postId: jobs[1]!.postId });
    expect(post.linkCard?.title).toBe('Held page');
  });
});
