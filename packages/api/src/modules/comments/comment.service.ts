/**
 * Comments under a post. Writing one bumps the post's commentsCount in the same transaction and
 * notifies the post's author (unless they comment on their own post).
 */

import { randomUUID } from 'node:crypto';
import { type AuthedContext, type Context, publishEvent, sentWithWrite } from '../../context.js';
import { notFound, requireUuid } from '../../errors.js';
import { keyset, type Page } from '../../paging.js';
import { executePrepared, pgArray } from '../../prepared.js';
import { isoTime } from '../../sql.js';
import { shownMemberById, shownMemberSql } from '../moderation/suspension.js';
import { cachedCommentsHead, NO_MARKS } from '../posts/feed-cache.js';
import { POST_NOT_FOUND } from '../posts/post.service.js';
import { notBlockedBetween, notBlockedParams, notMutedBy } from '../safety/safety.sql.js';
import { type AuthorRow, authorFields } from '../users/author.serializer.js';
import type { CommentIdInput, CreateCommentInput, ListCommentsInput } from './comment.schema.js';

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
  const viewerId = ctx.session?.user.id ?? null;
  if (cursor) return readComments(ctx, postId, viewerId, cursor, input.limit);
  // The first page from memory (feed-cache.ts): a visitor's view, with each viewer's copy leaving
  // out members blocked either way, and refused when the post's author is one of them.
  return cachedCommentsHead(ctx.cacheScope, postId, input.limit, viewerId, {
    load: () => readComments(ctx, postId, null, null, input.limit),
    viewerMarks: async (viewer, _postIds, authorIds) => ({
      liked: NO_MARKS.liked,
      hidden: await blockedAroundPost(ctx, postId, viewer, authorIds),
    }),
  });
}

async function readComments(
  ctx: Context,
  postId: string,
  viewerId: string | null,
  cursor: ReturnType<typeof commentKeyset.decode>,
  limit: number,
): Promise<CommentPage> {
  // A post hidden by a block either way, removed, or by a suspended member is not found;
  // comments by members blocked either way or suspended are left out. The post's check is part
  // of the list (one round trip); only an empty list asks separately whether the post is there.
  const postShown = `p.removed_at is null and ${shownMemberSql('pa')}
    and ${notBlockedBetween('?::uuid', 'p.author_id')}`;
  const visiblePost = `exists (select 1 from posts p join users pa on pa.id = p.author_id
    where p.id = c.post_id and ${postShown})`;
  const after = cursor ? commentKeyset.after(cursor, COMMENT_KEY_COLUMNS) : null;
  const rows = await executePrepared<CommentRow[]>(
    ctx.em,
    `select ${COMMENT_COLUMNS}
       from comments c
       join users u on u.id = c.author_id
      where c.post_id = ? and c.removed_at is null and ${shownMemberSql('u')}
        and ${notBlockedBetween('?::uuid', 'c.author_id')}
        and ${visiblePost}
        ${after ? `and ${after.sql}` : ''}
      order by ${commentKeyset.orderBy(COMMENT_KEY_COLUMNS)}
      limit ?`,
    // One extra row tells whether a next page exists.
    [
      postId,
      ...notBlockedParams(viewerId),
      ...notBlockedParams(viewerId),
      ...(after?.params ?? []),
      limit + 1,
    ],
  );
  if (rows.length === 0) {
    const exists = await executePrepared<unknown[]>(
      ctx.em,
      `select 1 from posts p join users pa on pa.id = p.author_id where p.id = ? and ${postShown}`,
      [postId, ...notBlockedParams(viewerId)],
    );
    if (exists.length === 0) throw notFound(POST_NOT_FOUND);
  }
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
  const rows = await executePrepared<{ id: string; post_author: boolean }[]>(
    ctx.em,
    `select u.id, u.id = p.author_id as post_author
       from posts p
       join users u on u.id = any(?::uuid[]) or u.id = p.author_id
      where p.id = ? and not (${notBlockedBetween('?::uuid', 'u.id')})`,
    [pgArray(authorIds), postId, ...notBlockedParams(viewerId)],
  );
  if (rows.some((row) => row.post_author)) throw notFound(POST_NOT_FOUND);
  return new Set(rows.map((row) => row.id));
}

/**
 * A comment in one statement, as a like (post.service.ts): the post must be there for the
 * commenter (not removed, no block either way), its count goes up under its row lock (taken
 * first, as deleteComment takes it), the comment is written, and the post's author is notified
 * as notify() would (none to oneself, none to an author who muted the commenter; the block was
 * ruled out with the post). The statement is its own transaction; the notification's reference
 * to the new comment is checked at its end.
 */
const CREATE_COMMENT_SQL = `
  with target as (
    select p.id from posts p
     where p.id = ?::uuid and p.removed_at is null and ${notBlockedBetween('?::uuid', 'p.author_id')}
       and ${shownMemberById('p.author_id')}
  ), upd as (
    update posts set comments_count = comments_count + 1
     where id in (select id from target) and removed_at is null
    returning id, author_id
  ), c as (
    insert into comments (id, post_id, author_id, content, created_at)
    select ?::uuid, upd.id, ?::uuid, ?, ?::timestamptz from upd
    returning *
  ), note as (
    insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at)
    select ?::uuid, upd.author_id, c.author_id, 'comment', upd.id, c.id, c.created_at from upd, c
     where upd.author_id <> c.author_id and ${notMutedBy('upd.author_id', 'c.author_id')}
    on conflict do nothing
  )
  select ${COMMENT_COLUMNS}, upd.author_id as post_author_id
    from c join users u on u.id = c.author_id cross join upd`;

export async function createComment(ctx: AuthedContext, input: CreateCommentInput): Promise<CommentDto> {
  const postId = requireUuid(input.postId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const [row] = await executePrepared<(CommentRow & { post_author_id: string })[]>(
    ctx.em,
    CREATE_COMMENT_SQL,
    [postId, ...notBlockedParams(userId), randomUUID(), userId, input.content, ctx.now(), randomUUID()],
  );
  // Unknown, removed, or hidden by a block either way: the same 404.
  if (!row) throw notFound(POST_NOT_FOUND);
  publishEvent(ctx, 'comments', { postId, userId });
  if (row.post_author_id !== userId) publishEvent(ctx, 'notifications', { recipientId: row.post_author_id });
  return toCommentDto(row);
}

export const COMMENT_NOT_FOUND = 'Comment not found';

/**
 * Its author may delete a comment, and so may the author of the post it is under; to anyone else
 * it is 404. The post's count goes down in the same transaction and the comment's notification
 * goes with it (its foreign key).
 */
export async function deleteComment(ctx: AuthedContext, input: CommentIdInput): Promise<{ ok: true }> {
  const commentId = requireUuid(input.commentId, COMMENT_NOT_FOUND);
  const userId = ctx.session.user.id;
  const result = await ctx.em.transactional(async (em) => {
    const [found] = await em.execute<{ post_id: string; post_author_id: string; author_id: string }[]>(
      `select c.post_id, c.author_id, p.author_id as post_author_id
         from comments c join posts p on p.id = c.post_id
        where c.id = ? and (c.author_id = ? or p.author_id = ?)`,
      [commentId, userId, userId],
    );
    if (!found) throw notFound(COMMENT_NOT_FOUND);
    // The post's row first, as createComment locks it, so the two never wait on each other in turn.
    await em.execute('select 1 from posts where id = ? for update', [found.post_id]);
    const deleted = await em.execute<{ id: string }[]>('delete from comments where id = ? returning id', [
      commentId,
    ]);
    if (deleted.length === 0) throw notFound(COMMENT_NOT_FOUND); // a concurrent delete won
    await em.execute('update posts set comments_count = comments_count - 1 where id = ?', [found.post_id]);
    await ctx.bus.publish('postChanges', { postId: found.post_id, kind: 'comments' }, em);
    return found;
  });
  sentWithWrite(ctx, 'postChanges', { postId: result.post_id, kind: 'comments' });
  if (result.author_id !== result.post_author_id) {
    publishEvent(ctx, 'notifications', { recipientId: result.post_author_id });
  }
  return { ok: true };
}
