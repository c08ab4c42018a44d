/**
 * The server's own Prometheus metrics, on prom-client's default registry (the one every package
 * records into, and metrics.server.ts serves): request durations by route and status, open
 * sockets, the database pools, and Node's defaults. The bus, Cubey, subscriptions and jobs keep
 * theirs next to their code in @cubes/api.
 */
import type { MikroORM } from '@cubes/db';
import { Counter, collectDefaultMetrics, Gauge, Histogram, register } from 'prom-client';

function once<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

let defaultsCollected = false;

/** Node's own metrics (event loop lag, heap, GC, handles), collected once per process. */
export function collectNodeMetrics(): void {
  if (defaultsCollected || register.getSingleMetric('process_cpu_user_seconds_total')) return;
  defaultsCollected = true;
  collectDefaultMetrics();
}

export const httpDuration = once(
  'cubes_http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'cubes_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern (tRPC: the procedure) and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

export const openSockets = once(
  'cubes_websockets_open',
  () => new Gauge({ name: 'cubes_websockets_open', help: 'WebSocket connections open now' }),
);

/** The tarn pool under MikroORM's knex client: what the gauges read. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  on(event: 'acquireFail', listener: (eventId: number, error: unknown) => void): void;
  removeListener(event: 'acquireFail', listener: (eventId: number, error: unknown) => void): void;
}

function poolOf(orm: MikroORM): TarnPool | null {
  try {
    const client = orm.em.getConnection().getKnex().client as { pool?: TarnPool | null };
    return client.pool ?? null;
  } catch {
    return null;
  }
}

/** The pools being watched, by ORM, with the name they are labelled with. */
const pools = new Map<MikroORM, string>();

function poolGauge(name: string, help: string, read: (pool: TarnPool) => number): Gauge<'pool'> {
  return once(
    name,
    () =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'] as const,
        collect() {
          this.reset();
          const sums = new Map<string, number>();
          for (const [orm, label] of pools) {
            const pool = poolOf(orm);
            if (pool) sums.set(label, (sums.get(label) ?? 0) + read(pool));
          }
          for (const [label, value] of sums) this.set({ pool: label }, value);
        },
      }),
  );
}

poolGauge('cubes_db_pool_in_use', 'Database connections lent out now', (p) => p.numUsed());
poolGauge('cubes_db_pool_idle', 'Database connections open and idle', (p) => p.numFree());
poolGauge('cubes_db_pool_waiting', 'Requests waiting for a database connection', (p) =>
  p.numPendingAcquires(),
);

export const poolTimeouts = once(
  'cubes_db_pool_acquire_failures_total',
  () =>
    new Counter({
      name: 'cubes_db_pool_acquire_failures_total',
      help: 'Requests that got no database connection (timed out waiting, or could not connect)',
      labelNames: ['pool'] as const,
    }),
);

/** Starts counting `orm`'s pool under `label` (primary, replica); the function stops it. */
export function watchPool(orm: MikroORM, label: string): () => void {
  pools.set(orm, label);
  const pool = poolOf(orm);
  const onFail = () => poolTimeouts.inc({ pool: label });
  pool?.on('acquireFail', onFail);
  return () => {
    pools.delete(orm);
    pool?.removeListener('acquireFail', onFail);
  };
}
