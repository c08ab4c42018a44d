/**
 * Reposts: a member passes a post on to their followers. The repost, the post's repostsCount and
 * the author's notification change together in one statement (repost.repository.ts). Caches and
 * the author's bell follow the `reposts` bus event; the Following feed and profiles read the
 * reposts themselves (posts/following.repository.ts, posts/profile-posts.repository.ts).
 */
import { randomUUID } from 'node:crypto';
import { type AuthedContext, publishEvent } from '../../context.js';
import { notFound, requireUuid } from '../../errors.js';
import { notificationGroupKey } from '../notifications/notification.groups.js';
import { POST_NOT_FOUND } from '../posts/post.service.js';
import { deleteRepost, insertRepost, type RepostToggleRow } from './repost.repository.js';
import type { RepostResult } from './repost.schema.js';

function afterToggle(
  ctx: AuthedContext,
  postId: string,
  reposted: boolean,
  row: RepostToggleRow,
): RepostResult {
  const repostsCount = row.changed_count ?? row.current_count ?? 0;
  // Only a change is news: the feeds of the member's followers, the post's counts, the author's bell.
  if (row.changed_count !== null) {
    publishEvent(ctx, 'reposts', { postId, userId: ctx.session.user.id, reposted, repostsCount });
    if (row.author_id && row.author_id !== ctx.session.user.id) {
      publishEvent(ctx, 'notifications', { recipientId: row.author_id });
    }
  }
  return { reposted, repostsCount };
}

/** Idempotent: reposting a reposted post changes nothing and answers the same. */
export async function repostPost(ctx: AuthedContext, rawPostId: string): Promise<RepostResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const now = ctx.now();
  const row = await insertRepost(ctx.em, {
    postId,
    userId: ctx.session.user.id,
    now,
    notificationId: randomUUID(),
    groupKey: notificationGroupKey('repost', postId, now),
  });
  // Unknown, removed, by a suspended member, or hidden by a block either way: the same 404.
  if (!row?.visible) throw notFound(POST_NOT_FOUND);
  return afterToggle(ctx, postId, true, row);
}

/** Idempotent: taking back a repost one never made changes nothing. */
export async function unrepostPost(ctx: AuthedContext, rawPostId: string): Promise<RepostResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const row = await deleteRepost(ctx.em, { postId, userId: ctx.session.user.id });
  // Taking back a repost of a post removed since still counts; otherwise an unknown post is a 404.
  if (!row || (row.changed_count === null && !row.visible)) throw notFound(POST_NOT_FOUND);
  return afterToggle(ctx, postId, false, row);
}
