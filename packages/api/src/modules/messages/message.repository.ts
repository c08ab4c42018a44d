/**
 * Every SQL statement of direct messages: the send (acceptance check, clientId rule and insert in
 * one statement), the conversations list, thread pages, read receipts, unread counts and the
 * live stream's catch-up. Each query is a few index lookups (see the migration's indexes); the
 * statements the busiest endpoints run stay prepared.
 */
import type { IDirectMessage, IUser, Row } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { empty, firstRow, iso, join, raw, rows, Sql, sql } from '../../sql.js';
import { shownMember } from '../moderation/suspension.sql.js';
import { column, notBlocked } from '../safety/safety.sql.js';

/** A message as the queries select it, its times as ISO text (keyset cursors need the microseconds). */
export type MessageRow = Pick<
  Row<IDirectMessage>,
  'id' | 'sender_id' | 'receiver_id' | 'content' | 'client_id'
> & { created_at: string; read_at: string | null };

const COLUMNS = sql`id, sender_id, receiver_id, content, ${iso('created_at')} as created_at,
  ${iso('read_at')} as read_at,
  client_id`;

/**
 * Member `u` accepts a message from `senderId`. `u.messages_from = 'nobody'` still lets through
 * whoever `u` has written to; a block between the two, in either direction, wins over everything.
 * A deleted account accepts nothing, nor a suspended one while the suspension lasts (the Chat
 * page's member picker offers neither).
 */
function acceptsSender(senderId: string): Sql {
  return sql`(u.deleted_at is null and ${shownMember('u')} and ${notBlocked(column('u.id'), senderId)} and (u.messages_from = 'everyone'
  or (u.messages_from = 'following'
      and exists (select 1 from follows f where f.follower_id = u.id and f.followee_id = ${senderId}))
  or exists (select 1 from direct_messages d where d.sender_id = u.id and d.receiver_id = ${senderId})))`;
}

/**
 * The avatar of member `u` as `viewerId` may see it: none across a block either way or while `u`
 * is suspended, as their profile shows none.
 */
function shownAvatar(viewerId: string): Sql {
  return sql`case when ${notBlocked(viewerId, column('u.id'))} and ${shownMember('u')}
  then u.avatar_url end as avatar_url`;
}

/** A statement part given as text with `?` marks and its parameters (the bus's NOTIFY). */
export function textPart(part: { sql: string; params: readonly unknown[] }): Sql {
  const strings = part.sql.split('?');
  if (strings.length !== part.params.length + 1) throw new Error('parameter count does not match');
  return new Sql(strings, [...part.params]);
}

/** Whether `peerId` accepts a message from `senderId`; undefined when `peerId` names no one. */
export async function acceptsFrom(
  em: EntityManager,
  senderId: string,
  peerId: string,
): Promise<boolean | undefined> {
  const row = await firstRow<{ accepts: boolean }>(
    em,
    sql`select ${acceptsSender(senderId)} as accepts from users u where u.id = ${peerId}`,
  );
  return row?.accepts;
}

export async function userExists(em: EntityManager, userId: string): Promise<boolean> {
  const found = await preparedRows<unknown>(em, sql`select 1 from users where id = ${userId}`);
  return found.length > 0;
}

/**
 * Stores a message if the receiver accepts it from the sender and the sender has not used its
 * clientId, in one statement, with `notify` (the bus's NOTIFYs) selected from the stored row so
 * they are sent at its commit only if it was stored. Undefined when nothing was stored.
 */
export function insertMessage(
  em: EntityManager,
  message: { id: string; senderId: string; receiverId: string; content: string; clientId: string | null },
  notify: readonly Sql[],
): Promise<MessageRow | undefined> {
  const notified = notify.map((n, i) => sql`, ${n} as ${raw(`notified_${i}`)}`);
  return firstRow<MessageRow>(
    em,
    sql`with stored as (
       insert into direct_messages (id, sender_id, receiver_id, content, client_id, created_at)
       select ${message.id}, ${message.senderId}, u.id, ${message.content}, ${message.clientId}, now() from users u
        where u.id = ${message.receiverId} and ${acceptsSender(message.senderId)}
       on conflict (sender_id, client_id) where client_id is not null do nothing
       returning ${COLUMNS}
     )
     select stored.*${notified.length > 0 ? join(notified, '') : empty} from stored`,
  );
}

/** The message `senderId` sent with `clientId`. */
export function findByClientId(
  em: EntityManager,
  senderId: string,
  clientId: string,
): Promise<MessageRow | undefined> {
  return firstRow<MessageRow>(
    em,
    sql`select ${COLUMNS} from direct_messages where sender_id = ${senderId} and client_id = ${clientId}`,
  );
}

export type ConversationRow = Pick<Row<IUser>, 'username' | 'display_name' | 'avatar_url'> &
  Pick<Row<IDirectMessage>, 'content'> & {
    user_id: string;
    created_at: string;
    mine: boolean;
    unread: number;
  };

/**
 * `me`'s conversations, newest first, in one query: the members they wrote to or heard from
 * (index prefixes), each with its newest message (two one-row index lookups) and its unread
 * count (the partial index on unread rows).
 */
export function findConversations(em: EntityManager, me: string, limit: number): Promise<ConversationRow[]> {
  return preparedRows<ConversationRow>(
    em,
    sql`with peers as (
       select distinct receiver_id as peer_id from direct_messages where sender_id = ${me}
       union
       select distinct sender_id from direct_messages where receiver_id = ${me}
     )
     select u.id as user_id, u.username, u.display_name, ${shownAvatar(me)},
            last.content, ${iso('last.created_at')} as created_at, last.sender_id = ${me} as mine,
            (select count(*)::int from direct_messages n
              where n.receiver_id = ${me} and n.sender_id = p.peer_id and n.read_at is null) as unread
       from peers p
       join users u on u.id = p.peer_id
       cross join lateral (
         select * from (
           (select id, content, created_at, sender_id from direct_messages
             where sender_id = ${me} and receiver_id = p.peer_id and removed_at is null order by created_at desc, id desc limit 1)
           union all
           (select id, content, created_at, sender_id from direct_messages
             where sender_id = p.peer_id and receiver_id = ${me} and removed_at is null order by created_at desc, id desc limit 1)
         ) both_ways order by created_at desc, id desc limit 1
       ) last
      order by last.created_at desc, last.id desc
      limit ${limit}`,
  );
}

/** The columns of a thread's sort key (created_at, id). */
export const THREAD_KEY_COLUMNS = { createdAt: 'created_at', id: 'id' };

/**
 * Up to `limit` messages between `me` and `peerId`, newest first, from after `after` (a keyset
 * condition on THREAD_KEY_COLUMNS, or none) in the order `order`: each direction from its own
 * index, merged.
 */
export function findThreadRows(
  em: EntityManager,
  thread: { me: string; peerId: string; after: Sql | null; order: Sql; limit: number },
): Promise<MessageRow[]> {
  const { me, peerId, order, limit } = thread;
  const after = thread.after ?? raw('true');
  const oneWay = (from: string, to: string) => sql`(select ${COLUMNS} from direct_messages
     where sender_id = ${from} and receiver_id = ${to} and removed_at is null and ${after} order by ${order} limit ${limit})`;
  return preparedRows<MessageRow>(
    em,
    sql`select * from (${oneWay(me, peerId)} union all ${oneWay(peerId, me)}) t order by ${order} limit ${limit}`,
  );
}

/** Marks read what `peerId` sent `me`; how many messages that was. */
export async function markThreadRead(em: EntityManager, me: string, peerId: string): Promise<number> {
  const [result] = await preparedRows<{ updated: number }>(
    em,
    sql`with marked as (
       update direct_messages set read_at = now() where receiver_id = ${me} and sender_id = ${peerId} and read_at is null
       returning 1
     )
     select count(*)::int as updated from marked`,
  );
  return result?.updated ?? 0;
}

/**
 * The unread total, and the ids of the unread messages received in the last seconds: a live
 * stream that counts on from here knows which of the messages it then hears of are counted.
 */
export async function unreadState(
  em: EntityManager,
  userId: string,
): Promise<{ count: number; recent: string[] }> {
  const found = await preparedRows<{ count: number; recent: string[] | null }>(
    em,
    sql`select count(*)::int as count,
            array_agg(id) filter (where created_at > now() - interval '30 seconds') as recent
       from direct_messages where receiver_id = ${userId} and read_at is null`,
  );
  return { count: found[0]?.count ?? 0, recent: found[0]?.recent ?? [] };
}

export async function unreadTotal(em: EntityManager, userId: string): Promise<number> {
  const found = await preparedRows<{ count: number }>(
    em,
    sql`select count(*)::int as count from direct_messages where receiver_id = ${userId} and read_at is null`,
  );
  return found[0]?.count ?? 0;
}

export type PeerRow = Pick<Row<IUser>, 'id' | 'username' | 'display_name' | 'avatar_url'> & {
  accepts: boolean;
};

/** Member `peerId` as `me` sees them, and whether they accept a message from `me`. */
export function findPeer(em: EntityManager, me: string, peerId: string): Promise<PeerRow | undefined> {
  return firstRow<PeerRow>(
    em,
    sql`select u.id, u.username, u.display_name, ${shownAvatar(me)}, ${acceptsSender(me)} as accepts from users u where u.id = ${peerId}`,
  );
}

// The live stream's reads (message.live.ts), each through a fresh fork.

/**
 * Up to `batch` of `me`'s messages, sent or received, after the position (created_at, id) in
 * that order.
 */
export function findMessagesAfter(
  em: EntityManager,
  me: string,
  position: { createdAt: string; id: string },
  batch: number,
): Promise<MessageRow[]> {
  const after = sql`(created_at, id) > (${position.createdAt}::timestamptz, ${position.id}::uuid)`;
  const limit = raw(String(batch));
  return rows<MessageRow>(
    em,
    sql`select * from (
           (select ${COLUMNS} from direct_messages where receiver_id = ${me} and removed_at is null
              and ${after} order by created_at, id limit ${limit})
           union all
           (select ${COLUMNS} from direct_messages where sender_id = ${me} and removed_at is null
              and ${after} order by created_at, id limit ${limit})
         ) t order by created_at, id limit ${limit}`,
  );
}

export interface ReceiptRow {
  id: string;
  created_at: string;
  read_at: string;
}

/** For each member `me` wrote to who read something after `since`: the newest message of `me` they read. */
export function findReceiptsSince(
  em: EntityManager,
  me: string,
  since: string,
): Promise<(ReceiptRow & { peer_id: string })[]> {
  return rows<ReceiptRow & { peer_id: string }>(
    em,
    sql`select distinct on (receiver_id) receiver_id as peer_id, id, ${iso('created_at')} as created_at,
              ${iso('read_at')} as read_at
         from direct_messages where sender_id = ${me} and read_at > ${since}::timestamptz
        order by receiver_id, created_at desc, id desc`,
  );
}

/** The newest message of `me` that `peerId` has read. */
export function findLastRead(em: EntityManager, me: string, peerId: string): Promise<ReceiptRow | undefined> {
  return firstRow<ReceiptRow>(
    em,
    sql`select id, ${iso('created_at')} as created_at, ${iso('read_at')} as read_at
           from direct_messages where sender_id = ${me} and receiver_id = ${peerId} and read_at is not null
          order by created_at desc, id desc limit 1`,
  );
}

/** Message `id`, if it is `me`'s (sent or received) and not removed. */
export function findOwnMessage(em: EntityManager, me: string, id: string): Promise<MessageRow | undefined> {
  return firstRow<MessageRow>(
    em,
    sql`select ${COLUMNS} from direct_messages where id = ${id} and removed_at is null and (sender_id = ${me} or receiver_id = ${me})`,
  );
}

/** The database's clock as ISO text with microseconds. */
export async function databaseNow(em: EntityManager): Promise<string> {
  const row = await firstRow<{ now: string }>(em, sql`select ${iso('now()')} as now`);
  return row!.now;
}
