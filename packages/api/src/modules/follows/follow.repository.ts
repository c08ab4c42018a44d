/**
 * Every statement on follows. The (follower, followee) primary key makes following idempotent,
 * and followersCount is counted from the followee index rather than stored, so it cannot drift.
 */
import type { IUser, Row } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { empty, firstRow, iso, raw, rows, type Sql, sql, uuid } from '../../sql.js';
import { shownMember } from '../moderation/suspension.sql.js';
import { column, notBlocked } from '../safety/safety.sql.js';

/** How many follow `userId`. */
export async function countFollowers(em: EntityManager, userId: string): Promise<number> {
  const row = await firstRow<{ count: number }>(
    em,
    sql`select count(*)::int as count from follows where followee_id = ${userId}`,
  );
  return row?.count ?? 0;
}

/** Whether `userId` names a member whose account is not deleted. */
export async function memberExists(em: EntityManager, userId: string): Promise<boolean> {
  const found = await rows(em, sql`select 1 from users where id = ${userId} and deleted_at is null`);
  return found.length > 0;
}

/**
 * `followerId` follows `followeeId` from `at`, unless the followee is gone or a block stands
 * either way; false when nothing was written (already following, gone or blocked).
 */
export async function insertFollow(
  em: EntityManager,
  follow: { followerId: string; followeeId: string; at: Date },
): Promise<boolean> {
  const inserted = await rows<{ followee_id: string }>(
    em,
    sql`insert into follows (follower_id, followee_id, created_at)
       select ${follow.followerId}, u.id, ${follow.at} from users u
        where u.id = ${follow.followeeId} and u.deleted_at is null and ${notBlocked(follow.followerId, column('u.id'))}
       on conflict do nothing
       returning followee_id`,
  );
  return inserted.length > 0;
}

/** Ends the follow; false when there was none. */
export async function deleteFollow(
  em: EntityManager,
  followerId: string,
  followeeId: string,
): Promise<boolean> {
  const deleted = await rows<{ followee_id: string }>(
    em,
    sql`delete from follows where follower_id = ${followerId} and followee_id = ${followeeId} returning followee_id`,
  );
  return deleted.length > 0;
}

/**
 * Who `followerId` follows, as one short fingerprint (md5 of the sorted ids; '' for no one): the
 * id of the Following feed's live stream, which changes with every follow and unfollow.
 */
export async function followeesFingerprint(em: EntityManager, followerId: string): Promise<string> {
  const row = await firstRow<{ fingerprint: string }>(
    em,
    sql`select coalesce(md5(string_agg(followee_id::text, ',' order by followee_id)), '') as fingerprint
          from follows where follower_id = ${followerId}`,
  );
  return row?.fingerprint ?? '';
}

/** Which list: those who follow the member (`followers`), or those the member follows. */
export type FollowListSide = 'followers' | 'following';

/** The member a list is of, and the other end of each of its follows, as columns of `f`. */
const SIDES: Record<FollowListSide, { owner: string; other: string }> = {
  followers: { owner: 'f.followee_id', other: 'f.follower_id' },
  following: { owner: 'f.follower_id', other: 'f.followee_id' },
};

/** The sort key's columns of a list: when the follow was made, then the other member's id. */
export function followListKeyColumns(side: FollowListSide): { since: string; userId: string } {
  return { since: 'f.created_at', userId: SIDES[side].other };
}

/** A member in a Followers or Following list, `since` (the follow) as ISO text for the cursor. */
export type FollowListRow = Pick<Row<IUser>, 'id' | 'username' | 'display_name' | 'avatar_url' | 'bio'> & {
  since: string;
  followers_count: number;
  is_following: boolean;
};

/**
 * Up to `limit` members of `userId`'s Followers or Following list as `viewerId` (null: a
 * visitor) may see it, after `after` (a keyset condition), in `order`. The list is empty when the
 * viewer may not see the member at all (suspended, deleted, or a block either way: the rule of
 * their stats); members suspended, deleted or blocked either way with the viewer are left out.
 */
export function findFollowList(
  em: EntityManager,
  query: {
    side: FollowListSide;
    userId: string;
    viewerId: string | null;
    after: Sql | null;
    order: Sql;
    limit: number;
  },
): Promise<FollowListRow[]> {
  const { owner, other } = SIDES[query.side];
  const viewer = uuid(query.viewerId);
  return rows<FollowListRow>(
    em,
    sql`select u.id, u.username, u.display_name, u.avatar_url, u.bio, ${iso('f.created_at')} as since,
            (select count(*)::int from follows c where c.followee_id = u.id) as followers_count,
            exists (select 1 from follows v where v.follower_id = ${viewer} and v.followee_id = u.id) as is_following
       from follows f
       join users u on u.id = ${raw(other)}
      where ${raw(owner)} = ${query.userId}
        and exists (select 1 from users o where o.id = ${query.userId} and o.deleted_at is null
                      and ${shownMember('o')} and ${notBlocked(query.viewerId, column('o.id'))})
        and u.deleted_at is null and ${shownMember('u')} and ${notBlocked(query.viewerId, column('u.id'))}
        ${query.after ? sql`and ${query.after}` : empty}
      order by ${query.order}
      limit ${query.limit}`,
  );
}

/**
 * Whether `viewerId` may see the member `userId` and their lists: not deleted, not suspended, no
 * block either way (what users.stats asks).
 */
export async function memberShownTo(
  em: EntityManager,
  userId: string,
  viewerId: string | null,
): Promise<boolean> {
  const found = await rows(
    em,
    sql`select 1 from users u where u.id = ${userId} and u.deleted_at is null
          and ${shownMember('u')} and ${notBlocked(viewerId, column('u.id'))}`,
  );
  return found.length > 0;
}
