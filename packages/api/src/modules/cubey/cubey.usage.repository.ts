/**
 * The SQL of Cubey's tools and fair use: an answer's look-ups, saved as they are made; a member's
 * tokens per UTC day (`cubey_usage`); the answers a member has running, counted under a lock per
 * member so two sends on two instances take turns; each model request's hold on the day's tokens
 * (`chat_messages.reserved_tokens`, cubey.budget.ts), decided under a lock of its own per member;
 * and the day's totals for the metrics.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, rows, type Sql, sql } from '../../sql.js';

/** Adds a look-up to an answer's list; how many it holds now (0 when the answer is gone). */
export async function appendLookup(em: EntityManager, messageId: string, lookup: unknown): Promise<number> {
  const row = await firstRow<{ count: number }>(
    em,
    sql`update chat_messages set lookups = lookups || jsonb_build_array(${JSON.stringify(lookup)}::jsonb)
         where id = ${messageId} returning jsonb_array_length(lookups) as count`,
  );
  return row?.count ?? 0;
}

/** Adds `tokens` to `userId`'s count for `day` (YYYY-MM-DD, UTC). */
export async function addUsage(
  em: EntityManager,
  userId: string,
  day: string,
  tokens: number,
): Promise<void> {
  await rows(
    em,
    sql`insert into cubey_usage (user_id, day, tokens) values (${userId}, ${day}::date, ${tokens})
        on conflict (user_id, day) do update set tokens = cubey_usage.tokens + excluded.tokens`,
  );
}

/** `userId`'s tokens on `day`. */
export async function usageOn(em: EntityManager, userId: string, day: string): Promise<number> {
  const row = await firstRow<{ tokens: string | number }>(
    em,
    sql`select tokens from cubey_usage where user_id = ${userId} and day = ${day}::date`,
  );
  return row ? Number(row.tokens) : 0;
}

/**
 * The call that holds, to the end of the transaction, the lock on `userId`'s Cubey answers: the
 * starts of one member's answers take turns across every instance, so the running count below
 * holds. A fragment, not a statement: the statement that creates or locks the answer's session
 * takes it too (cubey.repository.ts), a round trip less before the first token.
 */
export function memberAnswersLock(userId: string): Sql {
  return sql`pg_advisory_xact_lock(hashtextextended(${`cubey-answers:${userId}`}, 0))`;
}

/** What `reserveTokens` decided: `wait` while another request's hold must settle first. */
export type ReserveVerdict = 'fits' | 'last' | 'wait' | 'refused';

/**
 * Reserves `tokens` of `userId`'s `day` for the next request of the answer `messageId`, or not:
 * `fits` when they fit beside what is used and what the member's other streaming answers hold;
 * `last` when they do not but some are left and nothing else holds any (this request may cross
 * the limit, and is the answer's last); `wait` when another answer holds some; `refused` when
 * none are left. Inside a transaction: the member's budget lock makes the decisions of one
 * member take turns on every instance, and the statement after it reads what the others settled.
 */
export async function reserveTokens(
  em: EntityManager,
  r: { userId: string; messageId: string; day: string; tokens: number; limit: number },
): Promise<ReserveVerdict> {
  await rows(em, sql`select pg_advisory_xact_lock(hashtextextended(${`cubey-budget:${r.userId}`}, 0))`);
  const row = await firstRow<{ verdict: ReserveVerdict; held: boolean }>(
    em,
    sql`with state as (
          select coalesce((select tokens from cubey_usage where user_id = ${r.userId} and day = ${r.day}::date), 0) as used,
                 coalesce((select sum(m.reserved_tokens) from chat_messages m join chat_sessions s on s.id = m.session_id
                            where s.owner_id = ${r.userId} and m.status = 'streaming' and m.id <> ${r.messageId}), 0) as held
        ), decided as (
          select case when used + held + ${r.tokens} <= ${r.limit} then 'fits'
                      when used >= ${r.limit} then 'refused'
                      when held = 0 then 'last'
                      else 'wait' end as verdict
            from state
        ), hold as (
          update chat_messages set reserved_tokens = ${r.tokens}
           where id = ${r.messageId} and status = 'streaming'
             and (select verdict from decided) in ('fits', 'last')
          returning id
        )
        select verdict, exists (select 1 from hold) as held from decided`,
  );
  const verdict = row?.verdict ?? 'refused';
  // An answer no longer streaming (stopped meanwhile) sends nothing more.
  if ((verdict === 'fits' || verdict === 'last') && !row?.held) return 'refused';
  return verdict;
}

/**
 * Ends the hold of the answer `messageId` and adds what its request spent to `userId`'s `day`, in
 * one statement.
 */
export async function settleTokens(
  em: EntityManager,
  s: { userId: string; messageId: string; day: string; tokens: number },
): Promise<void> {
  if (s.tokens <= 0) {
    await rows(em, sql`update chat_messages set reserved_tokens = 0 where id = ${s.messageId}`);
    return;
  }
  await rows(
    em,
    sql`with released as (
          update chat_messages set reserved_tokens = 0 where id = ${s.messageId} returning id
        )
        insert into cubey_usage (user_id, day, tokens) values (${s.userId}, ${s.day}::date, ${s.tokens})
        on conflict (user_id, day) do update set tokens = cubey_usage.tokens + excluded.tokens`,
  );
}

/**
 * What fair use weighs before `userId`'s next answer, in one statement: their tokens on `day`
 * and how many of their answers are being written now, on any instance.
 */
export async function answerAllowance(
  em: EntityManager,
  userId: string,
  day: string,
): Promise<{ used: number; running: number }> {
  const row = await firstRow<{ used: string | number; running: number }>(
    em,
    sql`select coalesce((select tokens from cubey_usage where user_id = ${userId} and day = ${day}::date), 0) as used,
        (select count(*)::int from chat_messages m join chat_sessions s on s.id = m.session_id
          where s.owner_id = ${userId} and m.status = 'streaming') as running`,
  );
  return { used: Number(row?.used ?? 0), running: row?.running ?? 0 };
}

/** The day's tokens of all members, and the `limit` members who spent most, by username. */
export async function usageOfDay(
  em: EntityManager,
  day: string,
  limit: number,
): Promise<{ total: number; top: { username: string; tokens: number }[] }> {
  const [total, top] = await Promise.all([
    firstRow<{ total: string | number | null }>(
      em,
      sql`select sum(tokens) as total from cubey_usage where day = ${day}::date`,
    ),
    rows<{ username: string; tokens: string | number }>(
      em,
      sql`select u.username, c.tokens from cubey_usage c join users u on u.id = c.user_id
        where c.day = ${day}::date order by c.tokens desc, u.username limit ${limit}`,
    ),
  ]);
  return {
    total: Number(total?.total ?? 0),
    top: top.map((r) => ({ username: r.username, tokens: Number(r.tokens) })),
  };
}
