/**
 * Every statement on comments: a thread's pages (oldest first, keyset on (created_at, id), authors
 * joined), the blocks around a kept first page, writing a comment with its post's count and
 * notification in one statement, and deleting one. A post or comment hidden by a block either
 * way, a removal or a suspension is left out here, in the statement.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetKey, keyset } from '../../paging.js';
import { preparedRows } from '../../prepared.js';
import { empty, firstRow, iso, rows, type Sql, sql, uuid, uuids } from '../../sql.js';
import { commentMentionsColumn } from '../mentions/mention.sql.js';
import { shownMember, shownMemberOf } from '../moderation/suspension.sql.js';
import { column, notBlocked, notMuted } from '../safety/safety.sql.js';
import type { CommentRow } from './comment.serializer.js';

/** Threads read oldest first, ties broken by id. */
export const commentKeyset = keyset({
  name: 'comments',
  order: 'asc',
  key: { createdAt: 'timestamp', id: 'uuid' },
});
export type CommentCursor = KeysetKey<typeof commentKeyset>;
const COMMENT_KEY_COLUMNS = { createdAt: 'c.created_at', id: 'c.id' };

const COMMENT_COLUMNS = sql`c.id, c.author_id, u.username, u.display_name, u.avatar_url, c.content,
  ${iso('c.created_at')} as created_at`;
/** COMMENT_COLUMNS and the members each comment mentions (not in insertComment: none yet). */
const COMMENT_READ_COLUMNS = sql`${COMMENT_COLUMNS}, ${commentMentionsColumn('c.id')}`;

/** The post `p` (its author joined as `pa`) is there for `viewerId`: not removed, author shown, no block either way. */
function postShownTo(viewerId: string | null): Sql {
  return sql`p.removed_at is null and ${shownMember('pa')}
    and ${notBlocked(viewerId, column('p.author_id'))}`;
}

/**
 * Up to `limit + 1` comments on `postId` after `cursor`, as `viewerId` sees them: comments by
 * members blocked either way or suspended are left out, and none at all when the post is hidden
 * from the viewer (its check is part of the list: one round trip).
 */
export function findCommentRows(
  em: EntityManager,
  query: { postId: string; viewerId: string | null; cursor: CommentCursor | null; limit: number },
): Promise<CommentRow[]> {
  const { viewerId } = query;
  const after = query.cursor
    ? sql`and ${commentKeyset.continuing(query.cursor, COMMENT_KEY_COLUMNS)}`
    : empty;
  return preparedRows<CommentRow>(
    em,
    sql`select ${COMMENT_READ_COLUMNS}
       from comments c
       join users u on u.id = c.author_id
      where c.post_id = ${query.postId} and c.removed_at is null and ${shownMember('u')}
        and ${notBlocked(viewerId, column('c.author_id'))}
        and exists (select 1 from posts p join users pa on pa.id = p.author_id
    where p.id = c.post_id and ${postShownTo(viewerId)})
        ${after}
      order by ${commentKeyset.ordering(COMMENT_KEY_COLUMNS)}
      limit ${query.limit + 1}`,
  );
}

/** Whether the post `postId` is there for `viewerId` (not removed, author not suspended, no block either way). */
export async function isPostShownTo(
  em: EntityManager,
  postId: string,
  viewerId: string | null,
): Promise<boolean> {
  const found = await preparedRows<unknown>(
    em,
    sql`select 1 from posts p join users pa on pa.id = p.author_id where p.id = ${postId} and ${postShownTo(viewerId)}`,
  );
  return found.length > 0;
}

/**
 * Which of `authorIds`, and the author of `postId`, `viewerId` blocked or is blocked by, in one
 * query; `post_author` marks the post's author.
 */
export function findBlockedAroundPost(
  em: EntityManager,
  postId: string,
  viewerId: string,
  authorIds: string[],
): Promise<{ id: string; post_author: boolean }[]> {
  return preparedRows(
    em,
    sql`select u.id, u.id = p.author_id as post_author
       from posts p
       join users u on u.id = any(${uuids(authorIds)}) or u.id = p.author_id
      where p.id = ${postId} and not (${notBlocked(viewerId, column('u.id'))})`,
  );
}

/**
 * A comment in one statement, as a like (post.repository.ts): the post must be there for the
 * commenter (not removed, no block either way, author not suspended), its count goes up under its
 * row lock (taken first, as the delete takes it), the comment is written, and the post's author is
 * notified as notify() would (none to oneself, none to an author who muted the commenter; the
 * block was ruled out with the post). The statement is its own transaction; the notification's
 * reference to the new comment is checked at its end. No row: the post is not there for them.
 */
export async function insertComment(
  em: EntityManager,
  comment: {
    id: string;
    postId: string;
    authorId: string;
    content: string;
    createdAt: Date;
    notificationId: string;
  },
): Promise<(CommentRow & { post_author_id: string }) | undefined> {
  const author = column('p.author_id');
  const [row] = await preparedRows<CommentRow & { post_author_id: string }>(
    em,
    sql`
  with target as (
    select p.id from posts p
     where p.id = ${uuid(comment.postId)} and p.removed_at is null and ${notBlocked(comment.authorId, author)}
       and ${shownMemberOf(author)}
  ), upd as (
    update posts set comments_count = comments_count + 1
     where id in (select id from target) and removed_at is null
    returning id, author_id
  ), c as (
    insert into comments (id, post_id, author_id, content, created_at)
    select ${uuid(comment.id)}, upd.id, ${uuid(comment.authorId)}, ${comment.content}, ${comment.createdAt}::timestamptz from upd
    returning *
  ), note as (
    insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at)
    select ${uuid(comment.notificationId)}, upd.author_id, c.author_id, 'comment', upd.id, c.id, c.created_at from upd, c
     where upd.author_id <> c.author_id and ${notMuted(column('upd.author_id'), column('c.author_id'))}
    on conflict do nothing
  )
  select ${COMMENT_COLUMNS}, upd.author_id as post_author_id
    from c join users u on u.id = c.author_id cross join upd`,
  );
  return row;
}

/**
 * The comment `commentId` if `userId` wrote it or the post it is under; `post_hidden`: the post
 * is out of everyone's sight (removed, or its author suspended).
 */
export function findDeletableComment(
  em: EntityManager,
  commentId: string,
  userId: string,
): Promise<{ post_id: string; post_author_id: string; author_id: string; post_hidden: boolean } | undefined> {
  return firstRow(
    em,
    sql`select c.post_id, c.author_id, p.author_id as post_author_id,
            (p.removed_at is not null or not ${shownMemberOf(column('p.author_id'))}) as post_hidden
         from comments c join posts p on p.id = c.post_id
        where c.id = ${commentId} and (c.author_id = ${userId} or p.author_id = ${userId})`,
  );
}

/**
 * Deletes the comment and takes it off its post's count, in the caller's transaction: the post's
 * row is locked first, as insertComment locks it, so the two never wait on each other in turn.
 * False when a concurrent delete won.
 */
export async function deleteCommentOf(
  em: EntityManager,
  commentId: string,
  postId: string,
): Promise<boolean> {
  await rows(em, sql`select 1 from posts where id = ${postId} for update`);
  const deleted = await rows<{ id: string }>(
    em,
    sql`delete from comments where id = ${commentId} returning id`,
  );
  if (deleted.length === 0) return false;
  await rows(em, sql`update posts set comments_count = comments_count - 1 where id = ${postId}`);
  return true;
}
