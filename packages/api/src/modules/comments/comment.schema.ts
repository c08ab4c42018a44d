/** Comment form: shared by the procedure, the REST body and the web form. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { pageInputWith, pageOf } from '../../paging.js';
import { COMMENT_MAX_LENGTH } from '../../rules.js';
import { text } from '../../text.js';
import { mentionSchema } from '../mentions/mention.schema.js';
import { entityIdSchema } from '../posts/post.schema.js';
import { authorFieldsShape } from '../users/author.schema.js';

export { COMMENT_MAX_LENGTH } from '../../rules.js';

export const commentContentSchema = text('Comment', { error: ERROR_REASONS.COMMENT_EMPTY })
  .trim()
  .min(1, ERROR_REASONS.COMMENT_EMPTY)
  .max(COMMENT_MAX_LENGTH, ERROR_REASONS.COMMENT_TOO_LONG);

export const createCommentInput = z.object({
  postId: entityIdSchema,
  content: commentContentSchema,
});
export type CreateCommentInput = z.infer<typeof createCommentInput>;

export const commentIdInput = z.object({ commentId: entityIdSchema });
export type CommentIdInput = z.infer<typeof commentIdInput>;

export const COMMENT_PAGE_SIZE = 50;

/** Oldest first, in pages. */
export const listCommentsInput = pageInputWith(COMMENT_PAGE_SIZE).extend({ postId: entityIdSchema });
export type ListCommentsInput = z.infer<typeof listCommentsInput>;

/** A comment as responses carry it (JSON; see post.schema.ts on response schemas). */
export const commentSchema = z.strictObject({
  id: z.uuid(),
  ...authorFieldsShape,
  content: z.string(),
  createdAt: z.iso.datetime(),
  /** the members its `@username`s name, as links to their profiles */
  mentions: z.array(mentionSchema),
});
export type CommentDto = z.infer<typeof commentSchema>;

/** A page of a thread, oldest first; nextCursor is null on the last page. */
export const commentPage = pageOf(commentSchema);
export type CommentPage = z.infer<typeof commentPage>;
