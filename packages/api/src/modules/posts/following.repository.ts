/**
 * The Following feed's statements: which posts a page holds, chosen from index entries alone
 * (the walk or the merge, whichever is cheaper for the viewer's followees), then read in full by
 * id through post.repository.ts, and whom a member follows (what their kept page depends on).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { empty, firstRow, iso, raw, type Sql, sql, uuid } from '../../sql.js';
import { notSuspendedMember } from '../moderation/suspension.sql.js';
import { column, inFeedOf } from '../safety/safety.sql.js';
import { findPostsByIds, type PostCursor, postKeyset } from './post.repository.js';
import type { PostDto, PostPage } from './post.schema.js';

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
const REPOST_KEY_COLUMNS = { createdAt: 'r.created_at', id: 'r.post_id' };
const ENTRY_KEY_COLUMNS = { createdAt: 'e.created_at', id: 'e.id' };

/**
 * A post chosen for a Following page, before it is read: its id, its sort key (its own time, or
 * the time of the repost that brought it), its author, and the reposter with their public fields
 * (null when it came as a post of a followee's).
 */
export interface ChosenPost {
  id: string;
  created_at: string;
  author_id: string;
  reposter_id: string | null;
  reposter_username: string | null;
  reposter_display_name: string | null;
  reposter_avatar_url: string | null;
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
  const shown = (member: string) =>
    sql`${inFeedOf(viewerId, column(member))} and ${notSuspendedMember(column(member))}`;
  // Whose posts and reposts the feed shows: the viewer's followees and the viewer.
  const source = (member: string) =>
    sql`(${raw(member)} = ${viewer} or ${raw(member)} in (select f.followee_id from follows f where f.follower_id = ${viewer}))`;
  // A post shows once, under its newest entry: a repost by a shown source outdates the post
  // itself and every older repost of it.
  const outdatedBy = (postId: string, after: Sql) => sql`exists (
      select 1 from reposts o where o.post_id = ${raw(postId)} ${after}
         and ${source('o.user_id')} and ${shown('o.user_id')})`;
  const dense = followingIsDense(followees, await estimatedMembers(em));
  const posts = dense
    ? // Everyone's newest live posts, walked in the index that carries their authors.
      sql`select c.id, c.created_at, c.author_id, null::uuid as reposter_id from posts c
           where c.removed_at is null
             ${cursor ? sql`and ${postKeyset.continuing(cursor, CHOSEN_KEY_COLUMNS)}` : empty}
             and ${source('c.author_id')} and ${shown('c.author_id')}
             and not ${outdatedBy('c.id', empty)}
           order by ${postKeyset.ordering(CHOSEN_KEY_COLUMNS)}
           limit ${count}`
    : // Each shown source's newest live posts (their author index), merged.
      sql`select newest.id, newest.created_at, authors.author_id, null::uuid as reposter_id
            from (select f.followee_id as author_id from follows f where f.follower_id = ${viewer}
                  union all select ${viewer}) authors
            cross join lateral (
              select a.id, a.created_at from posts a
               where a.author_id = authors.author_id and a.removed_at is null
                 ${cursor ? sql`and ${postKeyset.continuing(cursor, SPARSE_KEY_COLUMNS)}` : empty}
                 and not ${outdatedBy('a.id', empty)}
               order by ${postKeyset.ordering(SPARSE_KEY_COLUMNS)}
               limit ${count}
            ) newest
           where ${shown('authors.author_id')}
           order by newest.created_at desc, newest.id desc
           limit ${count}`;
  // The sources' reposts of live posts shown to the viewer, each the newest of its post's: walked
  // by time (everyone's, for a member who follows many), or each source's newest, merged.
  const repostShown = sql`p.removed_at is null and ${shown('p.author_id')}
       ${cursor ? sql`and ${postKeyset.continuing(cursor, REPOST_KEY_COLUMNS)}` : empty}
       and not ${outdatedBy('r.post_id', sql`and (o.created_at, o.user_id) > (r.created_at, r.user_id)`)}`;
  const reposts = dense
    ? sql`select r.post_id as id, r.created_at, p.author_id, r.user_id as reposter_id
          from reposts r join posts p on p.id = r.post_id
         where ${source('r.user_id')} and ${shown('r.user_id')} and ${repostShown}
         order by ${postKeyset.ordering(REPOST_KEY_COLUMNS)}
         limit ${count}`
    : sql`select newest.id, newest.created_at, newest.author_id, sources.user_id as reposter_id
          from (select f.followee_id as user_id from follows f where f.follower_id = ${viewer}
                union all select ${viewer}) sources
          cross join lateral (
            select r.post_id as id, r.created_at, p.author_id
              from reposts r join posts p on p.id = r.post_id
             where r.user_id = sources.user_id and ${repostShown}
             order by ${postKeyset.ordering(REPOST_KEY_COLUMNS)}
             limit ${count}
          ) newest
         where ${shown('sources.user_id')}
         order by newest.created_at desc, newest.id desc
         limit ${count}`;
  // The timestamps are written out for the chosen rows only, after the sort.
  return preparedRows<ChosenPost>(
    em,
    sql`select e.id, ${iso('e.created_at')} as created_at, e.author_id, e.reposter_id,
               ru.username as reposter_username, ru.display_name as reposter_display_name,
               ru.avatar_url as reposter_avatar_url
          from ((${posts}) union all (${reposts})) e
          left join users ru on ru.id = e.reposter_id
         order by ${postKeyset.ordering(ENTRY_KEY_COLUMNS)}
         limit ${count}`,
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
  const page = chosen.slice(0, limit);
  const posts = await findPostsByIds(
    em,
    page.map((row) => row.id),
    viewerId,
  );
  return { items: followingItems(page, posts), nextCursor: followingNextCursor(chosen, limit) };
}

/**
 * The posts of `chosen` in its order (a repost's time, not the post's, places it), each that came
 * by a repost with who reposted it; a chosen post not among `posts` (gone since) is left out.
 */
export function followingItems(chosen: readonly ChosenPost[], posts: readonly PostDto[]): PostDto[] {
  const byId = new Map(posts.map((p) => [p.id, p]));
  const items: PostDto[] = [];
  for (const entry of chosen) {
    const post = byId.get(entry.id);
    if (!post) continue;
    items.push(
      entry.reposter_id === null
        ? post
        : {
            ...post,
            repostedBy: {
              id: entry.reposter_id,
              username: entry.reposter_username ?? '',
              displayName: entry.reposter_display_name ?? '',
              avatarUrl: entry.reposter_avatar_url,
            },
          },
    );
  }
  return items;
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
