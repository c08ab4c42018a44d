/**
 * INSTANCES=n: one database, n app processes. The supervisor (this process) has already started
 * the database, migrated it and seeded it; each instance is this same program started again with
 * PORT+i and DATABASE_URL pointing at it, so the instances share everything through PostgreSQL
 * (sessions, rows, and the event bus) and nothing else, as they would behind a load balancer.
 * Instance i serves its metrics on METRICS_PORT+i-1, as its app on PORT+i-1 (METRICS_PORT=0: none).
 * Ctrl+C stops the instances, then the database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Logger } from 'pino';

/** Set in an instance's environment to its number (1…n); unset in the supervisor. */
export const INSTANCE_ENV = 'CUBES_INSTANCE';

export interface SuperviseOptions {
  count: number;
  port: number;
  /** The first instance's metrics port; 0: no metrics listener. */
  metricsPort: number;
  databaseUrl: string;
  log: Logger;
  /** From now on the database may go down (Ctrl+C reached it too) without being started again. */
  databaseStopping: () => void;
  stopDatabase: () => Promise<void>;
}

export async function superviseInstances({
  count,
  port,
  metricsPort,
  databaseUrl,
  log,
  databaseStopping,
  stopDatabase,
}: SuperviseOptions) {
  const children = new Set<ChildProcess>();
  let stopping = false;

  async function stop(signal: NodeJS.Signals, code: number) {
    if (stopping) return;
    stopping = true;
    databaseStopping();
    log.info(`${signal}: stopping ${children.size} instance(s)`);
    await Promise.all(
      [...children].map(
        (child) =>
          new Promise<void>((resolve) => {
            child.once('exit', () => resolve());
            child.kill(signal);
          }),
      ),
    );
    await stopDatabase();
    process.exit(code);
  }

  for (let i = 1; i <= count; i++) {
    const instancePort = port + i - 1;
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: {
        ...process.env,
        [INSTANCE_ENV]: String(i),
        PORT: String(instancePort),
        METRICS_PORT: String(metricsPort === 0 ? 0 : metricsPort + i - 1),
        DATABASE_URL: databaseUrl,
        // Migrated and seeded already, by the supervisor.
        SEED_DEMO: '0',
      },
    });
    children.add(child);
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (stopping) return;
      log.error(`instance ${i} (port ${instancePort}) exited (${signal ?? code}); stopping the others`);
      void stop('SIGTERM', 1);
    });
  }
  log.info(`${count} instances on ports ${port}–${port + count - 1}, one database`);
  process.on('SIGINT', () => void stop('SIGINT', 0));
  process.on('SIGTERM', () => void stop('SIGTERM', 0));
}
