/**
 * Follows. The (follower, followee) primary key makes following idempotent; followersCount is
 * counted from the followee index rather than stored, so it cannot drift. A member's Followers and
 * Following lists are paged like every list (paging.ts) and hidden as their stats are.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, type Context, publishEvent, readEm } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, notFound, requireUuid } from '../../errors.js';
import { keyset } from '../../paging.js';
import { notify, retractFollowNotification } from '../notifications/notification.service.js';
import { CANNOT_FOLLOW_BLOCKED, requireNotBlocked } from '../safety/safety.service.js';
import { USER_NOT_FOUND } from '../users/user.repository.js';
import {
  countFollowers,
  deleteFollow,
  type FollowListSide,
  findFollowList,
  followListKeyColumns,
  insertFollow,
  memberExists,
  memberShownTo,
} from './follow.repository.js';
import type { FollowListInput, FollowListPage, FollowResult } from './follow.schema.js';

export type { FollowListPage, FollowResult } from './follow.schema.js';

export const CANNOT_FOLLOW_SELF = ERROR_REASONS.CANNOT_FOLLOW_SELF;

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

/** Most recent follow first, ties broken by the member's id. */
const followListKeyset = keyset({
  name: 'follows',
  order: 'desc',
  key: { since: 'timestamp', userId: 'uuid' },
});

/**
 * A page of a member's Followers or Following list, with whether the viewer follows each. Hidden
 * as their stats are: a member the viewer may not see (suspended, or a block either way) is 404,
 * and nobody suspended or blocked either way with the viewer is in the list. A member reads on the
 * primary (whom they just followed shows so); a visitor on the replica when there is one.
 */
async function followList(
  ctx: Context,
  input: FollowListInput,
  side: FollowListSide,
): Promise<FollowListPage> {
  const userId = requireUuid(input.userId, USER_NOT_FOUND);
  const cursor = followListKeyset.decode(input.cursor);
  const viewerId = ctx.session?.user.id ?? null;
  const em = viewerId ? ctx.em : readEm(ctx);
  const columns = followListKeyColumns(side);
  const rows = await findFollowList(em, {
    side,
    userId,
    viewerId,
    after: cursor ? followListKeyset.continuing(cursor, columns) : null,
    order: followListKeyset.ordering(columns),
    limit: input.limit + 1,
  });
  // Rows mean the member is shown; only an empty page asks whether they are there at all.
  if (rows.length === 0 && !(await memberShownTo(em, userId, viewerId))) throw notFound(USER_NOT_FOUND);
  return followListKeyset.page(
    rows,
    input.limit,
    (row) => ({
      id: row.id,
      username: row.username,
      displayName: row.display_name,
      avatarUrl: row.avatar_url,
      bio: row.bio,
      followersCount: row.followers_count,
      isFollowing: row.is_following,
    }),
    (row) => ({ since: row.since, userId: row.id }),
  );
}

/** GET /api/users/:id/followers: who follows the member, most recent first. */
export function followers(ctx: Context, input: FollowListInput): Promise<FollowListPage> {
  return followList(ctx, input, 'followers');
}

/** GET /api/users/:id/following: whom the member follows, most recent first. */
export function following(ctx: Context, input: FollowListInput): Promise<FollowListPage> {
  return followList(ctx, input, 'following');
}
