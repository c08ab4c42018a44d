/**
 * The job runner: one pg-boss (a PostgreSQL job queue, in the database's own `pgboss` schema,
 * which pg-boss creates and migrates itself) per app instance. Every instance works every queue:
 * a queued job runs once, on whichever instance fetches it first; a job whose process died is
 * expired by pg-boss's maintenance (run by one instance at a time) and retried on another.
 * Scheduled jobs (jobs.schedules.ts) are queued jobs too, at most one per period.
 *
 * The host makes one runner, registers handlers (jobs.handlers.ts), starts it and stops it last
 * when shutting down: `stop()` lets running jobs finish for a bounded time, then hands the rest
 * back to the queue (failed, so retried elsewhere). Hosts that need no background work (most unit
 * tests) make none, and pay nothing.
 */
import pg from 'pg';
import PgBoss from 'pg-boss';
import { jobsFailed, jobsQueued, jobsRunning } from './jobs.metrics.js';
import { type Schedule, scheduleTicker, slotOf } from './jobs.schedules.js';

/** The advisory lock key under which queues are made (createQueue below): "cubesjobs". */
const QUEUE_LOCK = 0x6375_6265_736a;

/** What a queued job's handler learns of its run besides its data. */
export interface JobAttempt {
  /** 0 on the first run, then 1, 2… for each retry. */
  retryCount: number;
  /** True when no retry follows if this run fails. */
  last: boolean;
}

export interface JobDefinition<T extends object> {
  name: string;
  run: (data: T, attempt: JobAttempt) => Promise<void>;
  /** Retries after a failed (or expired) run. Default 3. */
  retryLimit?: number;
  /** Seconds before a retry. Default 5. */
  retryDelaySeconds?: number;
  /** A run still active after this long counts as dead (its process went): it fails and is retried. Default 15 min. */
  expireInSeconds?: number;
}

/** The side of the runner that services see (Context.jobs): queueing work. */
export interface JobQueue {
  send(name: string, data: object, options?: { startAfterSeconds?: number }): Promise<void>;
}

export interface JobRunner extends JobQueue {
  define<T extends object>(definition: JobDefinition<T>): void;
  /** Runs `run` once per `periodSeconds` across every instance (jobs.schedules.ts). */
  every(name: string, periodSeconds: number, run: (slot: Date) => Promise<void>): void;
  start(): Promise<void>;
  /** Stops fetching; running jobs get up to `timeoutMs` to finish, then go back to the queue. */
  stop(timeoutMs?: number): Promise<void>;
}

export interface JobRunnerOptions {
  connectionString: string;
  /** The queue's schema. Default 'pgboss'. */
  schema?: string;
  /** How often each queue is polled, in seconds (at least 0.5). Default 2. */
  pollSeconds?: number;
  /** How often one instance expires dead runs and archives old jobs, in seconds. Default 30. */
  maintenanceSeconds?: number;
  /** Connections of the runner's own pool. Default 3. */
  poolMax?: number;
  logError?: (message: string, error: unknown) => void;
  /** Each scheduled run that ended (debug level: one line per queue per period). */
  logDebug?: (fields: Record<string, unknown>, message: string) => void;
}

export const DEFAULT_STOP_TIMEOUT_MS = 5_000;

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const definitions: JobDefinition<object>[] = [];
  const schedules: Schedule[] = [];
  const logError = options.logError ?? (() => {});
  const pollingIntervalSeconds = Math.max(0.5, options.pollSeconds ?? 2);
  let boss: PgBoss | null = null;
  let stopTicker: (() => void) | null = null;
  let stopping: Promise<void> | null = null;

  const instrumented =
    <T>(name: string, run: (job: PgBoss.JobWithMetadata<T>) => Promise<void>) =>
    async (jobs: PgBoss.JobWithMetadata<T>[]) => {
      for (const job of jobs) {
        jobsRunning.inc({ job: name });
        try {
          await run(job);
        } catch (error) {
          jobsFailed.inc({ job: name });
          logError(`job ${name} failed (run ${job.retryCount + 1} of ${job.retryLimit + 1})`, error);
          throw error;
        } finally {
          jobsRunning.dec({ job: name });
        }
      }
    };

  async function send(name: string, data: object, sendOptions: PgBoss.SendOptions = {}): Promise<boolean> {
    if (!boss) throw new Error(`job ${name} queued before the runner started`);
    const id = await boss.send(name, data, sendOptions);
    if (id) jobsQueued.inc({ job: name });
    return id !== null;
  }

  /**
   * pg-boss makes a queue's table and its partition in create_queue; instances that start
   * together deadlock there (seen: three instances on one new database, one exited). So queues
   * are made and updated one instance at a time, under a session advisory lock of their own
   * connection; an instance that waited finds the queue made and only updates it.
   */
  async function createQueue(boss: PgBoss, queue: PgBoss.Queue): Promise<void> {
    const lock = new pg.Client({ connectionString: options.connectionString });
    await lock.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [QUEUE_LOCK]);
      await boss.createQueue(queue.name, queue);
      await boss.updateQueue(queue.name, queue);
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [QUEUE_LOCK]).catch(() => {});
      await lock.end();
    }
  }

  return {
    define(definition) {
      definitions.push(definition as JobDefinition<object>);
    },
    every(name, periodSeconds, run) {
      schedules.push({ name, periodSeconds: Math.max(1, Math.round(periodSeconds)), run });
    },
    async send(name, data, sendOptions = {}) {
      await send(
        name,
        data,
        sendOptions.startAfterSeconds ? { startAfter: sendOptions.startAfterSeconds } : {},
      );
    },
    async start() {
      if (boss) return;
      const started = new PgBoss({
        connectionString: options.connectionString,
        schema: options.schema ?? 'pgboss',
        max: options.poolMax ?? 3,
        application_name: 'cubes-jobs',
        // Our schedules (jobs.schedules.ts) take periods in seconds; pg-boss's cron only minutes.
        schedule: false,
        supervise: true,
        migrate: true,
        maintenanceIntervalSeconds: Math.max(1, Math.round(options.maintenanceSeconds ?? 30)),
      });
      started.on('error', (error) => logError('job runner', error));
      await started.start();
      boss = started;
      for (const definition of definitions) {
        const queue: PgBoss.Queue = {
          name: definition.name,
          policy: 'standard',
          retryLimit: definition.retryLimit ?? 3,
          retryDelay: definition.retryDelaySeconds ?? 5,
          expireInSeconds: definition.expireInSeconds ?? 15 * 60,
        };
        await createQueue(started, queue);
        await started.work<object>(
          definition.name,
          { pollingIntervalSeconds, batchSize: 1, includeMetadata: true },
          instrumented(definition.name, (job) =>
            definition.run(job.data, { retryCount: job.retryCount, last: job.retryCount >= job.retryLimit }),
          ),
        );
      }
      for (const schedule of schedules) {
        // One run at a time ('singleton'); a run that fails or dies is not retried: the next period's runs.
        const queue: PgBoss.Queue = {
          name: schedule.name,
          policy: 'singleton',
          retryLimit: 0,
          expireInSeconds: Math.max(60, schedule.periodSeconds * 2),
        };
        await createQueue(started, queue);
        await started.work<object>(
          schedule.name,
          { pollingIntervalSeconds, batchSize: 1, includeMetadata: true },
          instrumented(schedule.name, async (job) => {
            const slot = job.singletonOn ?? slotOf(new Date(), schedule.periodSeconds);
            await schedule.run(slot);
            options.logDebug?.(
              { component: 'jobs', job: schedule.name, slot: slot.toISOString() },
              'scheduled job done',
            );
          }),
        );
      }
      stopTicker = scheduleTicker(
        schedules,
        (schedule) =>
          send(schedule.name, {}, { singletonKey: schedule.name, singletonSeconds: schedule.periodSeconds }),
        logError,
      );
    },
    stop(timeoutMs = DEFAULT_STOP_TIMEOUT_MS) {
      stopping ??= (async () => {
        stopTicker?.();
        stopTicker = null;
        // Resolves once running jobs ended, or at the timeout, once the rest were failed (retried elsewhere).
        await boss?.stop({ graceful: true, wait: true, close: true, timeout: Math.max(1_000, timeoutMs) });
      })();
      return stopping;
    },
  };
}
