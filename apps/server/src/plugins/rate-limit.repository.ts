/**
 * The rate limits' shared counts (table `rate_limit_counts`, migration RateLimitCounts): the rows
 * rate-limiter-flexible's PostgreSQL store keeps for the named buckets, and the statement that
 * adds the general row's batched hits (rate-limit.counts.ts).
 */
import type { EntityManager } from '@cubes/db';

export const RATE_LIMIT_TABLE = 'rate_limit_counts';

export interface CountsToAdd {
  key: string;
  points: number;
  /** When a window that starts with these hits ends (ms since the epoch). */
  expire: number;
}

export interface SharedCount {
  key: string;
  points: number;
  expire: number;
}

/**
 * Adds each key's hits to its row in one statement and answers each row as it is now: a row whose
 * window ended starts a new one with these hits. The keys go in sorted, so two instances adding
 * the same keys lock their rows in the same order and never deadlock. Keys must be distinct.
 */
export async function addCounts(
  em: EntityManager,
  counts: CountsToAdd[],
  nowMs: number,
): Promise<SharedCount[]> {
  const sorted = [...counts].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows = await em.getConnection().execute<{ key: string; points: number; expire: string }[]>(
    `insert into "rate_limit_counts" ("key", "points", "expire")
       select "key", "points", "expire"
         from json_to_recordset(?::json) as "hit"("key" text, "points" integer, "expire" bigint)
     on conflict ("key") do update set
       "points" = case when "rate_limit_counts"."expire" <= ?::bigint then excluded."points"
                       else "rate_limit_counts"."points" + excluded."points" end,
       "expire" = case when "rate_limit_counts"."expire" <= ?::bigint then excluded."expire"
                       else "rate_limit_counts"."expire" end
     returning "key", "points", "expire"`,
    [JSON.stringify(sorted), nowMs, nowMs],
  );
  return rows.map((row) => ({ key: row.key, points: row.points, expire: Number(row.expire) }));
}
