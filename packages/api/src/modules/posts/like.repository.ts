/**
 * Likes: a like or an unlike is one statement with its counter and the author's notification.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { sql, uuid } from '../../sql.js';
import { shownMemberOf } from '../moderation/suspension.sql.js';
import { column, notBlocked, notMuted } from '../safety/safety.sql.js';

/** What a like or unlike statement found and did. */
export interface ToggleRow {
  /**
   * the post exists, is not removed and (for a like) no block stands between liker and author,
   * nor is the author suspended
   */
  visible: boolean;
  /** likes_count after this statement's change; null when it changed nothing */
  changed_count: number | null;
  /** likes_count as the statement found it (when it changed nothing) */
  current_count: number | null;
  /** the author, when the statement changed something */
  author_id: string | null;
}

/**
 * Like and unlike are each one statement, one round trip: the insert or delete of the like
 * decides (on conflict do nothing / returning), only a like that really changed moves the counter
 * (atomically, `likes_count ± 1` under the row lock, so concurrent toggles never lose a count),
 * and the author's notification is written or taken back in the same statement. Data-modifying
 * CTEs all run, referenced or not, and the statement is its own transaction.
 */
export async function insertLike(
  em: EntityManager,
  like: { postId: string; userId: string; now: Date; notificationId: string; groupKey: string | null },
): Promise<ToggleRow | undefined> {
  const { postId, userId, now } = like;
  const author = column('p.author_id');
  const [row] = await preparedRows<ToggleRow>(
    em,
    sql`
  with target as (
    select p.id, p.author_id, p.likes_count from posts p
     where p.id = ${uuid(postId)} and p.removed_at is null and ${notBlocked(userId, author)}
       and ${shownMemberOf(author)}
  ), ins as (
    insert into likes (user_id, post_id, created_at)
    select ${uuid(userId)}, target.id, ${now}::timestamptz from target
    on conflict do nothing
    returning post_id
  ), upd as (
    update posts set likes_count = likes_count + 1
     where id in (select post_id from ins)
    returning likes_count, author_id
  ), note as (
    -- As notify(): none to oneself, none to an author who muted the liker; duplicates dropped.
    insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at, group_key)
    select ${uuid(like.notificationId)}, upd.author_id, ${uuid(userId)}, 'like', ${uuid(postId)}, null, ${now}::timestamptz, ${like.groupKey}::varchar from upd
     where upd.author_id <> ${uuid(userId)} and ${notMuted(column('upd.author_id'), userId)}
    on conflict do nothing
  )
  select exists (select 1 from target) as visible,
         (select likes_count from upd) as changed_count,
         (select likes_count from target) as current_count,
         (select author_id from upd) as author_id`,
  );
  return row;
}

/** `insertLike`'s counterpart: the like, its count and its notification go in one statement. */
export async function deleteLike(
  em: EntityManager,
  like: { postId: string; userId: string },
): Promise<ToggleRow | undefined> {
  const { postId, userId } = like;
  const [row] = await preparedRows<ToggleRow>(
    em,
    sql`
  with target as (
    select p.likes_count from posts p where p.id = ${uuid(postId)} and p.removed_at is null
  ), del as (
    delete from likes where user_id = ${uuid(userId)} and post_id = ${uuid(postId)} returning post_id
  ), upd as (
    update posts set likes_count = likes_count - 1
     where id in (select post_id from del)
    returning likes_count, author_id
  ), retract as (
    delete from notifications
     where type = 'like' and actor_id = ${uuid(userId)} and post_id in (select post_id from del)
  )
  select exists (select 1 from target) as visible,
         (select likes_count from upd) as changed_count,
         (select likes_count from target) as current_count,
         (select author_id from upd) as author_id`,
  );
  return row;
}
