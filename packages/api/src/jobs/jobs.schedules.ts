/**
 * Scheduled jobs: work that must run once per period across any number of instances (sweeps,
 * expiries). Periods are split into slots aligned on the epoch (floor(now / period)); every
 * instance queues the current slot's job with pg-boss's singleton slot (`singletonSeconds`), a
 * unique index in the queue, so however many instances try, each slot holds one job, which one
 * instance runs. An instance asks a few times per period (at most every 30 s), so a slot's run
 * starts within that, plus a poll, of the slot's start.
 */

export interface Schedule {
  name: string;
  periodSeconds: number;
  /** The run for the slot starting at `slot`. */
  run: (slot: Date) => Promise<void>;
}

/** The start of the slot `at` falls in. */
export function slotOf(at: Date, periodSeconds: number): Date {
  const periodMs = periodSeconds * 1000;
  return new Date(Math.floor(at.getTime() / periodMs) * periodMs);
}

/** How often an instance queues its schedules' slots: a third of the shortest period, 0.5 s to 30 s. */
export function tickMs(schedules: Schedule[]): number {
  const shortest = Math.min(...schedules.map((s) => s.periodSeconds));
  return Math.min(30_000, Math.max(500, Math.floor((shortest * 1000) / 3)));
}

/**
 * Queues each schedule's current slot now and then at `tickMs`, skipping slots this instance
 * queued itself (`queue` is true when its insert made the job; false when the slot already had
 * one, which a clock a little ahead of the database's can also mean, so it asks again). Returns
 * the stop.
 */
export function scheduleTicker(
  schedules: Schedule[],
  queue: (schedule: Schedule) => Promise<boolean>,
  logError: (message: string, error: unknown) => void,
): () => void {
  if (schedules.length === 0) return () => {};
  const queued = new Map<string, number>();
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const schedule of schedules) {
        const slot = slotOf(new Date(), schedule.periodSeconds).getTime();
        if (queued.get(schedule.name) === slot) continue;
        try {
          if (await queue(schedule)) queued.set(schedule.name, slot);
        } catch (error) {
          logError(`scheduled job ${schedule.name} not queued`, error);
        }
      }
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), tickMs(schedules));
  timer.unref();
  return () => clearInterval(timer);
}
