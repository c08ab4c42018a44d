/**
 * Follows. The (follower, followee) primary key makes following idempotent; followersCount is
 * counted from the followee index rather than stored, so it cannot drift.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, publishEvent } from '../../context.js';
import { badRequest, notFound, requireUuid } from '../../errors.js';
import { notify, retractFollowNotification } from '../notifications/notification.service.js';
import { CANNOT_FOLLOW_BLOCKED, requireNotBlocked } from '../safety/safety.service.js';
import { USER_NOT_FOUND } from '../users/user.repository.js';
import { countFollowers, deleteFollow, insertFollow, memberExists } from './follow.repository.js';
import type { FollowResult } from './follow.schema.js';

export type { FollowResult } from './follow.schema.js';

export const CANNOT_FOLLOW_SELF = 'You cannot follow yourself';

async function requireUser(em: EntityManager, userId: string): Promise<void> {
  if (!(await memberExists(em, userId))) throw notFound(USER_NOT_FOUND);
}

/** Idempotent: following someone already followed changes nothing. */
export async function follow(ctx: AuthedContext, rawUserId: string): Promise<FollowResult> {
  const followeeId = requireUuid(rawUserId, USER_NOT_FOUND);
  const followerId = ctx.session.user.id;
  if (followeeId === followerId) throw badRequest(CANNOT_FOLLOW_SELF);
  const now = ctx.now();
  const result = await ctx.em.transactional(async (em) => {
    // A block either way refuses the follow (403) rather than inserting nothing silently.
    const inserted = await insertFollow(em, { followerId, followeeId, at: now });
    if (!inserted) {
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
    return { following: true, followersCount: await countFollowers(em, followeeId) };
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
    const deleted = await deleteFollow(em, followerId, followeeId);
    if (!deleted) await requireUser(em, followeeId);
    else await retractFollowNotification(em, followerId, followeeId);
    return { following: false, followersCount: await countFollowers(em, followeeId) };
  });
  publishEvent(ctx, 'relations', { userId: followerId, otherId: followeeId, kind: 'unfollow' });
  publishEvent(ctx, 'notifications', { recipientId: followeeId });
  return result;
}
