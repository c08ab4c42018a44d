/**
 * Every SQL statement of notifications: writing one (never to a recipient who muted or blocked
 * the actor), taking a like's or follow's back, the bell's list, count and state, and marking
 * all read. What shows is one condition (`shown`), so the list, the count and the live state agree.
 */
import type { INotification, IUser, Row } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { firstRow, iso, rows, type Sql, sql } from '../../sql.js';
import { shownMemberOf } from '../moderation/suspension.sql.js';
import { column, notBlocked, notMuted } from '../safety/safety.sql.js';

/**
 * A notification (alias `n`) shows only while its recipient has not muted its actor, no block
 * stands between them and its actor is not suspended. Muting hides the ones already there too;
 * unmuting, or the suspension's end, brings them back.
 */
function shown(): Sql {
  const recipient = column('n.recipient_id');
  const actor = column('n.actor_id');
  return sql`${notMuted(recipient, actor)} and ${notBlocked(recipient, actor)}
  and ${shownMemberOf(actor)}`;
}

export interface NotificationInsert {
  id: string;
  recipientId: string;
  actorId: string;
  type: INotification['type'];
  postId: string | null;
  commentId: string | null;
  at: Date;
}

/**
 * Writes a notification unless the recipient muted the actor or a block stands between them; a
 * duplicate like/follow notification (a race of two requests) is dropped by the unique indexes.
 */
export async function insertNotification(em: EntityManager, n: NotificationInsert): Promise<void> {
  await rows(
    em,
    sql`insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at)
     select ${n.id}, ${n.recipientId}::uuid, ${n.actorId}::uuid, ${n.type}, ${n.postId}::uuid, ${n.commentId}::uuid, ${n.at}::timestamptz
      where ${notMuted(n.recipientId, n.actorId)} and ${notBlocked(n.recipientId, n.actorId)}
     on conflict do nothing`,
  );
}

export async function deleteLikeNotification(
  em: EntityManager,
  actorId: string,
  postId: string,
): Promise<void> {
  await rows(
    em,
    sql`delete from notifications where type = 'like' and actor_id = ${actorId} and post_id = ${postId}`,
  );
}

export async function deleteFollowNotification(
  em: EntityManager,
  actorId: string,
  recipientId: string,
): Promise<void> {
  await rows(
    em,
    sql`delete from notifications where type = 'follow' and actor_id = ${actorId} and recipient_id = ${recipientId}`,
  );
}

/** A shown notification with its actor's name and avatar. */
export type NotificationRow = Pick<Row<INotification>, 'id' | 'type' | 'post_id' | 'note'> &
  Pick<Row<IUser>, 'username' | 'avatar_url'> & { created_at: string; is_read: boolean };

/** `recipientId`'s newest shown notifications, with the actor joined in the same query. */
export function findNotifications(
  em: EntityManager,
  recipientId: string,
  limit: number,
): Promise<NotificationRow[]> {
  return preparedRows<NotificationRow>(
    em,
    sql`select n.id, n.type, u.username, u.avatar_url, ${iso('n.created_at')} as created_at,
            n.read_at is not null as is_read, n.post_id, n.note
       from notifications n
       join users u on u.id = n.actor_id
      where n.recipient_id = ${recipientId} and ${shown()}
      order by n.created_at desc, n.id desc
      limit ${limit}`,
  );
}

/** How many shown notifications of `recipientId` are unread; served by the partial index on unread rows. */
export async function countUnreadNotifications(em: EntityManager, recipientId: string): Promise<number> {
  const [row] = await preparedRows<{ count: number }>(
    em,
    sql`select count(*)::int as count from notifications n where n.recipient_id = ${recipientId} and n.read_at is null and ${shown()}`,
  );
  return row?.count ?? 0;
}

/** Marks every notification of `recipientId` read at `at`; how many were unread. */
export async function markAllNotificationsRead(
  em: EntityManager,
  recipientId: string,
  at: Date,
): Promise<number> {
  const query = sql`update notifications set read_at = ${at} where recipient_id = ${recipientId} and read_at is null`;
  const result = await em.execute<{ affectedRows: number }>(query.sql, query.values, 'run');
  return result.affectedRows;
}

/** The unread count and the newest shown notification's id, in one round trip. */
export async function findNotificationState(
  em: EntityManager,
  recipientId: string,
): Promise<{ unread: number; newest: string | null }> {
  const row = await firstRow<{ unread: number; newest: string | null }>(
    em,
    sql`select (select count(*)::int from notifications n
              where n.recipient_id = ${recipientId} and n.read_at is null and ${shown()}) as unread,
            (select n.id from notifications n where n.recipient_id = ${recipientId} and ${shown()}
              order by n.created_at desc, n.id desc limit 1) as newest`,
  );
  return { unread: row?.unread ?? 0, newest: row?.newest ?? null };
}
