/**
 * Reposts: a repost or its taking back is one statement with its counter and the author's
 * notification, as a like is (posts/like.repository.ts): only a row that really changed moves
 * `reposts_count`, atomically under the post's row lock, so concurrent toggles never lose a count.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { sql, uuid } from '../../sql.js';
import { shownMemberOf } from '../moderation/suspension.sql.js';
import { column, notBlocked, notMuted } from '../safety/safety.sql.js';

/** What a repost or its taking back found and did. */
export interface RepostToggleRow {
  /** the post exists, is not removed, its author is not suspended and no block stands between them */
  visible: boolean;
  /** reposts_count after this statement's change; null when it changed nothing */
  changed_count: number | null;
  /** reposts_count as the statement found it */
  current_count: number | null;
  /** the post's author, when the statement changed something */
  author_id: string | null;
}

/** Reposts `postId` for `userId` if they may see it; its author is told (unless they muted them). */
export async function insertRepost(
  em: EntityManager,
  repost: { postId: string; userId: string; now: Date; notificationId: string; groupKey: string | null },
): Promise<RepostToggleRow | undefined> {
  const { postId, userId, now } = repost;
  const author = column('p.author_id');
  const [row] = await preparedRows<RepostToggleRow>(
    em,
    sql`
  with target as (
    select p.id, p.author_id, p.reposts_count from posts p
     where p.id = ${uuid(postId)} and p.removed_at is null and ${notBlocked(userId, author)}
       and ${shownMemberOf(author)}
  ), ins as (
    insert into reposts (user_id, post_id, created_at)
    select ${uuid(userId)}, target.id, ${now}::timestamptz from target
    on conflict do nothing
    returning post_id
  ), upd as (
    update posts set reposts_count = reposts_count + 1
     where id in (select post_id from ins)
    returning reposts_count, author_id
  ), note as (
    insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at, group_key)
    select ${uuid(repost.notificationId)}, upd.author_id, ${uuid(userId)}, 'repost', ${uuid(postId)}, null, ${now}::timestamptz, ${repost.groupKey}::varchar from upd
     where upd.author_id <> ${uuid(userId)} and ${notMuted(column('upd.author_id'), userId)}
    on conflict do nothing
  )
  select exists (select 1 from target) as visible,
         (select reposts_count from upd) as changed_count,
         (select reposts_count from target) as current_count,
         (select author_id from upd) as author_id`,
  );
  return row;
}

/** `insertRepost`'s counterpart: the repost, its count and its notification go in one statement. */
export async function deleteRepost(
  em: EntityManager,
  repost: { postId: string; userId: string },
): Promise<RepostToggleRow | undefined> {
  const { postId, userId } = repost;
  const [row] = await preparedRows<RepostToggleRow>(
    em,
    sql`
  with target as (
    select p.reposts_count from posts p where p.id = ${uuid(postId)} and p.removed_at is null
  ), del as (
    delete from reposts where user_id = ${uuid(userId)} and post_id = ${uuid(postId)} returning post_id
  ), upd as (
    update posts set reposts_count = reposts_count - 1
     where id in (select post_id from del)
    returning reposts_count, author_id
  ), retract as (
    delete from notifications
     where type = 'repost' and actor_id = ${uuid(userId)} and post_id in (select post_id from del)
  )
  select exists (select 1 from target) as visible,
         (select reposts_count from upd) as changed_count,
         (select reposts_count from target) as current_count,
         (select author_id from upd) as author_id`,
  );
  return row;
}
