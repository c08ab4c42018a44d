/**
 * A post after it was published: its author deletes it (likes, comments, revisions and
 * notifications go with it through the foreign keys, in the same statement) or edits it within
 * POST_EDIT_WINDOW_MS (the text it replaced is kept in post_revisions; its images' descriptions
 * and sensitive flags, and its content warning, may change in the same edit). Both are told to every
 * open feed through the bus's `postChanges` topic, so other viewers drop or refresh the post (a
 * viewer the post is hidden from is told nothing: livePostChanges). Another member's post is 404
 * to both, so ids are not probed.
 */
import { randomUUID } from 'node:crypto';
import type { PostImageData } from '@cubes/db';
import { type AuthedContext, type Context, publishEvent, sentWithWrite } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, forbidden, notFound, requireUuid } from '../../errors.js';
import type { EventTopics } from '../../events/event-bus.js';
import { queueLinkCard, relinkEditedPost } from '../link-cards/link-card.service.js';
import { mentionsInPost, tellMentioned } from '../mentions/mention.service.js';
import { blockedEitherWay } from '../safety/safety.service.js';
import { tagPost } from '../tags/tag.service.js';
import { findPostById } from './post.repository.js';
import {
  type EditPostInput,
  type LivePostChange,
  POST_EDIT_WINDOW_MS,
  type PostResult,
  type PostRevision,
} from './post.schema.js';
import { isoDate } from './post.serializer.js';
import { POST_NOT_FOUND } from './post.service.js';
import {
  deleteOwnPost,
  findRevisions,
  lockOwnPost,
  notifiedAboutPost,
  replacePostContent,
  replacePostContentWarning,
  replacePostImages,
} from './post-changes.repository.js';

export const EDIT_WINDOW_PASSED = ERROR_REASONS.EDIT_WINDOW_PASSED;

export type PostChange = EventTopics['postChanges'];

export async function deletePost(ctx: AuthedContext, rawPostId: string): Promise<{ ok: true }> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const authorId = ctx.session.user.id;
  const { bells, change } = await ctx.em.transactional(async (em) => {
    // Whose bells showed something about this post: they change when its notifications go.
    const recipients = await notifiedAboutPost(em, postId, authorId);
    const deleted = await deleteOwnPost(em, postId, authorId);
    if (!deleted) throw notFound(POST_NOT_FOUND);
    // A post a moderator removed was out of sight: only caches hear of its end.
    const change: PostChange = { postId, kind: 'deleted', authorId, hidden: deleted.removed };
    await ctx.bus.publish('postChanges', change, em);
    return { bells: recipients, change };
  });
  sentWithWrite(ctx, 'postChanges', change);
  for (const recipientId of bells) publishEvent(ctx, 'notifications', { recipientId });
  return { ok: true };
}

export async function editPost(ctx: AuthedContext, input: EditPostInput): Promise<PostResult> {
  const postId = requireUuid(input.postId, POST_NOT_FOUND);
  const authorId = ctx.session.user.id;
  const now = ctx.now();
  const editableSince = new Date(now.getTime() - POST_EDIT_WINDOW_MS);
  const changed = await ctx.em.transactional(async (em) => {
    const post = await lockOwnPost(em, postId, authorId, editableSince);
    if (!post) throw notFound(POST_NOT_FOUND);
    if (!post.editable) throw forbidden(EDIT_WINDOW_PASSED);
    const images = flaggedImages(describedImages(post.images, input.alts) ?? post.images, input.sensitive);
    const changedImages = images.some((image, i) => !sameImage(image, post.images[i]!)) ? images : null;
    const textChanged = post.content !== input.content;
    const warningChanged =
      input.contentWarning !== undefined && input.contentWarning !== (post.content_warning ?? null);
    if (!textChanged && !changedImages && !warningChanged) return false; // nothing to keep, nothing to tell
    if (changedImages) await replacePostImages(em, postId, changedImages);
    if (warningChanged) await replacePostContentWarning(em, postId, input.contentWarning ?? null);
    let notified: string[] = [];
    let linkCardDue = false;
    if (textChanged) {
      await replacePostContent(em, { revisionId: randomUUID(), postId, content: input.content, now });
      // Its tags follow the new text; only members it did not mention before are notified.
      await tagPost(em, { id: postId, content: input.content });
      ({ notified } = await mentionsInPost(em, ctx, { id: postId, content: input.content }));
      // Another first link, another card (link-cards/).
      ({ due: linkCardDue } = await relinkEditedPost(
        em,
        now,
        { id: postId, content: input.content },
        post.content,
      ));
    }
    // A removed post is not editable, and its author is not suspended: they are acting.
    await ctx.bus.publish('postChanges', { postId, kind: 'edited', authorId, hidden: false }, em);
    return { notified, linkCardDue };
  });
  if (changed) {
    sentWithWrite(ctx, 'postChanges', { postId, kind: 'edited', authorId, hidden: false });
    tellMentioned(ctx, changed.notified);
    if (changed.linkCardDue) await queueLinkCard(ctx, postId);
  }
  const post = await findPostById(ctx.em, postId, authorId);
  if (!post) throw notFound(POST_NOT_FOUND); // deleted in the meantime
  return { post };
}

/**
 * The post's images with the descriptions `alts` gives them, one per image in order; null when
 * `alts` is left out or changes nothing. A new description is not a new text: the post is not
 * marked edited for it, and no revision is kept.
 */
function describedImages(
  images: PostImageData[],
  alts: (string | null)[] | undefined,
): PostImageData[] | null {
  if (alts === undefined) return null;
  if (alts.length !== images.length) {
    throw badRequest(
      images.length === 0
        ? ERROR_REASONS.NO_IMAGES_TO_DESCRIBE
        : images.length === 1
          ? ERROR_REASONS.ONE_DESCRIPTION_EXPECTED
          : `This post has ${images.length} images: send ${images.length} descriptions`,
    );
  }
  const described = images.map((image, i) => ({ ...image, alt: alts[i] || null }));
  return described.some((image, i) => image.alt !== images[i]!.alt) ? described : null;
}

/**
 * The post's images with the sensitive flags `sensitive` gives them, one per image in order
 * (unchanged when it is left out). Like a description, a flag is not a new text.
 */
function flaggedImages(images: PostImageData[], sensitive: boolean[] | undefined): PostImageData[] {
  if (sensitive === undefined) return images;
  if (sensitive.length !== images.length) {
    throw badRequest(
      images.length === 0
        ? ERROR_REASONS.NO_IMAGES_TO_MARK
        : images.length === 1
          ? ERROR_REASONS.ONE_SENSITIVE_FLAG_EXPECTED
          : `This post has ${images.length} images: send ${images.length} sensitive flags`,
    );
  }
  return images.map((image, i) => ({ ...image, sensitive: sensitive[i] === true }));
}

function sameImage(a: PostImageData, b: PostImageData): boolean {
  return (a.alt || null) === (b.alt || null) && (a.sensitive === true) === (b.sensitive === true);
}

/**
 * Anyone who can see a post can see what it said before (as on Mastodon); a post hidden by a
 * block either way, a removal or its author's suspension is 404 here too, as on `posts.byId`.
 */
export async function listRevisions(ctx: Context, rawPostId: string): Promise<{ revisions: PostRevision[] }> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const rows = await findRevisions(ctx.em, postId, ctx.session?.user.id ?? null);
  if (rows.length === 0) throw notFound(POST_NOT_FOUND);
  return {
    revisions: rows.flatMap((row) =>
      row.id === null
        ? []
        : [
            {
              id: row.id,
              content: row.content ?? '',
              writtenAt: isoDate(row.written_at ?? 0),
              replacedAt: isoDate(row.replaced_at ?? 0),
            },
          ],
    ),
  };
}

/**
 * Deletions, edits and comment changes of posts, live, for open feeds and threads. Nothing to
 * catch up on after a reconnect (a deleted row is gone): clients refetch what they show then.
 *
 * Only posts the listener may see: never one that was out of everyone's sight already (removed,
 * or its author suspended: the event says so), nor one whose author is blocked either way with
 * the listener. Every socket of an instance hears every change, so the block is looked up in
 * memory (each member's blocks, kept until a block or unblock of theirs: safety.cache.ts), not
 * in the database per listener and event.
 */
export async function* livePostChanges(
  ctx: Context,
  signal: AbortSignal | undefined,
): AsyncGenerator<LivePostChange> {
  const viewerId = ctx.session?.user.id ?? null;
  const changes = ctx.bus.subscribe('postChanges', { signal });
  // Read now, while nothing waits on it, and kept for every later change (and the member's other sockets).
  if (viewerId) void blockedEitherWay(ctx, viewerId).catch(() => null);
  for await (const { postId, kind, authorId, hidden } of changes) {
    if (hidden) continue;
    if (viewerId && authorId !== viewerId) {
      // Not known (the database is away): not told; the feed's poll catches up.
      const blocks = await blockedEitherWay(ctx, viewerId).catch(() => null);
      if (!blocks || blocks.has(authorId)) continue;
    }
    yield { postId, kind };
  }
}
