/**
 * An open-loop load generator: requests start on a fixed schedule, `rate` a second, whatever
 * the answers do, as users arrive whether or not the server kept up. autocannon (closed loop)
 * waits for an answer before it sends the next request, so a slow server is sent less and its
 * worst latencies go unseen. Each latency here counts from the moment its request was due, not
 * from when the generator got round to sending it, so a late generator cannot hide a slow
 * server either (its own lateness is reported apart). Requests go out through undici pools of
 * up to `connections` sockets each; a request that waits for one still counts from when it was
 * due. Run it unmeasured for a few seconds first: a cold generator (its code not yet compiled,
 * no socket open) was seen seconds late on a busy machine against a server that answers in 20 ms,
 * and on time once warm.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

export interface OpenLoopRequest {
  /** a name the figures are grouped by */
  kind: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface OpenLoopOutcome {
  kind: string;
  /** from when the request was due to its answer's last byte */
  ms: number;
  /** 0: no answer */
  status: number;
}

export interface OpenLoopRun {
  sent: number;
  /** the latest any request went out after it was due, in ms */
  maxLagMs: number;
}

/** One undici pool per origin (e.g. two app instances), kept alive. */
export function openLoopPools(
  origins: string[],
  connections = 256,
): { pools: Pool[]; close(): Promise<void> } {
  const pools = origins.map((origin) => new Pool(origin, { connections, pipelining: 1 }));
  return { pools, close: async () => void (await Promise.all(pools.map((p) => p.close()))) };
}

async function sendOne(pool: Pool, req: OpenLoopRequest, dueAt: number): Promise<OpenLoopOutcome> {
  try {
    const res = await pool.request({
      method: req.method,
      path: req.path,
      headers: req.headers,
      body: req.body,
    });
    await res.body.dump();
    return { kind: req.kind, ms: performance.now() - dueAt, status: res.statusCode };
  } catch {
    return { kind: req.kind, ms: performance.now() - dueAt, status: 0 };
  }
}

/**
 * Starts `rate` requests a second for `seconds` (request i is due at i / rate s), taking turns
 * over `pools`, and resolves once every answer is in. `next` makes each request (given the pool's
 * index), `onOutcome` hears each answer.
 */
export async function openLoop(options: {
  pools: Pool[];
  rate: number;
  seconds: number;
  next: (poolIndex: number) => OpenLoopRequest;
  onOutcome: (o: OpenLoopOutcome) => void;
}): Promise<OpenLoopRun> {
  const { pools, rate, seconds, next, onOutcome } = options;
  const total = Math.round(rate * seconds);
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  let sent = 0;
  let maxLagMs = 0;
  while (sent < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor(((now - started) / 1000) * rate) + 1);
    while (sent < due) {
      const dueAt = started + (sent / rate) * 1000;
      maxLagMs = Math.max(maxLagMs, now - dueAt);
      const poolIndex = sent % pools.length;
      sent += 1;
      const p = sendOne(pools[poolIndex]!, next(poolIndex), dueAt).then(onOutcome);
      pending.add(p);
      p.finally(() => pending.delete(p));
    }
    // Sleep until the next request is due (timers fire a millisecond or so late at best).
    const nextDue = started + (sent / rate) * 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, nextDue - performance.now())));
  }
  await Promise.all(pending);
  return { sent, maxLagMs };
}
