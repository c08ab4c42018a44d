/**
 * Pinned posts: a member pins up to PINNED_POSTS_MAX of their own posts; they lead the Posts tab
 * of their profile with a "Pinned" label. Pinning is idempotent; another member's post is a 404,
 * as are ids that are not uuids; a fourth pin is a 409. What others see of the member changed:
 * the `profiles` event drops the kept pages that show their posts.
 */
import { type AuthedContext, publishEvent } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { conflict, notFound, requireUuid } from '../../errors.js';
import type { PinResult } from './post.schema.js';
import { POST_NOT_FOUND } from './post.service.js';
import { findOwnPin, lockAuthor, setPinned } from './post-pins.repository.js';
import { PINNED_POSTS_MAX } from './profile-posts.repository.js';

export const TOO_MANY_PINS = ERROR_REASONS.TOO_MANY_PINS;

async function pin(ctx: AuthedContext, rawPostId: string, pinned: boolean): Promise<PinResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const authorId = ctx.session.user.id;
  const changed = await ctx.em.transactional(async (em) => {
    await lockAuthor(em, authorId);
    const own = await findOwnPin(em, postId, authorId);
    if (!own) throw notFound(POST_NOT_FOUND);
    if (own.pinned === pinned) return false;
    if (pinned && own.pinned_count >= PINNED_POSTS_MAX) throw conflict(TOO_MANY_PINS);
    await setPinned(em, postId, authorId, pinned ? ctx.now() : null);
    return true;
  });
  if (changed) publishEvent(ctx, 'profiles', { userId: authorId });
  return { pinned };
}

export const pinPost = (ctx: AuthedContext, postId: string) => pin(ctx, postId, true);
export const unpinPost = (ctx: AuthedContext, postId: string) => pin(ctx, postId, false);
