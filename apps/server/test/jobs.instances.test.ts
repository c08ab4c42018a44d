/**
 * The job runner across two real server processes (main.ts) on one database, with short
 * timings: a scheduled job runs exactly once per period across both, and a data export whose
 * building process is killed (SIGKILL) mid-build is retried and completed by the other, its
 * state truthful meanwhile (never 'failed'), its archive downloadable from the survivor.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readZip } from '@cubes/api/testing/zip';
import { initOrm } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MIN_WAIT_MS } from './live-client.js';
import { listeningAt, type ServerProcess, START_BOUND_MS, startServer, stopServer } from './ops-instances.js';
import { api, registerOver } from './over-http.js';

const STEP_DELAY_MS = 600; // 9 sections: a build takes about 5.4 s

interface Instance {
  name: string;
  server: ServerProcess;
  base: string;
  output: string[];
}

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
const instances: Instance[] = [];

async function start(name: string): Promise<Instance> {
  const server = startServer({
    PORT: '0',
    DATABASE_URL: db.url,
    // Shared, as instances share S3: the survivor serves the archive the other began.
    DATA_DIR: dataDir,
    LOG_LEVEL: 'debug',
    JOBS_POLL_SECONDS: '0.5',
    JOBS_MAINTENANCE_SECONDS: '1',
    JOBS_SWEEP_SECONDS: '1',
    EXPORT_JOB_EXPIRE_SECONDS: '8',
    EXPORT_HEARTBEAT_MS: '250',
    EXPORT_RETRY_DELAY_SECONDS: '1',
    EXPORT_STEP_DELAY_MS: String(STEP_DELAY_MS),
  });
  const instance = { name, server, base: await listeningAt(server), output: server.output };
  instances.push(instance);
  return instance;
}

/** The JSON log lines of an instance with this message. */
function logLines(instance: Instance, msg: string): Record<string, unknown>[] {
  return instance.output
    .join('')
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Polls `check` until it gives a value (vitest's waitFor); a failure shows both instances' logs. */
async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  try {
    return await vi.waitFor(
      async () => {
        const value = await check();
        if (value === undefined || value === false) throw new Error(`waiting for ${what}`);
        return value as T;
      },
      { timeout: Math.max(timeoutMs, MIN_WAIT_MS), interval: 100 },
    );
  } catch {
    throw new Error(`timed out waiting for ${what}\n${instances.map((i) => i.output.join('')).join('\n')}`);
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-jobs-'));
  // One after the other: the first applies the migrations.
  await start('a');
  await start('b');
}, 2 * START_BOUND_MS);

afterAll(async () => {
  for (const instance of instances) await stopServer(instance.server);
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('the job runner on two instances', () => {
  it('runs a scheduled job exactly once per period across both', async () => {
    // Five one-second slots from the next but one: each is waited for as its job's record in the
    // queue (pg-boss's own table) and its run's log line, not as time passing.
    const from = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    const slots = [0, 1, 2, 3, 4].map((i) => from + i * 1000);
    const orm = await initOrm({ clientUrl: db.url, poolMax: 1 });
    const jobs = () =>
      orm.em
        .fork()
        .execute<{ slot: string; state: string }[]>(
          `select (extract(epoch from singleton_on) * 1000)::bigint::text as slot, state
             from pgboss.job where name = 'uploads-sweep' and singleton_on is not null`,
        )
        .then((rows) => rows.map((r) => ({ slot: Number(r.slot), state: r.state })));
    const runs = () =>
      instances.flatMap((instance) =>
        logLines(instance, 'scheduled job done')
          .filter((line) => line.job === 'uploads-sweep')
          .map((line) => Date.parse(String(line.slot))),
      );
    try {
      // Each slot's job has ended (retries: none; a run that ends is `completed`) and its run logged.
      const records = await waitFor(
        async () => {
          const all = await jobs();
          const ended = slots.every((slot) => all.some((j) => j.slot === slot && j.state === 'completed'));
          const logged = slots.every((slot) => runs().includes(slot));
          return ended && logged ? all : undefined;
        },
        30_000,
        'the five slots to have run',
      );
      // Both instances queue every slot; the queue's unique slot index keeps one job per slot,
      // and that job ran once.
      for (const slot of slots) {
        expect(records.filter((j) => j.slot === slot)).toHaveLength(1);
        expect(runs().filter((s) => s === slot)).toHaveLength(1);
      }
    } finally {
      await orm.close(true);
    }
  }, 60_000);

  it('retries an export whose building process was killed, on the other instance, to done', async () => {
    const [a, b] = instances as [Instance, Instance];
    const member = await registerOver(a.base, `leaver${Math.random().toString(36).slice(2, 6)}`);
    const started = await api(a.base, 'POST', '/api/account/export', member.cookie);
    expect(started.status).toBe(202);
    const exportId = started.body.id as string;

    // Whichever instance took the job, it is killed once its build is under way.
    const builder = await waitFor(
      () => instances.find((i) => logLines(i, 'export build started').some((l) => l.exportId === exportId)),
      10_000,
      'a build to start',
    );
    const survivor = builder === a ? b : a;
    await waitFor(
      async () => {
        const state = await api(survivor.base, 'GET', '/api/account/export', member.cookie);
        return state.body.status === 'running' && state.body.progress > 0 ? true : undefined;
      },
      10_000,
      'progress',
    );
    // The survivor leaves a live build alone...
    expect(logLines(survivor, 'export build started').filter((l) => l.exportId === exportId)).toEqual([]);
    builder.server.child.kill('SIGKILL');

    const seen = new Set<string>();
    const done = await waitFor(
      async () => {
        const state = await api(survivor.base, 'GET', '/api/account/export', member.cookie);
        seen.add(state.body.status);
        return state.body.status === 'done' ? state.body : undefined;
      },
      40_000,
      'the export to be done',
    );
    // Truthful meanwhile: running, then queued or running again, never failed.
    expect([...seen].every((s) => ['running', 'queued', 'done'].includes(s))).toBe(true);
    const retries = logLines(survivor, 'export build started').filter((l) => l.exportId === exportId);
    // ...and takes it over as the queue's retry of the dead run (expired once its process went
    // silent), once.
    expect(retries.length).toBe(1);
    expect(retries[0]!.retry).toBeGreaterThanOrEqual(1);

    const file = await fetch(`${survivor.base}${done.downloadUrl}`, {
      headers: { cookie: member.cookie, origin: survivor.base },
    });
    expect(file.status).toBe(200);
    const files = readZip(Buffer.from(await file.arrayBuffer()));
    expect(JSON.parse(files.get('profile.json')!.toString())).toMatchObject({
      email: expect.stringContaining('@example.com'),
    });
  }, 90_000);
});
