/**
 * Follows. The (follower, followee) primary key makes following idempotent; followersCount is
 * counted from the followee index rather than stored, so it cannot drift.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, publishEvent } from '../../context.js';
import { badRequest, notFound, requireUuid } from '../../errors.js';
import { notify, retractFollowNotification } from '../notifications/notification.service.js';
import { CANNOT_FOLLOW_BLOCKED, requireNotBlocked } from '../safety/safety.service.js';
import { notBlockedBetween } from '../safety/safety.sql.js';
import { USER_NOT_FOUND } from '../users/user.repository.js';

export const CANNOT_FOLLOW_SELF = 'You cannot follow yourself';

export interface FollowResult {
  following: boolean;
  followersCount: number;
}

async function followersCount(em: EntityManager, userId: string): Promise<number> {
  const rows = await em.execute<{ count: number }[]>(
    'select count(*)::int as count from follows where followee_id = ?',
    [userId],
  );
  return rows[0]?.count ?? 0;
}

async function requireUser(em: EntityManager, userId: string): Promise<void> {
  const rows = await em.execute<unknown[]>('select 1 from users where id = ? and deleted_at is null', [
    userId,
  ]);
  if (rows.length === 0) throw notFound(USER_NOT_FOUND);
}

/** Idempotent: following someone already followed changes nothing. */
export async function follow(ctx: AuthedContext, rawUserId: string): Promise<FollowResult> {
  const followeeId = requireUuid(rawUserId, USER_NOT_FOUND);
  const followerId = ctx.session.user.id;
  if (followeeId === followerId) throw badRequest(CANNOT_FOLLOW_SELF);
  const now = ctx.now();
  const result = await ctx.em.transactional(async (em) => {
    // A block either way refuses the follow (403) rather than inserting nothing silently.
    const inserted = await em.execute<{ followee_id: string }[]>(
      `insert into follows (follower_id, followee_id, created_at)
       select ?, u.id, ? from users u
        where u.id = ? and u.deleted_at is null and ${notBlockedBetween('?::uuid', 'u.id')}
       on conflict do nothing
       returning followee_id`,
      [followerId, now, followeeId, followerId, followerId],
    );
    if (inserted.length === 0) {
      await requireUser(em, followeeId);
      await requireNotBlocked(em, followerId, followeeId, CANNOT_FOLLOW_BLOCKED);
    } else
      await notify(em, {
        recipientId: followeeId,
        actorId: followerId,
        type: 'follow',
        postId: null,
        at: now,
      });
    return { following: true, followersCount: await followersCount(em, followeeId) };
  });
  publishEvent(ctx, 'relations', { userId: followerId, otherId: followeeId, kind: 'follow' });
  publishEvent(ctx, 'notifications', { recipientId: followeeId });
  return result;
}

/** Idempotent: unfollowing someone not followed changes nothing. */
export async function unfollow(ctx: AuthedContext, rawUserId: string): Promise<FollowResult> {
  const followeeId = requireUuid(rawUserId, USER_NOT_FOUND);
  const followerId = ctx.session.user.id;
  const result = await ctx.em.transactional(async (em) => {
    const deleted = await em.execute<{ followee_id: string }[]>(
      'delete from follows where follower_id = ? and followee_id = ? returning followee_id',
      [followerId, followeeId],
    );
    if (deleted.length === 0) await requireUser(em, followeeId);
    else await retractFollowNotification(em, followerId, followeeId);
    return { following: false, followersCount: await followersCount(em, followeeId) };
  });
  publishEvent(ctx, 'relations', { userId: followerId, otherId: followeeId, kind: 'unfollow' });
  publishEvent(ctx, 'notifications', { recipientId: followeeId });
  return result;
}
