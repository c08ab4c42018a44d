/**
 * Readiness: whether this instance should get traffic. The database answers, the bus listens,
 * the schema has every migration of this build, and the process is not shutting down. What the
 * process knows of itself (shutdown, migrations) comes from the host through `ReadinessProbe` (context.types.ts).
 */
import type { Context } from '../../context.types.js';
import { databaseAnswers } from './health.repository.js';
import type { ReadyResult } from './health.schema.js';

/** The longest a readiness check waits for the database. */
export const READY_DB_TIMEOUT_MS = 1_000;

export async function checkReadiness(ctx: Pick<Context, 'em' | 'bus' | 'readiness'>): Promise<ReadyResult> {
  const probe = ctx.readiness;
  const running = !probe?.shuttingDown();
  const database = await databaseAnswers(ctx.em, READY_DB_TIMEOUT_MS);
  const migrations =
    database && probe
      ? await probe.pendingMigrations().then(
          (pending) => pending.length === 0,
          () => false,
        )
      : database;
  const bus = ctx.bus.listening ? ctx.bus.listening() : true;
  const checks = { database, bus, migrations, running };
  const failed = (Object.keys(checks) as (keyof typeof checks)[]).filter((name) => !checks[name]);
  return { ready: failed.length === 0, checks, failed };
}
