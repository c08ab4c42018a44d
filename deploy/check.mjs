#!/usr/bin/env node
/**
 * Brings the reference topology up (topology.mjs), checks it end to end through nginx, prints a
 * report and tears it all down, also on failure or Ctrl+C. Exits 1 when a check fails.
 *   node deploy/check.mjs [--no-build]        (pnpm deploy:check at the root)
 * Checked through the proxy: log in, post; an upload to S3 served by every instance; a like made on one instance rings the bell of a socket
 * on another; a direct message across instances; a heavy read (search) answered by the standby;
 * one instance killed with SIGKILL under message traffic: its clients reconnect through nginx and
 * every message arrives exactly once; the standby's replay lag.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import superjson from 'superjson';
import WebSocket from 'ws';
import { killGroup, query, startTopology, stopTopology, waitFor } from './topology.mjs';

const began = performance.now();
const seconds = (from) => `${((performance.now() - from) / 1000).toFixed(1)} s`;
const log = (line) => console.log(`[${seconds(began).padStart(7)}] ${line}`);
const results = [];
let topology = null;
let stopping = false;

async function teardown() {
  if (stopping || !topology) return;
  stopping = true;
  log('tearing down …');
  await stopTopology(topology);
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`${signal}: stopping`);
    void teardown().finally(() => process.exit(130));
  });
}

/** One named check: its result line in the report; a failure is recorded and the run goes on. */
async function check(name, body) {
  const started = performance.now();
  try {
    const detail = await body();
    results.push({ name, ok: true, detail, took: seconds(started) });
    log(`PASS ${name}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    results.push({ name, ok: false, detail: error.message, took: seconds(started) });
    log(`FAIL ${name}: ${error.message}`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** A JSON call through `base` as a browser would make it (same-origin Origin header). */
async function api(base, method, url, cookie, body) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      origin: base,
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return {
    status: res.status,
    body: json,
    cookie: res.headers.get('set-cookie')?.split(';')[0],
    upstream: res.headers.get('x-cubes-upstream'),
  };
}

let members = 0;
async function register(base, prefix) {
  members += 1;
  const username = `${prefix}${members}${randomUUID().slice(0, 4)}`;
  const res = await api(base, 'POST', '/api/auth/register', undefined, {
    username,
    email: `${username}@example.com`,
    password: 'secret12',
    displayName: username,
  });
  assert(res.status === 201, `register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.user.id, username, email: `${username}@example.com`, cookie: res.cookie };
}

/**
 * A browser-like live client through `base`: tRPC over a WebSocket with the session cookie and
 * Origin; `upstreams` lists the instance (nginx's X-Cubes-Upstream) of each connection it made.
 */
function connectLive(base, cookie) {
  const upstreams = [];
  class BrowserLikeSocket extends WebSocket {
    constructor(url, protocols) {
      super(url, protocols, { headers: { origin: base, cookie } });
      this.on('upgrade', (res) => upstreams.push(res.headers['x-cubes-upstream'] ?? '?'));
    }
  }
  const wsClient = createWSClient({
    url: `${base.replace(/^http/, 'ws')}/trpc`,
    WebSocket: BrowserLikeSocket,
    retryDelayMs: () => 100,
  });
  const client = createTRPCClient({ links: [wsLink({ client: wsClient, transformer: superjson })] });
  return { client, upstreams, close: () => wsClient.close() };
}

/** A subscription's items; `next()` waits for the next one not yet taken. */
function collector() {
  const items = [];
  const errors = [];
  let taken = 0;
  return {
    items,
    errors,
    push: (item) => items.push(item),
    fail: (error) => errors.push(error),
    async next(timeoutMs, what) {
      await waitFor(what, () => items.length > taken || errors.length > 0, timeoutMs);
      if (errors.length > 0) throw errors[0];
      return items[taken++];
    },
  };
}

/** A 1×1 PNG: what a browser would upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sockets = [];

async function main() {
  const build = !process.argv.includes('--no-build');
  topology = await startTopology({ build, log });
  const proxy = topology.proxy;
  const instanceOf = (upstream) =>
    topology.instances.find((i) => upstream?.split(', ').at(-1) === `127.0.0.1:${i.port}`)?.name ?? upstream;
  log(
    `up: nginx ${proxy}; ${topology.instances.map((i) => `${i.name} :${i.port}`).join(', ')}; app start ${(topology.appStartMs / 1000).toFixed(1)} s`,
  );

  let author;
  let fan;
  let post;
  await check('log in and post through nginx', async () => {
    const made = await register(proxy, 'author');
    const login = await api(proxy, 'POST', '/api/auth/login', undefined, {
      email: made.email,
      password: 'secret12',
    });
    assert(login.status === 200 && login.cookie, `login: ${login.status} ${JSON.stringify(login.body)}`);
    author = { ...made, cookie: login.cookie };
    const me = await api(proxy, 'GET', '/api/auth/me', author.cookie);
    assert(me.status === 200 && me.body.user.id === author.id, `me: ${me.status}`);
    const created = await api(proxy, 'POST', '/api/posts', author.cookie, {
      content: 'Hello from behind nginx',
    });
    assert(created.status === 201, `post: ${created.status} ${JSON.stringify(created.body)}`);
    post = created.body.post;
    return `member ${author.username} logged in (via ${instanceOf(login.upstream)}), post ${post.id.slice(0, 8)} (via ${instanceOf(created.upstream)})`;
  });

  await check('an upload to S3 (s3rver), served by every instance', async () => {
    assert(author, 'no member');
    const signed = await api(proxy, 'POST', '/api/objects/upload', author.cookie);
    assert(signed.status === 200, `upload URL: ${signed.status} ${JSON.stringify(signed.body)}`);
    const { uploadURL } = signed.body;
    assert(uploadURL.startsWith(`${topology.s3}/cubes/`), `not an s3rver URL: ${uploadURL}`);
    // The browser PUTs straight to the object store, as with MinIO in docker-compose.yml.
    const put = await fetch(uploadURL, {
      method: 'PUT',
      body: PNG,
      headers: { 'content-type': 'image/png' },
    });
    assert(put.status === 200, `PUT to s3rver: ${put.status}`);
    const acl = await api(proxy, 'PUT', '/api/objects/set-acl', author.cookie, {
      imageURL: uploadURL,
      visibility: 'public',
    });
    assert(acl.status === 200, `set-acl: ${acl.status} ${JSON.stringify(acl.body)}`);
    const servedBy = new Set();
    for (let i = 0; i < topology.instances.length * 2; i++) {
      const got = await fetch(`${proxy}${acl.body.objectPath}`);
      assert(got.status === 200, `GET ${acl.body.objectPath}: ${got.status}`);
      assert(
        got.headers.get('content-type') === 'image/png',
        `content-type ${got.headers.get('content-type')}`,
      );
      await got.arrayBuffer();
      servedBy.add(instanceOf(got.headers.get('x-cubes-upstream')));
    }
    return `PUT to s3rver, published via ${instanceOf(acl.upstream)}, ${acl.body.objectPath} served by ${[...servedBy].sort().join(', ')}`;
  });

  await check('a like on one instance rings the bell of a socket on another', async () => {
    assert(post, 'no post');
    fan = await register(proxy, 'fan');
    const live = connectLive(proxy, author.cookie);
    sockets.push(live);
    const bell = collector();
    live.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    const first = await bell.next(10_000, 'the bell’s first state');
    const socketOn = instanceOf(live.upstreams.at(-1));
    // More posts to like until a like lands on an instance other than the socket's.
    for (let attempt = 1; attempt <= 6; attempt++) {
      const target =
        attempt === 1
          ? post
          : (await api(proxy, 'POST', '/api/posts', author.cookie, { content: `post ${attempt}` })).body.post;
      const started = performance.now();
      const liked = await api(proxy, 'POST', `/api/posts/${target.id}/like`, fan.cookie);
      assert(liked.status === 200, `like: ${liked.status} ${JSON.stringify(liked.body)}`);
      const rang = await bell.next(5_000, 'the bell after a like');
      const ms = Math.round(performance.now() - started);
      assert(rang.data.unreadCount === first.data.unreadCount + attempt, `unread ${rang.data.unreadCount}`);
      const likedOn = instanceOf(liked.upstream);
      if (likedOn !== socketOn) {
        return `liked on ${likedOn}, bell (unread ${rang.data.unreadCount}) on the socket on ${socketOn} after ${ms} ms`;
      }
    }
    throw new Error(`every like landed on the socket’s own instance (${socketOn})`);
  });

  await check('a direct message sent on one instance reaches a socket on another', async () => {
    const sender = await register(proxy, 'dmsender');
    const receiver = await register(proxy, 'dmreceiver');
    const live = connectLive(proxy, receiver.cookie);
    sockets.push(live);
    const events = collector();
    live.client.messages.live.subscribe({}, { onData: events.push, onError: events.fail });
    assert(
      (await events.next(10_000, 'the first live event')).data.type === 'unread',
      'first event not unread',
    );
    const socketOn = instanceOf(live.upstreams.at(-1));
    for (let attempt = 1; attempt <= 6; attempt++) {
      const started = performance.now();
      const sent = await api(proxy, 'POST', '/api/messages', sender.cookie, {
        receiverId: receiver.id,
        content: `across ${attempt}`,
      });
      assert(sent.status === 201, `send: ${sent.status} ${JSON.stringify(sent.body)}`);
      let got;
      do got = await events.next(5_000, 'the message');
      while (got.data.type !== 'message');
      assert(got.data.message.id === sent.body.id, 'another message arrived');
      const ms = Math.round(performance.now() - started);
      const sentOn = instanceOf(sent.upstream);
      if (sentOn !== socketOn)
        return `sent on ${sentOn}, arrived on the socket on ${socketOn} after ${ms} ms`;
    }
    throw new Error(`every send landed on the socket’s own instance (${socketOn})`);
  });

  await check('a heavy read (search) is answered by the standby', async () => {
    const token = `standbyproof${randomUUID().slice(0, 8)}`;
    const made = await api(proxy, 'POST', '/api/posts', author.cookie, { content: `Replicated: ${token}` });
    assert(made.status === 201, `post: ${made.status}`);
    // Replayed on the standby (the primary's commit has streamed to it).
    await waitFor(
      'the post on the standby',
      async () =>
        (await query(topology.standbyAdminUrl, 'select 1 from posts where id = $1', [made.body.post.id]))
          .length === 1,
      10_000,
    );
    const found = await api(proxy, 'GET', `/api/search?q=${token}`, author.cookie);
    assert(found.status === 200, `search: ${found.status} ${JSON.stringify(found.body)}`);
    assert(
      found.body.posts.some((p) => p.id === made.body.post.id),
      `the search did not find the post: ${JSON.stringify(found.body)}`,
    );
    // Both servers log every statement (log_statement=all): the search's own SQL, which carries
    // the term, is in the standby's log and not in the primary's (where only the post's insert is).
    const searched = (file) =>
      readFileSync(path.join(topology.dir, 'pg', file), 'utf8')
        .split('\n')
        .filter((l) => l.includes(`array['${token}'`)).length;
    const onStandby = searched('standby.log');
    const onPrimary = searched('primary.log');
    assert(onStandby > 0, 'the search is not in the standby’s statement log');
    assert(onPrimary === 0, `the search ran on the primary too (${onPrimary} statements)`);
    const [{ n }] = await query(
      topology.standbyAdminUrl,
      "select count(*)::int as n from pg_stat_activity where usename = 'cubes' and backend_type = 'client backend'",
    );
    return `search via ${instanceOf(found.upstream)} found the post; its SQL ran on the standby (${onStandby} statement(s)) and not on the primary (0); ${n} app connection(s) open on the standby`;
  });

  /**
   * One instance leaves while 3 senders send messages through nginx to 6 receivers' live sockets:
   * SIGKILL (it dies) or SIGTERM (it drains: readiness off, sockets closed with 1012, requests in
   * flight finished). Every accepted message must reach its receiver exactly once, and every
   * socket on that instance must come back through nginx on another. After SIGTERM no request may
   * fail at all: `strict` counts a send that needed a retry as a failure.
   */
  const leaving = async (signal, strict) => {
    const RECEIVERS = 6;
    const SENDERS = 3;
    const receivers = [];
    for (let i = 0; i < RECEIVERS; i++) receivers.push(await register(proxy, 'rcv'));
    const senders = [];
    for (let i = 0; i < SENDERS; i++) senders.push(await register(proxy, 'snd'));
    const clients = receivers.map((r) => {
      const live = connectLive(proxy, r.cookie);
      sockets.push(live);
      const events = collector();
      live.client.messages.live.subscribe({}, { onData: events.push, onError: events.fail });
      return { member: r, live, events, expected: new Set() };
    });
    await waitFor(
      'every receiver’s first event',
      () => clients.every((c) => c.events.items.length > 0),
      15_000,
    );
    // The instance holding the most receivers' sockets dies.
    const byInstance = new Map();
    for (const c of clients) {
      const on = instanceOf(c.live.upstreams.at(-1));
      byInstance.set(on, [...(byInstance.get(on) ?? []), c]);
    }
    const [victimName, victims] = [...byInstance].sort((x, y) => y[1].length - x[1].length)[0];
    const victim = topology.instances.find((i) => i.name === victimName);
    assert(victim, `no instance for ${victimName}`);

    let sent = 0;
    let retries = 0;
    let failedSends = 0;
    const errors = new Map();
    let running = true;
    /** One message, retried with the same clientId until it is accepted (nginx sends it elsewhere). */
    const sendOne = async (sender, c, n) => {
      const clientId = randomUUID();
      for (let attempt = 0; attempt < 20; attempt++) {
        try {
          const res = await api(proxy, 'POST', '/api/messages', sender.cookie, {
            receiverId: c.member.id,
            content: `traffic ${n}`,
            clientId,
          });
          if (res.status === 201) {
            c.expected.add(res.body.id);
            sent += 1;
            return;
          }
          errors.set(res.status, (errors.get(res.status) ?? 0) + 1);
        } catch (error) {
          const key = error.cause?.code ?? error.message;
          errors.set(key, (errors.get(key) ?? 0) + 1);
        }
        retries += 1;
        await sleep(100);
      }
      failedSends += 1;
    };
    const traffic = senders.map(async (sender, s) => {
      let n = 0;
      while (running) {
        const c = clients[(n + s) % clients.length];
        await sendOne(sender, c, `${s}.${n}`);
        n += 1;
        await sleep(10);
      }
    });
    await sleep(2_000);
    const sentBeforeKill = sent;
    log(
      `${signal} to ${victim.name} (process group ${victim.pid}), holding ${victims.length} of ${RECEIVERS} sockets, after ${sent} messages`,
    );
    killGroup(victim.pid, signal);
    const killedAt = performance.now();
    await sleep(5_000);
    running = false;
    await Promise.all(traffic);
    const deadline = 20_000;
    await waitFor(
      'every accepted message at its receiver',
      () => clients.every((c) => [...c.expected].every((id) => received(c).includes(id))),
      deadline,
    ).catch(() => {});
    await sleep(1_000); // anything late or twice shows up now

    let lost = 0;
    let duplicated = 0;
    let unexpected = 0;
    let total = 0;
    for (const c of clients) {
      const ids = received(c);
      total += ids.length;
      duplicated += ids.length - new Set(ids).size;
      lost += [...c.expected].filter((id) => !ids.includes(id)).length;
      unexpected += ids.filter((id) => !c.expected.has(id)).length;
    }
    const reconnected = victims.filter((c) => c.live.upstreams.length >= 2);
    const movedTo = reconnected.map((c) => instanceOf(c.live.upstreams.at(-1)));
    const subscriptionErrors = clients.reduce((sum, c) => sum + c.events.errors.length, 0);
    const summary =
      `${sent} messages accepted (${sentBeforeKill} before the signal), ${total} received; lost ${lost}, duplicated ${duplicated}, unexpected ${unexpected}; ` +
      `${reconnected.length}/${victims.length} sockets of ${victim.name} reconnected through nginx (to ${[...new Set(movedTo)].join(', ') || 'none'}); ` +
      `sends retried ${retries} time(s) [${[...errors].map(([k, v]) => `${k}×${v}`).join(', ') || 'none'}], never accepted ${failedSends}; ` +
      `${Math.round((performance.now() - killedAt) / 1000)} s since the signal`;
    assert(
      lost === 0 && duplicated === 0 && unexpected === 0 && failedSends === 0 && subscriptionErrors === 0,
      summary,
    );
    assert(reconnected.length === victims.length, summary);
    if (strict) assert(retries === 0, `some requests failed: ${summary}`);
    assert(
      movedTo.every((name) => name !== victim.name),
      summary,
    );
    return summary;
  };

  await check('SIGTERM to one instance under message traffic: 0 failed requests, 0 lost, 0 duplicated', () =>
    leaving('SIGTERM', true),
  );
  await check('kill -9 of one instance under message traffic: 0 lost, 0 duplicated', () =>
    leaving('SIGKILL', false),
  );

  await check('the standby’s replay lag (pg_stat_replication on the primary)', async () => {
    const lagColumns = `application_name, state, sync_state,
        pg_wal_lsn_diff(sent_lsn, replay_lsn)::bigint as behind_bytes,
        (extract(epoch from write_lag) * 1000)::numeric(10,2) as write_ms,
        (extract(epoch from flush_lag) * 1000)::numeric(10,2) as flush_ms,
        (extract(epoch from replay_lag) * 1000)::numeric(10,2) as replay_ms
      from pg_stat_replication`;
    // A write through the proxy, then the time until the standby has replayed the primary's WAL
    // position after it (the lag columns read NULL once the standby is idle and caught up).
    const made = await api(proxy, 'POST', '/api/posts', author.cookie, { content: 'lag probe' });
    assert(made.status === 201, `post: ${made.status}`);
    const answered = performance.now();
    const [{ lsn }] = await query(topology.primaryAdminUrl, 'select pg_current_wal_lsn()::text as lsn');
    const [row] = await query(topology.primaryAdminUrl, `select ${lagColumns}`);
    assert(row, 'no standby in pg_stat_replication');
    assert(row.state === 'streaming', `state ${row.state}`);
    await waitFor(
      'the standby to replay the write',
      async () =>
        (
          await query(topology.standbyAdminUrl, 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [
            lsn,
          ])
        )[0].done,
      10_000,
    );
    const replayedMs = Math.round(performance.now() - answered);
    const ms = (v) => (v === null ? 'NULL (caught up)' : `${v} ms`);
    return `${row.application_name}: ${row.state} (${row.sync_state}); just after a post: replay_lag ${ms(row.replay_ms)}, write_lag ${ms(row.write_ms)}, flush_lag ${ms(row.flush_ms)}, ${row.behind_bytes} bytes behind; the post’s WAL was replayed on the standby ≤ ${replayedMs} ms after its 201`;
  });
}

/** The ids of the direct messages a receiver's socket has had. */
function received(c) {
  return c.events.items.filter((e) => e.data.type === 'message').map((e) => e.data.message.id);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  log(`FAIL bringing the topology up: ${error.stack ?? error}`);
  results.push({ name: 'topology up', ok: false, detail: error.message });
} finally {
  await Promise.all(sockets.map((s) => s.close().catch(() => {})));
  await teardown();
}
const failed = results.filter((r) => !r.ok);
console.log(
  '\nReference topology: nginx → 3 app instances, PostgreSQL 15 primary + streaming standby, s3rver',
);
for (const r of results)
  console.log(
    `  ${r.ok ? 'PASS' : 'FAIL'}  ${r.name} (${r.took ?? '-'})${r.detail ? `\n        ${r.detail}` : ''}`,
  );
console.log(`${results.length - failed.length}/${results.length} passed in ${seconds(began)}`);
if (failed.length > 0) exitCode = 1;
process.exit(exitCode);
