/**
 * An answer left streaming by an instance that died: a real server process is killed with SIGKILL
 * in the middle of an answer; another instance on the same database finds the answer's heartbeat
 * gone stale, marks it failed with a readable reason, keeps the part saved, and ends the watchers
 * it has, live. An answer whose model thinks for longer than the staleness limit, with no text at
 * all, is kept alive by its heartbeat.
 *
 * Staleness is not waited out: the survivor's sweep runs on a clock the test moves (`sweepAt`),
 * and the sweep the test runs itself is given the moment to judge at.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnswerEvent, SessionEvent } from '@cubes/api';
import {
  createJobRunner,
  createPgEventBus,
  type EventBus,
  type JobRunner,
  sweepStaleAnswers,
} from '@cubes/api';
import { initOrm, type MikroORM } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { registerUser } from './harness.js';
import { connectLive, Events, type LiveClient, MIN_WAIT_MS, waitFor } from './live-client.js';
import { START_BOUND_MS } from './ops-instances.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STALE_MS = 1_500;
/** The survivor's sweep clock: before any answer began (nothing is stale) until a test moves it. */
let sweepAt = new Date(0);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let doomed: ChildProcess;
let doomedBase: string;
let doomedExit: Promise<unknown>;
let orm: MikroORM;
let bus: EventBus;
let jobs: JobRunner;
let app: FastifyInstance;
let base: string;
const output: string[] = [];
const clients: LiveClient[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-crash-'));
  // The survivor, in this process: its job runner sweeps every second for answers silent for
  // STALE_MS at `sweepAt`.
  orm = await initOrm({ clientUrl: db.url, poolMax: 5 });
  bus = await createPgEventBus({ connectionString: db.url });
  jobs = createJobRunner({ connectionString: db.url, pollSeconds: 0.5, maintenanceSeconds: 1, poolMax: 2 });
  app = await buildApp({
    orm,
    bus,
    jobs: { runner: jobs },
    config: {
      allowedOrigins: [],
      cookieSecure: false,
      trustProxy: false,
      rateLimitScale: 1000,
      logLevel: 'silent',
      webDist: null,
      cubey: {
        offlineThinkMs: 2_500,
        heartbeatMs: 200,
        staleMs: STALE_MS,
        sweepMs: 1_000,
        sweepClock: () => sweepAt,
      },
    },
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });

  // The instance that will die: a real server process (main.ts), streaming a word every 60 ms
  // and so saving (its heartbeat too) at least every 250 ms.
  doomed = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      SEED_DEMO: '0',
      CUBEY_OFFLINE_DELAY_MS: '60',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  doomedExit = new Promise((resolve) => doomed.once('exit', resolve));
  doomedBase = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no listening line:\n${output.join('')}`)),
      START_BOUND_MS,
    );
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(output.join(''));
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    doomed.stdout!.on('data', onData);
    doomed.stderr!.on('data', onData);
  });
}, START_BOUND_MS + 30_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  if (doomed.exitCode === null && doomed.signalCode === null) doomed.kill('SIGKILL');
  await app.close();
  await jobs.stop(1_000);
  await bus.close();
  await orm.close(true);
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

function live(cookie: string): LiveClient {
  const client = connectLive(base, { cookie });
  clients.push(client);
  return client;
}

/** The answer while it streams: when it began and was last saved (ms), and what it saved. */
async function streamingRow(
  messageId: string,
): Promise<{ created: number; updated: number; content: string }> {
  const [row] = await orm.em.fork().execute<{ created: string; updated: string; content: string }[]>(
    `select (extract(epoch from created_at) * 1000)::text as created,
            (extract(epoch from updated_at) * 1000)::text as updated, content
       from chat_messages where id = ? and status = 'streaming'`,
    [messageId],
  );
  if (!row) throw new Error(`${messageId} is not streaming`);
  return { created: Number(row.created), updated: Number(row.updated), content: row.content };
}

/** The answer once it has been saved (a heartbeat, or words) after it was first seen streaming. */
async function saved(messageId: string): Promise<{ created: number; updated: number; content: string }> {
  const first = await streamingRow(messageId);
  return vi.waitFor(
    async () => {
      const row = await streamingRow(messageId);
      if (row.updated <= first.updated) throw new Error('no save since it was first seen');
      return row;
    },
    { timeout: MIN_WAIT_MS, interval: 50 },
  );
}

/**
 * A sweep at a moment when the answer began longer ago than the staleness limit, but was saved
 * within it: what the survivor's own sweep does to an answer that is alive and saving.
 */
async function sweepWhileSaving(messageId: string): Promise<number> {
  const { created, updated } = await saved(messageId);
  return sweepStaleAnswers(
    { fork: () => orm.em.fork(), bus },
    STALE_MS,
    new Date((created + updated) / 2 + STALE_MS),
  );
}

async function status(messageId: string) {
  const [row] = await orm.em
    .fork()
    .execute<{ status: string; content: string; error: string | null }[]>(
      'select status, content, error from chat_messages where id = ?',
      [messageId],
    );
  return row!;
}

describe('an answer whose instance died', () => {
  it('is marked failed by the survivor, its saved part kept, and its watchers end', async () => {
    const { cookie } = await registerUser(app);
    const tab = live(cookie);
    const chats = new Events<{ id: string; data: SessionEvent }>();
    tab.client.cubey.onSessions.subscribe(
      {},
      {
        onStarted: chats.start,
        onData: (e) => chats.push(e as { id: string; data: SessionEvent }),
        onError: chats.fail,
      },
    );
    await chats.started;
    const res = await fetch(`${doomedBase}/trpc/cubey.send`, {
      method: 'POST',
      headers: { cookie, origin: doomedBase, 'content-type': 'application/json' },
      body: JSON.stringify({ json: { message: 'Who are you? What can you do?' } }),
    });
    expect(res.status).toBe(200);
    const replyId = ((await res.json()) as { result: { data: { json: { reply: { id: string } } } } }).result
      .data.json.reply.id;
    // The survivor's tab hears of it and follows it from the other instance.
    const started = await chats.next(5_000);
    expect(started.data.streamingId).toBe(replyId);
    const answer = new Events<AnswerEvent>();
    tab.client.cubey.onAnswer.subscribe(
      { messageId: replyId },
      { onData: (e) => answer.push((e as { data: AnswerEvent }).data), onError: answer.fail },
    );
    await waitFor(() => answer.items.map((e) => e.delta).join('').length > 60, 10_000, 'the first words');
    // Alive and saving: begun longer ago than the staleness limit, but saved within it, it is left alone.
    expect(await sweepWhileSaving(replyId)).toBe(0);
    expect((await status(replyId)).status).toBe('streaming');

    doomed.kill('SIGKILL');
    await doomedExit;
    // Dead: nothing is saved any more, and once the survivor's clock is past its last save by more
    // than the limit, the survivor's own scheduled sweep marks it failed.
    sweepAt = new Date(Date.now() + STALE_MS + 1_000);
    try {
      await waitFor(() => answer.items.some((e) => e.status !== 'streaming'), 30_000, 'the sweep');
    } finally {
      sweepAt = new Date(0);
    }
    const final = answer.items.at(-1)!;
    expect(final.status).toBe('failed');
    expect(final.error).toMatch(/stopped before the end/);
    const row = await status(replyId);
    expect(row).toMatchObject({ status: 'failed', error: final.error });
    expect(row.content.length).toBeGreaterThan(20);
    // The chat list hears that the session has no answer running any more.
    await waitFor(() => chats.items.some((e) => e.data.streamingId === null), 3_000, 'the session event');
  }, 60_000);

  it('an answer that thinks longer than the limit, with no text, stays alive on its heartbeat', async () => {
    const { cookie } = await registerUser(app);
    const tab = live(cookie);
    const started = await tab.client.cubey.send.mutate({ message: 'How do I post?' });
    const answer = new Events<AnswerEvent>();
    tab.client.cubey.onAnswer.subscribe(
      { messageId: started.reply.id },
      { onData: (e) => answer.push((e as { data: AnswerEvent }).data), onError: answer.fail },
    );
    // Thinking, it has saved nothing but its heartbeat: begun longer ago than the limit at the
    // sweep's moment, heartbeat within it, it is left alone.
    expect((await saved(started.reply.id)).content).toBe('');
    expect(await sweepWhileSaving(started.reply.id)).toBe(0);
    await waitFor(() => answer.items.some((e) => e.status !== 'streaming'), 20_000, 'the end');
    expect(answer.items.at(-1)!.status).toBe('done');
    expect((await status(started.reply.id)).status).toBe('done');
  }, 30_000);
});
