/**
 * Fair use of the operator's model: a member's tokens a UTC day (`CUBEY_DAILY_TOKENS`; 50,000
 * with a model, unlimited offline), and at most `maxRunning` (2) answers of theirs running at
 * once across every instance. Over either, a new answer is refused with 429 and a readable
 * reason (the daily one says when it resets); an answer already running always finishes. The
 * chat shows what is left (`cubey.usage`); operators read the day's totals in the metrics. This
 * check is the answer's start only: each model request of an answer then reserves its tokens
 * (cubey.budget.ts), so the day is overspent by one request at most.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { Gauge, register } from 'prom-client';
import type { AuthedContext } from '../../context.types.js';
import { tooManyRequests } from '../../errors.js';
import { RateLimitedError } from '../../trpc.js';
import { dailyLimitMessage, resetTime } from './cubey.budget.js';
import { cubeyRuntimeOf, usageDay } from './cubey.runtime.js';
import type { CubeyUsage } from './cubey.schema.js';
import { answerAllowance, usageOfDay, usageOn } from './cubey.usage.repository.js';

export { resetTime };

/** The member's tokens today and what is left of their limit. */
export async function usageOf(ctx: AuthedContext): Promise<CubeyUsage> {
  const now = ctx.now();
  const limit = cubeyRuntimeOf(ctx).dailyTokens;
  const used = await usageOn(ctx.em, ctx.session.user.id, usageDay(now));
  return {
    used,
    limit,
    left: limit === null ? null : Math.max(0, limit - used),
    resetsAt: resetTime(now).toISOString(),
  };
}

/**
 * Whether an answer's start must hold the member's answers lock (`memberAnswersLock`): when
 * fair use counts the answers running. The statement that creates or locks the session takes it.
 */
export function fairUseLocks(ctx: AuthedContext): boolean {
  return cubeyRuntimeOf(ctx).maxRunning > 0;
}

/**
 * 429 when the member has spent today's tokens, or already has `maxRunning` answers being
 * written. Inside the transaction that starts the answer, after the member's answers lock is
 * held (`fairUseLocks`): the lock makes one member's starts take turns on every instance, so the
 * running count holds. Both are read in one statement, which must come after the lock's: its
 * snapshot is taken when it starts.
 */
export async function assertFairUse(ctx: AuthedContext, em: EntityManager, userId: string): Promise<void> {
  const { dailyTokens: limit, maxRunning: max } = cubeyRuntimeOf(ctx);
  if (limit === null && max <= 0) return;
  const now = ctx.now();
  const { used, running } = await answerAllowance(em, userId, usageDay(now));
  if (limit !== null && used >= limit) {
    const resets = resetTime(now);
    throw tooManyRequests(
      dailyLimitMessage(limit, now),
      new RateLimitedError(Math.max(1, Math.ceil((resets.getTime() - now.getTime()) / 1000))),
    );
  }
  if (max > 0 && running >= max) {
    throw tooManyRequests(
      `Cubey is already writing ${max} answers for you: wait for one to finish, or stop it`,
      new RateLimitedError(5),
    );
  }
}

/** Members shown by name in the metrics: the day's top spenders only, so the series stay few. */
export const METRICS_TOP_MEMBERS = 10;

let usageSource: (() => EntityManager) | null = null;

/**
 * The day's tokens in the metrics, read from the database at each scrape (so every instance
 * reports the same figures): `cubes_cubey_day_tokens` (all members) and
 * `cubes_cubey_day_member_tokens{member}` for the METRICS_TOP_MEMBERS who spent most.
 */
export function watchCubeyUsage(fork: () => EntityManager): void {
  usageSource = fork;
  dayTotal();
  dayMembers();
}

let latest: Promise<{ total: number; top: { username: string; tokens: number }[] }> | null = null;
let latestAt = 0;

/** One read for both gauges of a scrape. */
function readUsage() {
  if (!usageSource) return Promise.resolve({ total: 0, top: [] });
  if (!latest || Date.now() - latestAt > 1000) {
    latestAt = Date.now();
    latest = usageOfDay(usageSource(), usageDay(new Date()), METRICS_TOP_MEMBERS).catch(() => ({
      total: 0,
      top: [],
    }));
  }
  return latest;
}

function dayTotal() {
  const name = 'cubes_cubey_day_tokens';
  if (register.getSingleMetric(name)) return;
  new Gauge({
    name,
    help: 'Cubey tokens all members spent today (UTC), from the database',
    async collect() {
      this.set((await readUsage()).total);
    },
  });
}

function dayMembers() {
  const name = 'cubes_cubey_day_member_tokens';
  if (register.getSingleMetric(name)) return;
  new Gauge({
    name,
    help: `Cubey tokens spent today (UTC) by the ${METRICS_TOP_MEMBERS} members who spent most, by username`,
    labelNames: ['member'] as const,
    async collect() {
      const { top } = await readUsage();
      this.reset();
      for (const row of top) this.set({ member: row.username }, row.tokens);
    },
  });
}
