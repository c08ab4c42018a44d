/**
 * Comments under a post. Writing one bumps the post's commentsCount in the same transaction and
 * notifies the post's author (unless they comment on their own post).
 */

import { randomUUID } from 'node:crypto';
import { type AuthedContext, type Context, publishEvent } from '../../context.js';
import { notFound, requireUuid } from '../../errors.js';
import { keyset, type Page } from '../../paging.js';
import { isoTime } from '../../sql.js';
import { notify } from '../notifications/notification.service.js';
import { feedChanged } from '../posts/feed-cache.js';
import { POST_NOT_FOUND } from '../posts/post.service.js';
import { type AuthorRow, authorFields } from '../users/author.serializer.js';
import type { CreateCommentInput, ListCommentsInput } from './comment.schema.js';

export interface CommentDto {
  id: string;
  userId: string;
  username: string;
  userDisplayName: string;
  userAvatarUrl: string | null;
  content: string;
  createdAt: Date;
}

/** A page of a thread, oldest first; nextCursor is null on the last page. */
export type CommentPage = Page<CommentDto>;

interface CommentRow extends AuthorRow {
  id: string;
  content: string;
  created_at: string;
}

function toCommentDto(row: CommentRow): CommentDto {
  return {
    id: row.id,
    ...authorFields(row),
    content: row.content,
    createdAt: new Date(row.created_at),
  };
}

/** Threads read oldest first, ties broken by id. */
const commentKeyset = keyset({ name: 'comments', order: 'asc', key: { createdAt: 'timestamp', id: 'uuid' } });
const COMMENT_KEY_COLUMNS = { createdAt: 'c.created_at', id: 'c.id' };

const COMMENT_COLUMNS = `c.id, c.author_id, u.username, u.display_name, u.avatar_url, c.content,
  ${isoTime('c.created_at')} as created_at`;

/**
 * Oldest first, authors joined in the same query, keyset-paged on (createdAt, id): comments
 * written while a client pages land after its cursor, so none repeat or go missing.
 */
export async function listComments(ctx: Context, input: ListCommentsInput): Promise<CommentPage> {
  const postId = requireUuid(input.postId, POST_NOT_FOUND);
  const cursor = commentKeyset.decode(input.cursor);
  const exists = await ctx.em.execute<unknown[]>('select 1 from posts where id = ? and removed_at is null', [
    postId,
  ]);
  if (exists.length === 0) throw notFound(POST_NOT_FOUND);
  const after = cursor ? commentKeyset.after(cursor, COMMENT_KEY_COLUMNS) : null;
  const rows = await ctx.em.execute<CommentRow[]>(
    `select ${COMMENT_COLUMNS}
       from comments c
       join users u on u.id = c.author_id
      where c.post_id = ? and c.removed_at is null
        ${after ? `and ${after.sql}` : ''}
      order by ${commentKeyset.orderBy(COMMENT_KEY_COLUMNS)}
      limit ?`,
    // One extra row tells whether a next page exists.
    [postId, ...(after?.params ?? []), input.limit + 1],
  );
  return commentKeyset.page(rows, input.limit, toCommentDto, (row) => ({
    createdAt: row.created_at,
    id: row.id,
  }));
}

export async function createComment(ctx: AuthedContext, input: CreateCommentInput): Promise<CommentDto> {
  const postId = requireUuid(input.postId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const now = ctx.now();
  const comment = await ctx.em.transactional(async (em) => {
    // The counter first: it finds the post (or not) and locks its row for this transaction.
    const [post] = await em.execute<{ author_id: string }[]>(
      'update posts set comments_count = comments_count + 1 where id = ? and removed_at is null returning author_id',
      [postId],
    );
    if (!post) throw notFound(POST_NOT_FOUND);
    const [row] = await em.execute<CommentRow[]>(
      `with c as (
         insert into comments (id, post_id, author_id, content, created_at)
         values (?, ?, ?, ?, ?)
         returning *
       )
       select ${COMMENT_COLUMNS} from c join users u on u.id = c.author_id`,
      [randomUUID(), postId, userId, input.content, now],
    );
    if (!row) throw notFound(POST_NOT_FOUND);
    await notify(em, { recipientId: post.author_id, actorId: userId, type: 'comment', postId, at: now });
    return { dto: toCommentDto(row), authorId: post.author_id };
  });
  feedChanged(ctx); // the post's comment count changed
  if (comment.authorId !== userId) publishEvent(ctx, 'notifications', { recipientId: comment.authorId });
  return comment.dto;
}
