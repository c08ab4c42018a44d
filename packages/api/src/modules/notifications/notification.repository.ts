/**
 * Every SQL statement of notifications: writing one (never to a recipient who muted or blocked
 * the actor), taking a like's or follow's back, the lists (with what was said), the bell's count
 * and state, and marking one or all read. What shows is one condition (`shown`), so the list, the count and the live state agree.
 */
import type { INotification, IUser, Row } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { firstRow, iso, raw, rows, type Sql, sql } from '../../sql.js';
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

/** A shown notification with its actor's name and avatar, and what was said (see `snippet`). */
export type NotificationRow = Pick<Row<INotification>, 'id' | 'type' | 'post_id' | 'note'> &
  Pick<Row<IUser>, 'username' | 'avatar_url'> & {
    created_at: string;
    is_read: boolean;
    snippet: string | null;
  };

/** The longest snippet read from the database; the service cuts it shorter, at a word. */
export const SNIPPET_READ_MAX = 300;

/**
 * What a notification is about, as the recipient may still see it (`n`, `p` its post, `c` its
 * comment): the comment for a comment or a mention in one, the post for a like or a mention in a
 * post; none for a follow or a removal, nor once the post or comment was removed, its post's
 * author is suspended or a block stands between them and the recipient (a deleted post or comment
 * takes its notifications with it).
 */
function snippet(): Sql {
  const postShown = sql`p.removed_at is null and ${notBlocked(column('n.recipient_id'), column('p.author_id'))}
    and ${shownMemberOf(column('p.author_id'))}`;
  return sql`case
    when n.type in ('comment', 'mention') and n.comment_id is not null then
      case when c.removed_at is null and ${postShown} then left(c.content, ${SNIPPET_READ_MAX}) end
    when n.type in ('like', 'repost', 'quote', 'mention', 'poll_ended') and n.comment_id is null and p.id is not null then
      case when ${postShown} then left(p.content, ${SNIPPET_READ_MAX}) end
  end`;
}

/** Which notifications a list shows: every kind, or mentions only. */
export type NotificationFilter = 'all' | 'mentions';

/**
 * `recipientId`'s newest shown notifications after `after` (a keyset condition on
 * NOTIFICATION_KEY_COLUMNS, or none), with the actor, the post and the comment joined in the same
 * query.
 */
export function findNotifications(
  em: EntityManager,
  recipientId: string,
  limit: number,
  options: { after?: Sql | null; filter?: NotificationFilter } = {},
): Promise<NotificationRow[]> {
  const after = options.after ?? raw('true');
  const kind = options.filter === 'mentions' ? sql`n.type = 'mention'` : raw('true');
  return preparedRows<NotificationRow>(
    em,
    sql`select n.id, n.type, u.username, u.avatar_url, ${iso('n.created_at')} as created_at,
            n.read_at is not null as is_read, n.post_id, n.note, ${snippet()} as snippet
       from notifications n
       join users u on u.id = n.actor_id
       left join posts p on p.id = n.post_id
       left join comments c on c.id = n.comment_id
      where n.recipient_id = ${recipientId} and ${kind} and ${after} and ${shown()}
      order by n.created_at desc, n.id desc
      limit ${limit}`,
  );
}

/** The columns of the notification lists' sort key (created_at, id). */
export const NOTIFICATION_KEY_COLUMNS = { createdAt: 'n.created_at', id: 'n.id' };

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

/**
 * Marks notification `id` of `recipientId` read at `at`: whether it is theirs (`found`), and
 * whether it was unread (`updated` 1) — one statement.
 */
export async function markNotificationRead(
  em: EntityManager,
  recipientId: string,
  id: string,
  at: Date,
): Promise<{ found: boolean; updated: number }> {
  const row = await firstRow<{ found: boolean; updated: number }>(
    em,
    sql`with target as (
       select id, read_at from notifications where id = ${id}::uuid and recipient_id = ${recipientId}::uuid
     ), marked as (
       update notifications t set read_at = ${at}::timestamptz from target
        where t.id = target.id and t.read_at is null
       returning 1
     )
     select exists (select 1 from target) as found, (select count(*)::int from marked) as updated`,
  );
  return { found: row?.found ?? false, updated: row?.updated ?? 0 };
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
