/**
 * A member's daily Cubey tokens, held request by request. The start of an answer only checks
 * that some are left (cubey.fair-use.ts); an answer with tool rounds then makes several model
 * requests, and two answers may run at once. So before each model request the answer reserves an
 * estimate of it (`reserveTokens`, one decision at a time per member across every instance, in
 * PostgreSQL), and the provider's count replaces the estimate when the request ends
 * (`settleTokens`; a request that failed or was stopped settles its estimate instead).
 *
 * A request goes when its estimate fits what is left beside the other answer's hold (`fits`).
 * When it does not fit but some tokens are left and nothing else is in flight, it goes as the
 * answer's last request, without tools, so the model answers with what it found (`last`): only
 * this one request may cross the limit. When another request holds tokens meanwhile, it waits
 * for that one to settle and asks again. With nothing left it does not go (`refused`): an answer
 * that has written something ends there, one that has not fails with the daily limit's message.
 *
 * A hold counts only while its answer streams, so an answer that ends, is stopped, fails or dies
 * with its instance (the stale sweep fails it) holds nothing, whatever became of its last request.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { reserveTokens, settleTokens } from './cubey.usage.repository.js';
import { ProviderError } from './providers/provider.js';

/** What a request's estimate adds for the model's answer, beside the prompt it sends. */
export const ANSWER_TOKENS_ESTIMATE = 500;
/** How often an answer waiting for another's request to settle asks again. */
export const RESERVE_RETRY_MS = 100;

/** The next UTC midnight after `now`: when a day's tokens start again from 0. */
export function resetTime(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** The UTC day of `at`, as cubey_usage counts it. */
export function usageDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The refusal of a member whose day's tokens are spent, with when they reset. */
export function dailyLimitMessage(limit: number, now: Date): string {
  const resets = resetTime(now);
  return `You have used today's ${limit.toLocaleString('en-US')} Cubey tokens. They reset at ${resets.toISOString().slice(11, 16)} UTC (${resets.toISOString()}).`;
}

/** An answer's request refused for the daily limit: the answer fails with the limit's message. */
export class DailyTokensSpentError extends ProviderError {}

export type BudgetVerdict = 'fits' | 'last' | 'refused';

/** The hold of one answer on its member's day. */
export interface AnswerBudget {
  /** Reserves `tokens` for the next request (waiting while another request must settle first). */
  reserve(tokens: number, signal: AbortSignal): Promise<BudgetVerdict>;
  /** Replaces the hold with what the request spent (0: releases it only). */
  settle(tokens: number): Promise<void>;
  /** The error an answer fails with when refused before it wrote anything. */
  spent(): DailyTokensSpentError;
}

export function answerBudget(
  fork: () => EntityManager,
  answer: { userId: string; messageId: string; limit: number; now?: () => Date },
): AnswerBudget {
  const now = answer.now ?? (() => new Date());
  return {
    async reserve(tokens, signal) {
      const hold = Math.max(1, Math.ceil(tokens));
      for (;;) {
        signal.throwIfAborted();
        const verdict = await fork().transactional((em) =>
          reserveTokens(em, {
            userId: answer.userId,
            messageId: answer.messageId,
            day: usageDay(now()),
            tokens: hold,
            limit: answer.limit,
          }),
        );
        if (verdict !== 'wait') return verdict;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, RESERVE_RETRY_MS);
          function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
          }
          signal.addEventListener('abort', done, { once: true });
        });
      }
    },
    async settle(tokens) {
      await settleTokens(fork(), {
        userId: answer.userId,
        messageId: answer.messageId,
        day: usageDay(now()),
        tokens: tokens > 0 ? Math.round(tokens) : 0,
      });
    },
    spent() {
      return new DailyTokensSpentError(dailyLimitMessage(answer.limit, now()));
    },
  };
}
