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
function shown(alias = 'n'): Sql {
  const recipient = column(`${alias}.recipient_id`);
  const actor = column(`${alias}.actor_id`);
  return sql`${notMuted(recipient, actor)} and ${notBlocked(recipient, actor)}
  and ${shownMemberOf(actor)}`;
}

/** The rows of `n`'s group (alias `m`) its recipient still sees: `n` itself among them. */
function sameGroup(): Sql {
  return sql`m.recipient_id = n.recipient_id and m.group_key = n.group_key and ${shown('m')}`;
}

export interface NotificationInsert {
  id: string;
  recipientId: string;
  actorId: string;
  type: INotification['type'];
  postId: string | null;
  commentId: string | null;
  at: Date;
  /** notification.groups.ts: the day's group of a like, repost or follow; null for the others */
  groupKey: string | null;
}

/**
 * Writes a notification unless the recipient muted the actor or a block stands between them; a
 * duplicate like/follow notification (a race of two requests) is dropped by the unique indexes.
 */
export async function insertNotification(em: EntityManager, n: NotificationInsert): Promise<void> {
  await rows(
    em,
    sql`insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at, group_key)
     select ${n.id}, ${n.recipientId}::uuid, ${n.actorId}::uuid, ${n.type}, ${n.postId}::uuid, ${n.commentId}::uuid, ${n.at}::timestamptz, ${n.groupKey}::varchar
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

/** One of a group's actors, as the grouped item and the group's list show them. */
export interface GroupActorRow {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
}

/**
 * A shown notification, the newest of its group, with its actor's name and avatar and what was
 * said (see `snippet`); `group_key` is the row's own id for a kind that is not grouped. For a
 * group: `is_read` when all its shown rows are, `actors_count` its shown rows (one per actor: the
 * like, repost and follow unique indexes), `actors` the newest three; `actors` is null for a kind
 * that is not grouped (its actor is the row's own).
 */
export type NotificationRow = Pick<Row<INotification>, 'id' | 'type' | 'post_id' | 'note'> &
  Pick<Row<IUser>, 'username' | 'avatar_url'> & {
    actor_id: string;
    /** the actor is the recipient: only an ended poll's notification to its author */
    self_acted: boolean;
    display_name: string;
    created_at: string;
    is_read: boolean;
    snippet: string | null;
    group_key: string;
    actors_count: number;
    actors: GroupActorRow[] | null;
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
      case when not (${postShown}) then null
        -- Another's post behind a content warning shows its warning, as its folded card does.
        when p.content_warning is not null and p.author_id <> n.recipient_id
          then left('Content warning: ' || p.content_warning, ${SNIPPET_READ_MAX})
        else left(p.content, ${SNIPPET_READ_MAX}) end
  end`;
}

/** Which notifications a list shows: every kind, or mentions only. */
export type NotificationFilter = 'all' | 'mentions';

/**
 * `recipientId`'s newest shown notification groups after `after` (a keyset condition on
 * NOTIFICATION_KEY_COLUMNS, or none), one statement: each group is its newest shown row (no newer
 * shown row of the same group exists), with the actor, the post and the comment joined, and for a
 * group its count, read state and newest three actors. A group is keyed by its newest row, so a
 * cursor after a page's last group neither repeats nor skips one; a group that grows moves to the
 * top. Cost: the recipient's rows are walked newest first on notifications_recipient_created_at_id_index;
 * each grouped row asks notifications_recipient_group_index whether a newer shown row of its group
 * exists (rows that are not their group's newest are passed over), and each group on the page
 * counts its shown rows there (a post liked by thousands in a day counts thousands of index
 * entries, each with the mute, block and suspension checks).
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
    sql`select n.id, n.type, u.username, u.avatar_url, u.id as actor_id, u.display_name,
            n.actor_id = n.recipient_id as self_acted,
            ${iso('n.created_at')} as created_at,
            case when n.group_key is null then n.read_at is not null else g.unread = 0 end as is_read,
            n.post_id, n.note, ${snippet()} as snippet,
            coalesce(n.group_key, n.id::text) as group_key,
            coalesce(g.actors_count, 1) as actors_count, a.actors
       from notifications n
       join users u on u.id = n.actor_id
       left join posts p on p.id = n.post_id
       left join comments c on c.id = n.comment_id
       left join lateral (
         select count(*)::int as actors_count, count(*) filter (where m.read_at is null)::int as unread
           from notifications m where n.group_key is not null and ${sameGroup()}
       ) g on n.group_key is not null
       left join lateral (
         select json_agg(json_build_object('id', x.id, 'username', x.username,
                  'display_name', x.display_name, 'avatar_url', x.avatar_url) order by x.created_at desc, x.nid desc) as actors
           from (select mu.id, mu.username, mu.display_name, mu.avatar_url, m.created_at, m.id as nid
                   from notifications m join users mu on mu.id = m.actor_id
                  where n.group_key is not null and ${sameGroup()}
                  order by m.created_at desc, m.id desc
                  limit ${GROUP_ACTORS_SHOWN}) x
       ) a on n.group_key is not null
      where n.recipient_id = ${recipientId} and ${kind} and ${after} and ${shown()}
        and (n.group_key is null or not exists (
          select 1 from notifications m
           where ${sameGroup()} and (m.created_at, m.id) > (n.created_at, n.id)))
      order by n.created_at desc, n.id desc
      limit ${limit}`,
  );
}

/** How many of a group's actors an item names and shows (the newest). */
export const GROUP_ACTORS_SHOWN = 3;

/** The columns of the notification lists' sort key (created_at, id). */
export const NOTIFICATION_KEY_COLUMNS = { createdAt: 'n.created_at', id: 'n.id' };

/** Groups with an unread row among `n`'s (alias) rows: a group counts once, an ungrouped row once. */
const UNREAD_GROUPS = raw('count(distinct coalesce(n.group_key, n.id::text))::int');

/**
 * How many of `recipientId`'s shown notification groups have an unread row; served by the partial
 * index on unread rows.
 */
export async function countUnreadNotifications(em: EntityManager, recipientId: string): Promise<number> {
  const [row] = await preparedRows<{ count: number }>(
    em,
    sql`select ${UNREAD_GROUPS} as count from notifications n where n.recipient_id = ${recipientId} and n.read_at is null and ${shown()}`,
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
 * Marks notification `id` of `recipientId` read at `at`, with every row of its group: whether it
 * is theirs (`found`), and whether any was unread (`updated` 1) — one statement.
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
       select id, group_key from notifications where id = ${id}::uuid and recipient_id = ${recipientId}::uuid
     ), marked as (
       update notifications t set read_at = ${at}::timestamptz from target
        where t.recipient_id = ${recipientId}::uuid and t.read_at is null
          and (t.id = target.id or t.group_key = target.group_key)
       returning 1
     )
     select exists (select 1 from target) as found, least((select count(*) from marked), 1)::int as updated`,
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
    sql`select (select ${UNREAD_GROUPS} from notifications n
              where n.recipient_id = ${recipientId} and n.read_at is null and ${shown()}) as unread,
            (select n.id from notifications n where n.recipient_id = ${recipientId} and ${shown()}
              order by n.created_at desc, n.id desc limit 1) as newest`,
  );
  return { unread: row?.unread ?? 0, newest: row?.newest ?? null };
}

/** One actor of a group, with the sort key of their notification row (the group's list pages on it). */
export type GroupActorPageRow = GroupActorRow & { created_at: string; nid: string };

/**
 * The shown actors of the group of `recipientId`'s notification `id`, newest first, after `after`
 * (a keyset condition on GROUP_ACTOR_KEY_COLUMNS): `found` false when the notification is not
 * theirs. One statement on notifications_recipient_group_index; an ungrouped notification's group
 * is itself, and a removal names no one (its actor is a moderator).
 */
export async function findGroupActors(
  em: EntityManager,
  recipientId: string,
  id: string,
  limit: number,
  after: Sql | null,
): Promise<{ found: boolean; rows: GroupActorPageRow[] }> {
  const found = await rows<{ found: boolean } & Partial<GroupActorPageRow>>(
    em,
    sql`with target as (
       select id, group_key, type from notifications where id = ${id}::uuid and recipient_id = ${recipientId}::uuid
     )
     select exists (select 1 from target) as found, x.*
       from (select 1) one
       left join lateral (
         select u.id, u.username, u.display_name, u.avatar_url, ${iso('n.created_at')} as created_at, n.id as nid
           from target, notifications n join users u on u.id = n.actor_id
          where n.recipient_id = ${recipientId}::uuid and target.type <> 'removal'
            and (n.id = target.id or n.group_key = target.group_key)
            and ${after ?? raw('true')} and ${shown()}
          order by n.created_at desc, n.id desc
          limit ${limit}
       ) x on true`,
  );
  return {
    found: found[0]?.found ?? false,
    rows: found.filter((r): r is { found: boolean } & GroupActorPageRow => r.id != null),
  };
}

/** The columns of a group's actor list's sort key (their notification's created_at, id). */
export const GROUP_ACTOR_KEY_COLUMNS = { createdAt: 'n.created_at', id: 'n.id' };
