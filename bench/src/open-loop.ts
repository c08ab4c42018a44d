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
import { type CpuSample, coresBetween } from './cpu.js';

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
  /** when it was due, from the run's start */
  dueMs: number;
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

async function sendOne(
  pool: Pool,
  req: OpenLoopRequest,
  dueAt: number,
  started: number,
): Promise<OpenLoopOutcome> {
  const dueMs = dueAt - started;
  try {
    const res = await pool.request({
      method: req.method,
      path: req.path,
      headers: req.headers,
      body: req.body,
    });
    await res.body.dump();
    return { kind: req.kind, ms: performance.now() - dueAt, dueMs, status: res.statusCode };
  } catch {
    return { kind: req.kind, ms: performance.now() - dueAt, dueMs, status: 0 };
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
      const p = sendOne(pools[poolIndex]!, next(poolIndex), dueAt, started).then(onOutcome);
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

/**
 * BENCH_OPEN_TRACE=1 (bench:mixed): where a step's slow quarter-seconds come from. For each
 * quarter-second (by when its requests were due) whose slowest answer took over 100 ms, the
 * kinds that took over 100 ms (a stall that holds every kind is the machine's or the database's;
 * one kind alone is that kind's) and the cores each party used meanwhile (cpu.ts).
 */
export function printStalls(
  outcomes: { kind: string; ms: number; dueMs?: number }[],
  startedAt: number,
  samples: CpuSample[],
  log: (line: string) => void,
): void {
  const windows = new Map<number, { kind: string; ms: number }[]>();
  for (const o of outcomes) {
    const w = Math.floor((o.dueMs ?? 0) / 250);
    const list = windows.get(w);
    if (list) list.push(o);
    else windows.set(w, [o]);
  }
  for (const [w, list] of [...windows].sort((a, b) => a[0] - b[0])) {
    const sorted = list.map((o) => o.ms).sort((a, b) => a - b);
    const max = sorted.at(-1) ?? 0;
    if (max < 100) continue;
    const kinds = new Map<string, number>();
    for (const o of list) if (o.ms > 100) kinds.set(o.kind, (kinds.get(o.kind) ?? 0) + 1);
    const from = startedAt + w * 250;
    log(
      `  ${(w / 4).toFixed(2)} s (${new Date(from).toISOString().slice(11, 23)}): ${list.length} due, median ${sorted[sorted.length >> 1]!.toFixed(0)} ms, max ${max.toFixed(0)} ms; ${coresBetween(samples, from, from + 250)}; over 100 ms: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
  }
}
