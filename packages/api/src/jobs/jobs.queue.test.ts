/**
 * The job runner on a real PostgreSQL, two runners on one database as two instances would be:
 * a schedule runs once per period across both, a failing job is retried, a job still running at
 * stop() is handed back and finished by the other runner, and the metrics count it all.
 */
import { createTestDatabase } from '@cubes/db/testing';
import { register } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner, type JobRunner } from './jobs.queue.js';
import { slotOf } from './jobs.schedules.js';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
const runners: JobRunner[] = [];
const errors: string[] = [];

function runner(): JobRunner {
  const made = createJobRunner({
    connectionString: db.url,
    pollSeconds: 0.5,
    maintenanceSeconds: 1,
    poolMax: 2,
    logError: (message) => errors.push(message),
  });
  runners.push(made);
  return made;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function metric(name: string, job: string): Promise<number> {
  const values = (await register.getSingleMetric(name)?.get())?.values ?? [];
  return values.find((v) => v.labels.job === job)?.value ?? 0;
}

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(runners.map((r) => r.stop(1_000)));
  await db.drop();
}, 30_000);

describe('the job runner, two instances on one database', () => {
  it('runs a scheduled job once per period across both', async () => {
    const runs: { instance: string; slot: number }[] = [];
    const [a, b] = [runner(), runner()];
    for (const [instance, r] of [
      ['a', a],
      ['b', b],
    ] as const) {
      r.every('test-tick', 1, async (slot) => {
        runs.push({ instance, slot: slot.getTime() });
      });
    }
    // The second starts while the first migrates the queue's schema: both must cope.
    await Promise.all([a.start(), b.start()]);
    const from = slotOf(new Date(), 1).getTime() + 1000;
    await sleep(5_500);
    const to = slotOf(new Date(), 1).getTime() - 1000;
    const window = runs.filter((r) => r.slot >= from && r.slot <= to);
    const slots = window.map((r) => r.slot);
    // Every period in the window ran, and none twice: both runners queue every slot (a job each,
    // were it not for the queue's unique slot index) and would run every job they find.
    expect(new Set(slots).size).toBe(slots.length);
    expect(slots.length).toBe((to - from) / 1000 + 1);
    expect(slots.length).toBeGreaterThanOrEqual(3);
    expect(await metric('cubes_jobs_running', 'test-tick')).toBe(0);
  }, 30_000);

  it('retries a failing job, then hands a running job back at stop() to the other instance', async () => {
    const [a, b] = [runner(), runner()];
    const tries: number[] = [];
    const finishedBy: string[] = [];
    let startedOnA = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const [instance, r] of [
      ['a', a],
      ['b', b],
    ] as const) {
      r.define<{ n: number }>({
        name: 'test-flaky',
        retryLimit: 2,
        retryDelaySeconds: 0,
        async run(_data, attempt) {
          tries.push(attempt.retryCount);
          if (attempt.retryCount === 0) throw new Error('first run fails');
        },
      });
      r.define<object>({
        name: 'test-long',
        retryLimit: 2,
        retryDelaySeconds: 0,
        async run() {
          // The first run (on a) outlives a's stop; the retry (on b) ends at once.
          if (instance === 'a') {
            startedOnA = true;
            await held;
          }
          finishedBy.push(instance);
        },
      });
    }
    const failedBefore = await metric('cubes_jobs_failed_total', 'test-flaky');
    await a.start();
    await a.send('test-flaky', { n: 1 });
    await waitFor(() => tries.length >= 2, 10_000, 'the retry');
    expect(tries).toEqual([0, 1]);
    expect(await metric('cubes_jobs_failed_total', 'test-flaky')).toBe(failedBefore + 1);
    expect(await metric('cubes_jobs_queued_total', 'test-flaky')).toBeGreaterThanOrEqual(1);

    await a.send('test-long', {});
    await waitFor(() => startedOnA, 5_000, 'the long job to start on a');
    expect(await metric('cubes_jobs_running', 'test-long')).toBe(1);
    await b.start();
    const stopped = Date.now();
    await a.stop(1_000);
    expect(Date.now() - stopped).toBeLessThan(5_000);
    await waitFor(() => finishedBy.includes('b'), 10_000, 'the other instance to finish it');
    release();
    expect(finishedBy[0]).toBe('b');
  }, 40_000);

  it('starts when several instances make the same new queues at once', async () => {
    // Without the queue lock, pg-boss's create_queue deadlocks between instances here.
    const racing = [runner(), runner(), runner(), runner()];
    for (const r of racing) {
      for (const n of [1, 2, 3]) r.define({ name: `race-job-${n}`, run: async () => {} });
      for (const n of [1, 2]) r.every(`race-tick-${n}`, 60, async () => {});
    }
    const started = await Promise.allSettled(racing.map((r) => r.start()));
    expect(
      started.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason)),
    ).toEqual([]);
  });
});
