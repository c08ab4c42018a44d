/**
 * Comments under a post. Writing one bumps the post's commentsCount in the same statement and
 * notifies the post's author (unless they comment on their own post).
 */
import { randomUUID } from 'node:crypto';
import { type AuthedContext, type Context, publishEvent, sentWithWrite } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { notFound, requireUuid } from '../../errors.js';
import { mentionInComment } from '../mentions/mention.service.js';
import { cachedCommentsHead, NO_MARKS } from '../posts/feed.cache.js';
import { POST_NOT_FOUND } from '../posts/post.service.js';
import {
  type CommentCursor,
  commentKeyset,
  deleteCommentOf,
  findBlockedAroundPost,
  findCommentRows,
  findDeletableComment,
  insertComment,
  isPostShownTo,
} from './comment.repository.js';
import type {
  CommentDto,
  CommentIdInput,
  CommentPage,
  CreateCommentInput,
  ListCommentsInput,
} from './comment.schema.js';
import { toCommentDto } from './comment.serializer.js';

export type { CommentDto, CommentPage } from './comment.schema.js';

/**
 * Oldest first, authors joined in the same query, keyset-paged on (createdAt, id): comments
 * written while a client pages land after its cursor, so none repeat or go missing.
 */
export async function listComments(ctx: Context, input: ListCommentsInput): Promise<CommentPage> {
  const postId = requireUuid(input.postId, POST_NOT_FOUND);
  const cursor = commentKeyset.decode(input.cursor);
  const viewerId = ctx.session?.user.id ?? null;
  if (cursor) return readComments(ctx, postId, viewerId, cursor, input.limit);
  // The first page from memory (feed.cache.ts): a visitor's view, with each viewer's copy leaving
  // out members blocked either way, and refused when the post's author is one of them.
  return cachedCommentsHead(ctx.cacheScope, postId, input.limit, viewerId, {
    load: () => readComments(ctx, postId, null, null, input.limit),
    viewerMarks: async (viewer, _postIds, authorIds) => ({
      ...NO_MARKS,
      hidden: await blockedAroundPost(ctx, postId, viewer, authorIds),
    }),
  });
}

async function readComments(
  ctx: Context,
  postId: string,
  viewerId: string | null,
  cursor: CommentCursor | null,
  limit: number,
): Promise<CommentPage> {
  // A post hidden by a block either way, removed, or by a suspended member is not found;
  // comments by members blocked either way or suspended are left out. Only an empty list asks
  // separately whether the post is there.
  const rows = await findCommentRows(ctx.em, { postId, viewerId, cursor, limit });
  if (rows.length === 0 && !(await isPostShownTo(ctx.em, postId, viewerId))) throw notFound(POST_NOT_FOUND);
  return commentKeyset.page(rows, limit, toCommentDto, (row) => ({
    createdAt: row.created_at,
    id: row.id,
  }));
}

/**
 * Which of `authorIds` the viewer blocked or is blocked by, in one query with the post's author:
 * 404 when the post's author is one of them (the post is not there for the viewer).
 */
async function blockedAroundPost(
  ctx: Context,
  postId: string,
  viewerId: string,
  authorIds: string[],
): Promise<Set<string>> {
  const rows = await findBlockedAroundPost(ctx.em, postId, viewerId, authorIds);
  if (rows.some((row) => row.post_author)) throw notFound(POST_NOT_FOUND);
  return new Set(rows.map((row) => row.id));
}

/** A comment in one statement with its post's count and the author's notification (comment.repository.ts). */
export async function createComment(ctx: AuthedContext, input: CreateCommentInput): Promise<CommentDto> {
  const postId = requireUuid(input.postId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const row = await insertComment(ctx.em, {
    id: randomUUID(),
    postId,
    authorId: userId,
    content: input.content,
    createdAt: ctx.now(),
    notificationId: randomUUID(),
  });
  // Unknown, removed, or hidden by a block either way: the same 404.
  if (!row) throw notFound(POST_NOT_FOUND);
  publishEvent(ctx, 'comments', { postId, userId });
  if (row.post_author_id !== userId) publishEvent(ctx, 'notifications', { recipientId: row.post_author_id });
  const mentions = await mentionInComment(ctx, { id: row.id, postId, content: row.content });
  return toCommentDto({ ...row, mentions });
}

export const COMMENT_NOT_FOUND = ERROR_REASONS.COMMENT_NOT_FOUND;

/** A comment of the post went: what posts.onChange and the caches hear of it. */
function changeOf(found: { post_id: string; post_author_id: string; post_hidden: boolean }) {
  return {
    postId: found.post_id,
    kind: 'comments',
    authorId: found.post_author_id,
    hidden: found.post_hidden,
  } as const;
}

/**
 * Its author may delete a comment, and so may the author of the post it is under; to anyone else
 * it is 404. The post's count goes down in the same transaction and the comment's notification
 * goes with it (its foreign key).
 */
export async function deleteComment(ctx: AuthedContext, input: CommentIdInput): Promise<{ ok: true }> {
  const commentId = requireUuid(input.commentId, COMMENT_NOT_FOUND);
  const userId = ctx.session.user.id;
  const result = await ctx.em.transactional(async (em) => {
    const found = await findDeletableComment(em, commentId, userId);
    if (!found) throw notFound(COMMENT_NOT_FOUND);
    // a concurrent delete won
    if (!(await deleteCommentOf(em, commentId, found.post_id))) throw notFound(COMMENT_NOT_FOUND);
    await ctx.bus.publish('postChanges', changeOf(found), em);
    return found;
  });
  sentWithWrite(ctx, 'postChanges', changeOf(result));
  if (result.author_id !== result.post_author_id) {
    publishEvent(ctx, 'notifications', { recipientId: result.post_author_id });
  }
  return { ok: true };
}
