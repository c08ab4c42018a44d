/**
 * Every statement on follows. The (follower, followee) primary key makes following idempotent,
 * and followersCount is counted from the followee index rather than stored, so it cannot drift.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, rows, sql } from '../../sql.js';
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
