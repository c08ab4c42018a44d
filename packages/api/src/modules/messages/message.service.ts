/**
 * Direct messages: sending (once per clientId, only to members who accept messages from the
 * sender), the conversations list, the thread with keyset paging, read receipts, typing, and the
 * live stream of all of it. Every query is a few index lookups (see the migration's indexes);
 * nothing loops over conversations in JavaScript.
 *
 * Who may message whom: a member's `messagesFrom` is `everyone` (the default), `following` (only
 * people they follow) or `nobody`; whoever they have already written to may always answer.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { TRPCError } from '@trpc/server';
import { type AuthedContext, publishEvent, sentWithWrite } from '../../context.js';
import { badRequest, isUuid, notFound, requireUuid } from '../../errors.js';
import { memberRead } from '../../member-reads.js';
import { type KeysetKey, keyset, type Page } from '../../paging.js';
import { executePrepared } from '../../prepared.js';
import { isoTime } from '../../sql.js';
import { shownMemberSql } from '../moderation/suspension.js';
import { notBlockedBetween } from '../safety/safety.sql.js';
import { USER_NOT_FOUND } from '../users/user.repository.js';
import type { PeerInput, SendMessageInput, ThreadInput, TypingInput } from './message.schema.js';

export const CANNOT_MESSAGE_SELF = 'You cannot message yourself';
export const NOT_ACCEPTING = 'This user does not accept messages from you';
export const CLIENT_ID_REUSED = 'This clientId was already used for a message to someone else';
export const CONVERSATIONS_LIMIT = 200;

export interface DirectMessageDto {
  id: string;
  senderId: string;
  receiverId: string;
  content: string;
  createdAt: Date;
  readAt: Date | null;
  /** The sender's own id of the send, shown to the sender only (it matches a local echo). */
  clientId: string | null;
}

export interface ConversationDto {
  userId: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  lastMessage: string;
  lastMessageTime: Date;
  lastMessageMine: boolean;
  unread: number;
}

interface MessageRow {
  id: string;
  sender_id: string;
  receiver_id: string;
  content: string;
  created_at: string;
  read_at: string | null;
  client_id: string | null;
}

const COLUMNS = `id, sender_id, receiver_id, content, ${isoTime('created_at')} as created_at,
  ${isoTime('read_at')} as read_at,
  client_id`;

function toDto(row: MessageRow, viewerId: string): DirectMessageDto {
  return {
    id: row.id,
    senderId: row.sender_id,
    receiverId: row.receiver_id,
    content: row.content,
    createdAt: new Date(row.created_at),
    readAt: row.read_at ? new Date(row.read_at) : null,
    clientId: row.sender_id === viewerId ? row.client_id : null,
  };
}

/**
 * The SQL condition "member `u` accepts a message from the sender" (four `?`: the sender's id).
 * `u.messages_from = 'nobody'` still lets through whoever `u` has written to; a block between
 * the two, in either direction, wins over everything. A deleted account accepts nothing.
 */
const ACCEPTS_SENDER = `(u.deleted_at is null and ${notBlockedBetween('u.id', '?::uuid')} and (u.messages_from = 'everyone'
  or (u.messages_from = 'following'
      and exists (select 1 from follows f where f.follower_id = u.id and f.followee_id = ?))
  or exists (select 1 from direct_messages d where d.sender_id = u.id and d.receiver_id = ?)))`;

/**
 * The avatar of member `u` as the caller (one `?`, bound twice: the caller's id) may see it: none
 * across a block either way or while `u` is suspended, as their profile shows none.
 */
const SHOWN_AVATAR = `case when ${notBlockedBetween('?::uuid', 'u.id')} and ${shownMemberSql('u')}
  then u.avatar_url end as avatar_url`;

/** 404 when `peerId` names no one, 403 when they do not accept messages from the caller. */
async function requireAccepts(em: EntityManager, senderId: string, peerId: string): Promise<void> {
  const rows = await em.execute<{ accepts: boolean }[]>(
    `select ${ACCEPTS_SENDER} as accepts from users u where u.id = ?`,
    [senderId, senderId, senderId, senderId, peerId],
  );
  if (rows.length === 0) throw notFound(USER_NOT_FOUND);
  if (!rows[0]!.accepts) throw new TRPCError({ code: 'FORBIDDEN', message: NOT_ACCEPTING });
}

async function requireUser(em: EntityManager, userId: string): Promise<void> {
  const rows = await executePrepared<unknown[]>(em, 'select 1 from users where id = ?', [userId]);
  if (rows.length === 0) throw notFound(USER_NOT_FOUND);
}

function peerOf(ctx: AuthedContext, rawUserId: string): string {
  const peerId = requireUuid(rawUserId, USER_NOT_FOUND);
  if (peerId === ctx.session.user.id) throw badRequest(CANNOT_MESSAGE_SELF);
  return peerId;
}

/**
 * Stores a message in one statement (the acceptance check, the clientId rule and the insert), so
 * its created_at is taken a moment before it commits and the live catch-up, which goes by
 * created_at, sees messages in the order they became visible. A send whose clientId the sender
 * already used returns the message stored the first time.
 */
export async function sendMessage(ctx: AuthedContext, input: SendMessageInput): Promise<DirectMessageDto> {
  const senderId = ctx.session.user.id;
  const receiverId = peerOf(ctx, input.receiverId);
  const clientId = input.clientId ?? null;
  const id = randomUUID();
  // The receiver's tabs and the sender's own hear of it. On a database bus the NOTIFYs go in the
  // insert's own statement (sent at its commit, only if a row was stored): a send is one round trip.
  const events = [receiverId, senderId].map((userId) => ({
    userId,
    kind: 'message' as const,
    messageId: id,
  }));
  const notify = ctx.bus.notifySql ? events.map((event) => ctx.bus.notifySql!('messages', event)) : [];
  const inserted = await ctx.em.execute<MessageRow[]>(
    `with stored as (
       insert into direct_messages (id, sender_id, receiver_id, content, client_id, created_at)
       select ?, ?, u.id, ?, ?, now() from users u
        where u.id = ? and ${ACCEPTS_SENDER}
       on conflict (sender_id, client_id) where client_id is not null do nothing
       returning ${COLUMNS}
     )
     select stored.*${notify.map((n, i) => `, ${n.sql} as notified_${i}`).join('')} from stored`,
    [
      id,
      senderId,
      input.content,
      clientId,
      receiverId,
      senderId,
      senderId,
      senderId,
      senderId,
      ...notify.flatMap((n) => n.params),
    ],
  );
  const row = inserted[0];
  if (!row) {
    if (clientId !== null) {
      const [first] = await ctx.em.execute<MessageRow[]>(
        `select ${COLUMNS} from direct_messages where sender_id = ? and client_id = ?`,
        [senderId, clientId],
      );
      if (first) {
        if (first.receiver_id !== receiverId)
          throw new TRPCError({ code: 'CONFLICT', message: CLIENT_ID_REUSED });
        return toDto(first, senderId);
      }
    }
    await requireAccepts(ctx.em, senderId, receiverId);
    // Accepted now but not a moment ago: the receiver changed their setting meanwhile.
    throw new TRPCError({ code: 'FORBIDDEN', message: NOT_ACCEPTING });
  }
  // A bus outside the database: published now, the row being committed (one statement).
  if (notify.length === 0) for (const event of events) publishEvent(ctx, 'messages', event);
  // Sent from SQL: this process's caches hear them now.
  else sentWithWrite(ctx, 'messages', events);
  return toDto(row, senderId);
}

interface ConversationRow {
  user_id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  content: string;
  created_at: string;
  mine: boolean;
  unread: number;
}

/**
 * The caller's conversations, newest first, in one query: the members they wrote to or heard
 * from (index prefixes), each with its newest message (two one-row index lookups) and its unread
 * count (the partial index on unread rows).
 */
export function listConversations(ctx: AuthedContext): Promise<ConversationDto[]> {
  const me = ctx.session.user.id;
  return memberRead(ctx.cacheScope, 'messages', me, 'conversations', () => readConversations(ctx, me));
}

async function readConversations(ctx: AuthedContext, me: string): Promise<ConversationDto[]> {
  const rows = await executePrepared<ConversationRow[]>(
    ctx.em,
    `with peers as (
       select distinct receiver_id as peer_id from direct_messages where sender_id = ?
       union
       select distinct sender_id from direct_messages where receiver_id = ?
     )
     select u.id as user_id, u.username, u.display_name, ${SHOWN_AVATAR},
            last.content, ${isoTime('last.created_at')} as created_at, last.sender_id = ? as mine,
            (select count(*)::int from direct_messages n
              where n.receiver_id = ? and n.sender_id = p.peer_id and n.read_at is null) as unread
       from peers p
       join users u on u.id = p.peer_id
       cross join lateral (
         select * from (
           (select id, content, created_at, sender_id from direct_messages
             where sender_id = ? and receiver_id = p.peer_id and removed_at is null order by created_at desc, id desc limit 1)
           union all
           (select id, content, created_at, sender_id from direct_messages
             where sender_id = p.peer_id and receiver_id = ? and removed_at is null order by created_at desc, id desc limit 1)
         ) both_ways order by created_at desc, id desc limit 1
       ) last
      order by last.created_at desc, last.id desc
      limit ?`,
    [me, me, me, me, me, me, me, me, CONVERSATIONS_LIMIT],
  );
  return rows.map((row) => ({
    userId: row.user_id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    lastMessage: row.content,
    lastMessageTime: new Date(row.created_at),
    lastMessageMine: row.mine,
    unread: row.unread,
  }));
}

/** A thread pages from the newest message back; each page is shown oldest first. */
export const threadKeyset = keyset({
  name: 'dm-thread',
  order: 'desc',
  key: { createdAt: 'timestamp', id: 'uuid' },
});

/**
 * The thread with `userId`, oldest first: the newest page without a cursor, older pages with
 * one. Only reads: marking the thread read is `markRead` (POST /api/messages/:userId/read), which
 * the Chat page calls while the thread is on screen.
 */
export function getThread(ctx: AuthedContext, input: ThreadInput): Promise<Page<DirectMessageDto>> {
  const peerId = peerOf(ctx, input.userId);
  const cursor = threadKeyset.decode(input.cursor);
  if (cursor) return readThread(ctx, peerId, cursor, input.limit);
  // The newest page is kept (member-reads.ts) until a message either way, or a read, changes it.
  return memberRead(ctx.cacheScope, 'messages', ctx.session.user.id, `thread:${peerId}:${input.limit}`, () =>
    readThread(ctx, peerId, null, input.limit),
  );
}

async function readThread(
  ctx: AuthedContext,
  peerId: string,
  cursor: ReturnType<typeof threadKeyset.decode>,
  pageSize: number,
): Promise<Page<DirectMessageDto>> {
  const me = ctx.session.user.id;
  const columns = { createdAt: 'created_at', id: 'id' };
  const after = cursor ? threadKeyset.after(cursor, columns) : { sql: 'true', params: [] };
  const order = threadKeyset.orderBy(columns);
  const limit = pageSize + 1;
  const oneWay = `(select ${COLUMNS} from direct_messages
     where sender_id = ? and receiver_id = ? and removed_at is null and ${after.sql} order by ${order} limit ?)`;
  const rows = await executePrepared<MessageRow[]>(
    ctx.em,
    `select * from (${oneWay} union all ${oneWay}) t order by ${order} limit ?`,
    [me, peerId, ...after.params, limit, peerId, me, ...after.params, limit, limit],
  );
  // Messages with them mean they exist (an account deleted leaves its row as a tombstone).
  if (rows.length === 0) await requireUser(ctx.em, peerId);
  const page = threadKeyset.page(
    rows,
    pageSize,
    (row) => toDto(row, me),
    (row) => ({
      createdAt: row.created_at,
      id: row.id,
    }),
  );
  return { items: page.items.reverse(), nextCursor: page.nextCursor };
}

async function markThreadRead(ctx: AuthedContext, peerId: string): Promise<number> {
  const me = ctx.session.user.id;
  const [result] = await executePrepared<{ updated: number }[]>(
    ctx.em,
    `with marked as (
       update direct_messages set read_at = now() where receiver_id = ? and sender_id = ? and read_at is null
       returning 1
     )
     select count(*)::int as updated from marked`,
    [me, peerId],
  );
  const updated = result?.updated ?? 0;
  afterThreadRead(ctx, peerId, updated);
  return updated;
}

/** After `updated` messages from `peerId` were marked read: tells them, and the caller's tabs. */
function afterThreadRead(ctx: AuthedContext, peerId: string, updated: number): void {
  if (updated === 0) return;
  const me = ctx.session.user.id;
  publishEvent(ctx, 'messages', { userId: peerId, kind: 'read', peerId: me });
  publishEvent(ctx, 'messages', { userId: me, kind: 'unread' });
}

/** Marks everything `userId` sent the caller read: the Chat page, while the thread is on screen. */
export async function markRead(ctx: AuthedContext, input: PeerInput): Promise<{ ok: true; updated: number }> {
  const peerId = peerOf(ctx, input.userId);
  const updated = await markThreadRead(ctx, peerId);
  if (updated === 0) await requireUser(ctx.em, peerId);
  return { ok: true, updated };
}

/**
 * The unread total, and the ids of the unread messages received in the last seconds: a live
 * stream that counts on from here knows which of the messages it then hears of are counted.
 */
async function unreadState(em: EntityManager, userId: string): Promise<{ count: number; recent: string[] }> {
  const rows = await executePrepared<{ count: number; recent: string[] | null }[]>(
    em,
    `select count(*)::int as count,
            array_agg(id) filter (where created_at > now() - interval '30 seconds') as recent
       from direct_messages where receiver_id = ? and read_at is null`,
    [userId],
  );
  return { count: rows[0]?.count ?? 0, recent: rows[0]?.recent ?? [] };
}

async function unreadTotal(em: EntityManager, userId: string): Promise<number> {
  const rows = await executePrepared<{ count: number }[]>(
    em,
    'select count(*)::int as count from direct_messages where receiver_id = ? and read_at is null',
    [userId],
  );
  return rows[0]?.count ?? 0;
}

/** For the Chat link's badge. */
export function countUnread(ctx: AuthedContext): Promise<{ count: number }> {
  const me = ctx.session.user.id;
  return memberRead(ctx.cacheScope, 'messages', me, 'unread', async () => ({
    count: await unreadTotal(ctx.em, me),
  }));
}

/** Tells `userId` the caller is typing (or stopped); never stored. */
export async function typing(ctx: AuthedContext, input: TypingInput): Promise<{ ok: true }> {
  const peerId = peerOf(ctx, input.userId);
  await requireAccepts(ctx.em, ctx.session.user.id, peerId);
  publishEvent(ctx, 'messages', {
    userId: peerId,
    kind: 'typing',
    fromId: ctx.session.user.id,
    active: input.active,
  });
  return { ok: true };
}

export interface PeerDto {
  userId: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  /** whether the caller may write to them (their messagesFrom, or they wrote to the caller) */
  canMessage: boolean;
}

/** The member a thread is with, for a conversation that may not exist yet (`/chat?user=`). */
export async function getPeer(ctx: AuthedContext, input: PeerInput): Promise<PeerDto> {
  const me = ctx.session.user.id;
  const peerId = peerOf(ctx, input.userId);
  const [row] = await ctx.em.execute<
    { id: string; username: string; display_name: string; avatar_url: string | null; accepts: boolean }[]
  >(
    `select u.id, u.username, u.display_name, ${SHOWN_AVATAR}, ${ACCEPTS_SENDER} as accepts from users u where u.id = ?`,
    [me, me, me, me, me, me, peerId],
  );
  if (!row) throw notFound(USER_NOT_FOUND);
  return {
    userId: row.id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    canMessage: row.accepts,
  };
}

/** What the live subscription yields. */
export type MessageEvent =
  | { type: 'message'; message: DirectMessageDto }
  /** `peerId` has read my messages to them up to `lastReadId` (created at `lastReadAt`). */
  | { type: 'read'; peerId: string; lastReadId: string; lastReadCreatedAt: Date }
  | { type: 'unread'; count: number }
  | { type: 'typing'; userId: string; active: boolean };

/**
 * A live event's id: the position of the newest message the client has (created_at, id) and the
 * time of the newest receipt it has. A reconnecting client sends it back and gets, from the
 * database, the messages after that position and the receipts after that time.
 */
export const liveKeyset = keyset({
  name: 'dm-live',
  order: 'asc',
  key: { createdAt: 'timestamp', id: 'uuid', readAt: 'timestamp' },
});
type LivePosition = KeysetKey<typeof liveKeyset>;

export const CATCH_UP_BATCH = 200;
const SEEN_LIMIT = 2_000;

/**
 * The caller's direct messages, live: sent and received messages (from all their tabs), read
 * receipts, the unread count and typing. Subscribes to the bus first, then catches up from
 * `lastEventId` (or, on a first connection, starts now: the client has just loaded the lists),
 * then follows the bus. Every event is loaded through a fresh fork, so it shows committed rows.
 */
export async function* liveMessages(
  ctx: AuthedContext,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ id: string; event: MessageEvent }> {
  const me = ctx.session.user.id;
  const events = ctx.bus.subscribe('messages', { signal, key: me });
  const since = liveKeyset.decode(lastEventId);
  let pos: LivePosition;
  // Ids delivered lately: a message the catch-up returned may also come through the bus.
  const seen = new Set<string>();
  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as string);
  };
  const message = (row: MessageRow) => {
    remember(row.id);
    if (row.created_at > pos.createdAt || (row.created_at === pos.createdAt && row.id > pos.id)) {
      pos = { ...pos, createdAt: row.created_at, id: row.id };
    }
    return { id: liveKeyset.encode(pos), event: { type: 'message', message: toDto(row, me) } as const };
  };
  // The unread count is counted when the stream starts and whenever messages are read; a new
  // message carries it forward by one instead of counting again (`counted`: unread messages the
  // last count already had, which the bus may still bring).
  let unreadCount = 0;
  let counted = new Set<string>();
  const unreadEvent = () => ({
    id: liveKeyset.encode(pos),
    event: { type: 'unread', count: unreadCount } as const,
  });
  const unread = async () => {
    const state = await unreadState(ctx.fork(), me);
    unreadCount = state.count;
    counted = new Set(state.recent);
    return unreadEvent();
  };

  if (since) {
    pos = since;
    for (;;) {
      const rows = await ctx.fork().execute<MessageRow[]>(
        `select * from (
           (select ${COLUMNS} from direct_messages where receiver_id = ? and removed_at is null
              and (created_at, id) > (?::timestamptz, ?::uuid) order by created_at, id limit ${CATCH_UP_BATCH})
           union all
           (select ${COLUMNS} from direct_messages where sender_id = ? and removed_at is null
              and (created_at, id) > (?::timestamptz, ?::uuid) order by created_at, id limit ${CATCH_UP_BATCH})
         ) t order by created_at, id limit ${CATCH_UP_BATCH}`,
        [me, pos.createdAt, pos.id, me, pos.createdAt, pos.id],
      );
      for (const row of rows) yield message(row);
      if (rows.length < CATCH_UP_BATCH) break;
    }
    const receipts = await ctx
      .fork()
      .execute<{ peer_id: string; id: string; created_at: string; read_at: string }[]>(
        `select distinct on (receiver_id) receiver_id as peer_id, id, ${isoTime('created_at')} as created_at,
              ${isoTime('read_at')} as read_at
         from direct_messages where sender_id = ? and read_at > ?::timestamptz
        order by receiver_id, created_at desc, id desc`,
        [me, pos.readAt],
      );
    for (const r of receipts) {
      if (r.read_at > pos.readAt) pos = { ...pos, readAt: r.read_at };
    }
    for (const r of receipts) {
      yield {
        id: liveKeyset.encode(pos),
        event: {
          type: 'read',
          peerId: r.peer_id,
          lastReadId: r.id,
          lastReadCreatedAt: new Date(r.created_at),
        },
      };
    }
  } else {
    const [now] = await ctx.fork().execute<{ now: string }[]>(`select ${isoTime('now()')} as now`);
    pos = { createdAt: now!.now, id: 'ffffffff-ffff-ffff-ffff-ffffffffffff', readAt: now!.now };
  }
  // The count is state: a (re)connected client always gets it, and with it an event id.
  yield await unread();

  for await (const e of events) {
    if (e.kind === 'typing') {
      yield { id: liveKeyset.encode(pos), event: { type: 'typing', userId: e.fromId, active: e.active } };
    } else if (e.kind === 'unread') {
      yield await unread();
    } else if (e.kind === 'message') {
      if (!isUuid(e.messageId) || seen.has(e.messageId)) continue;
      const [row] = await ctx
        .fork()
        .execute<MessageRow[]>(
          `select ${COLUMNS} from direct_messages where id = ? and removed_at is null and (sender_id = ? or receiver_id = ?)`,
          [e.messageId, me, me],
        );
      if (!row) continue;
      yield message(row);
      // Read already (another tab): the 'unread' event of that read recounts.
      if (row.receiver_id === me && row.read_at === null && !counted.has(row.id)) {
        unreadCount += 1;
        yield unreadEvent();
      }
    } else if (e.kind === 'read') {
      if (!isUuid(e.peerId)) continue;
      const [r] = await ctx.fork().execute<{ id: string; created_at: string; read_at: string }[]>(
        `select id, ${isoTime('created_at')} as created_at, ${isoTime('read_at')} as read_at
           from direct_messages where sender_id = ? and receiver_id = ? and read_at is not null
          order by created_at desc, id desc limit 1`,
        [me, e.peerId],
      );
      // Receipts only move forward: one the catch-up already gave is not news.
      if (!r || r.read_at <= pos.readAt) continue;
      pos = { ...pos, readAt: r.read_at };
      yield {
        id: liveKeyset.encode(pos),
        event: {
          type: 'read',
          peerId: e.peerId,
          lastReadId: r.id,
          lastReadCreatedAt: new Date(r.created_at),
        },
      };
    }
  }
}
