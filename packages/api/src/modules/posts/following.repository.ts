/**
 * The Following feed's statements: which posts a page holds, chosen from index entries alone
 * (the walk or the merge, whichever is cheaper for the viewer's followees), then read in full by
 * id through post.repository.ts, and whom a member follows (what their kept page depends on).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { empty, firstRow, iso, sql, uuid } from '../../sql.js';
import { notSuspendedMember } from '../moderation/suspension.sql.js';
import { column, inFeedOf } from '../safety/safety.sql.js';
import { findPostsByIds, type PostCursor, postKeyset } from './post.repository.js';
import type { PostPage } from './post.schema.js';

/**
 * Which way a Following page is read. Walking the newest posts of everyone and keeping the
 * followees' finds one of theirs about every members / followees rows, so a page costs about
 * limit × members / followees rows; taking each followee's newest posts from the author index and
 * merging them costs about one index probe per followee. The walk is the cheaper once
 * followees² ≥ members, and never below FOLLOWING_DENSE_FROM followees (the crossover measured
 * with 10,000 members; with 100,000 the walk took 850 ms under load for 200 followees).
 * bench/history.md ("The Following feed") and bench/README.md have the figures.
 */
export const FOLLOWING_DENSE_FROM = 100;

export function followingIsDense(followees: number, members: number): boolean {
  return followees >= Math.max(FOLLOWING_DENSE_FROM, Math.sqrt(members));
}

/** PostgreSQL's estimate of the members (users' row count), read at most every 10 minutes. */
const MEMBERS_ESTIMATE_MS = 10 * 60_000;
let membersEstimate: { n: number; at: number } | null = null;
async function estimatedMembers(em: EntityManager): Promise<number> {
  if (membersEstimate && Date.now() - membersEstimate.at < MEMBERS_ESTIMATE_MS) return membersEstimate.n;
  const row = await firstRow<{ n: number }>(
    em,
    sql`select greatest(reltuples, 0)::float8 as n from pg_class where oid = 'users'::regclass`,
  );
  membersEstimate = { n: row?.n ?? 0, at: Date.now() };
  return membersEstimate.n;
}

const CHOSEN_KEY_COLUMNS = { createdAt: 'c.created_at', id: 'c.id' };
const SPARSE_KEY_COLUMNS = { createdAt: 'a.created_at', id: 'a.id' };
const NEWEST_KEY_COLUMNS = { createdAt: 'newest.created_at', id: 'newest.id' };

/** A post chosen for a Following page: its id, sort key and author, before it is read. */
export interface ChosenPost {
  id: string;
  created_at: string;
  author_id: string;
}

/**
 * The Following feed: posts by the people `viewerId` follows and their own, newest first, in
 * the same keyset as the other lists. Fan-out on read, no timeline table.
 *
 * Two statements: the page's ids are chosen from index entries alone (the live posts' indexes
 * carry the author; chooseFollowing), then only those posts are read in full (readFollowingPage).
 * As one statement, PostgreSQL planned the whole read again for each cursor (its plan for any
 * cursor looked dearer than the custom one): 1.8 ms of a page's 4.5. The small choosing statement
 * plans in about 0.6 ms, and the read by ids keeps one plan. Every filter that can leave a post
 * out (blocks, mutes, suspensions) is applied while choosing, so a page is never cut short by rows
 * dropped after the limit (a suspended followee's newest posts used to empty the page and end the
 * feed there).
 */
export async function findFollowingPage(
  em: EntityManager,
  query: {
    viewerId: string;
    cursor: PostCursor | null;
    limit: number;
    /** how many members the viewer follows, when the caller has counted them */
    followees?: number;
  },
): Promise<PostPage> {
  const chosen = await chooseFollowing(em, { ...query, count: query.limit + 1 });
  return readFollowingPage(em, query.viewerId, chosen, query.limit);
}

/**
 * The ids, sort keys and authors of the next `count` posts of `viewerId`'s Following feed after `cursor`
 * (from the top when null), every filter applied.
 */
export async function chooseFollowing(
  em: EntityManager,
  query: {
    viewerId: string;
    cursor: PostCursor | null;
    count: number;
    /** how many members the viewer follows, when the caller has counted them */
    followees?: number;
  },
): Promise<ChosenPost[]> {
  const { viewerId, cursor, count } = query;
  const followees =
    query.followees ??
    (
      await preparedRows<{ n: number }>(
        em,
        sql`select count(*)::int as n from follows where follower_id = ${uuid(viewerId)}`,
      )
    )[0]?.n ??
    0;
  const viewer = uuid(viewerId);
  const shown = (author: string) =>
    sql`${inFeedOf(viewerId, column(author))} and ${notSuspendedMember(column(author))}`;
  return followingIsDense(followees, await estimatedMembers(em))
    ? // Everyone's newest live posts, walked in the index that carries their authors.
      await preparedRows<ChosenPost>(
        em,
        sql`select c.id, ${iso('c.created_at')} as created_at, c.author_id from posts c
             where c.removed_at is null
               ${cursor ? sql`and ${postKeyset.continuing(cursor, CHOSEN_KEY_COLUMNS)}` : empty}
               and (c.author_id = ${viewer}
                    or c.author_id in (select f.followee_id from follows f where f.follower_id = ${viewer}))
               and ${shown('c.author_id')}
             order by ${postKeyset.ordering(CHOSEN_KEY_COLUMNS)}
             limit ${count}`,
      )
    : // Each shown followee's newest live posts (their author index), merged.
      await preparedRows<ChosenPost>(
        em,
        // The timestamps are written out for the chosen rows only, after the sort.
        sql`select chosen.id, ${iso('chosen.created_at')} as created_at, chosen.author_id from (
            select newest.id, newest.created_at, authors.author_id
              from (select f.followee_id as author_id from follows f where f.follower_id = ${viewer}
                    union all select ${viewer}) authors
              cross join lateral (
                select a.id, a.created_at from posts a
                 where a.author_id = authors.author_id and a.removed_at is null
                   ${cursor ? sql`and ${postKeyset.continuing(cursor, SPARSE_KEY_COLUMNS)}` : empty}
                 order by ${postKeyset.ordering(SPARSE_KEY_COLUMNS)}
                 limit ${count}
              ) newest
             where ${shown('authors.author_id')}
             order by ${postKeyset.ordering(NEWEST_KEY_COLUMNS)}
             limit ${count}) chosen
            order by ${postKeyset.ordering({ createdAt: 'chosen.created_at', id: 'chosen.id' })}`,
      );
}

/**
 * A Following page of `limit` posts from `chosen` (the page's posts, then at least one more when
 * there is a next page), read in full by id as `viewerId` sees them.
 */
export async function readFollowingPage(
  em: EntityManager,
  viewerId: string,
  chosen: readonly ChosenPost[],
  limit: number,
): Promise<PostPage> {
  const ids = chosen.slice(0, limit).map((row) => row.id);
  return { items: await findPostsByIds(em, ids, viewerId), nextCursor: followingNextCursor(chosen, limit) };
}

/**
 * The cursor after a Following page of `limit` posts from `chosen`, null when none follow. It
 * comes from what was chosen: a post removed before it was read leaves its page one short, never
 * the feed cut off.
 */
export function followingNextCursor(chosen: readonly ChosenPost[], limit: number): string | null {
  const last = chosen.length > limit ? chosen[limit - 1] : undefined;
  return last ? postKeyset.encode({ createdAt: last.created_at, id: last.id }) : null;
}

/** Whom `followerId` follows: what their kept Following page depends on (following.cache.ts). */
export async function findFolloweeIds(em: EntityManager, followerId: string): Promise<string[]> {
  const found = await preparedRows<{ id: string }>(
    em,
    sql`select followee_id as id from follows where follower_id = ${uuid(followerId)}`,
  );
  return found.map((row) => row.id);
}
