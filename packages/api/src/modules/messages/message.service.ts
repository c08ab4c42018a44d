/**
 * Direct messages: sending (once per clientId, only to members who accept messages from the
 * sender), the conversations list, the thread with keyset paging, read receipts and typing. The
 * statements are in message.repository.ts, the live stream in message.live.ts.
 *
 * Who may message whom: a member's `messagesFrom` is `everyone` (the default), `following` (only
 * people they follow) or `nobody`; whoever they have already written to may always answer.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, publishEvent, sentWithWrite } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, conflict, forbidden, notFound, requireUuid } from '../../errors.js';
import { memberRead } from '../../member-reads.js';
import { keyset, type Page } from '../../paging.js';
import type { UnreadCount } from '../notifications/notification.schema.js';
import { USER_NOT_FOUND } from '../users/user.repository.js';
import {
  acceptsFrom,
  findByClientId,
  findConversations,
  findPeer,
  findThreadRows,
  insertMessage,
  type MessageRow,
  markThreadRead,
  THREAD_KEY_COLUMNS,
  textPart,
  unreadTotal,
  userExists,
} from './message.repository.js';
import type {
  Conversation,
  DirectMessage,
  MarkReadResult,
  Peer,
  PeerInput,
  SendMessageInput,
  ThreadInput,
  TypingInput,
  TypingResult,
} from './message.schema.js';

export const CANNOT_MESSAGE_SELF = ERROR_REASONS.CANNOT_MESSAGE_SELF;
export const NOT_ACCEPTING = ERROR_REASONS.NOT_ACCEPTING_MESSAGES;
export const CLIENT_ID_REUSED = ERROR_REASONS.CLIENT_ID_REUSED;
export const CONVERSATIONS_LIMIT = 200;

/** A message as `viewerId` sees it: the clientId is the sender's alone (it matches a local echo). */
export function toDirectMessage(row: MessageRow, viewerId: string): DirectMessage {
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

/** 404 when `peerId` names no one, 403 when they do not accept messages from the caller. */
async function requireAccepts(em: EntityManager, senderId: string, peerId: string): Promise<void> {
  const accepts = await acceptsFrom(em, senderId, peerId);
  if (accepts === undefined) throw notFound(USER_NOT_FOUND);
  if (!accepts) throw forbidden(NOT_ACCEPTING);
}

async function requireUser(em: EntityManager, userId: string): Promise<void> {
  if (!(await userExists(em, userId))) throw notFound(USER_NOT_FOUND);
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
export async function sendMessage(ctx: AuthedContext, input: SendMessageInput): Promise<DirectMessage> {
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
  const notify = ctx.bus.notifySql
    ? events.map((event) => textPart(ctx.bus.notifySql!('messages', event)))
    : [];
  const row = await insertMessage(
    ctx.em,
    { id, senderId, receiverId, content: input.content, clientId },
    notify,
  );
  if (!row) {
    if (clientId !== null) {
      const first = await findByClientId(ctx.em, senderId, clientId);
      if (first) {
        if (first.receiver_id !== receiverId) throw conflict(CLIENT_ID_REUSED);
        return toDirectMessage(first, senderId);
      }
    }
    await requireAccepts(ctx.em, senderId, receiverId);
    // Accepted now but not a moment ago: the receiver changed their setting meanwhile.
    throw forbidden(NOT_ACCEPTING);
  }
  // A bus outside the database: published now, the row being committed (one statement).
  if (notify.length === 0) for (const event of events) publishEvent(ctx, 'messages', event);
  // Sent from SQL: this process's caches hear them now.
  else sentWithWrite(ctx, 'messages', events);
  return toDirectMessage(row, senderId);
}

/** The caller's conversations, newest first (one query; kept until a message or read changes it). */
export function listConversations(ctx: AuthedContext): Promise<Conversation[]> {
  const me = ctx.session.user.id;
  return memberRead(ctx.cacheScope, 'messages', me, 'conversations', () => readConversations(ctx, me));
}

async function readConversations(ctx: AuthedContext, me: string): Promise<Conversation[]> {
  const rows = await findConversations(ctx.em, me, CONVERSATIONS_LIMIT);
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
export function getThread(ctx: AuthedContext, input: ThreadInput): Promise<Page<DirectMessage>> {
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
): Promise<Page<DirectMessage>> {
  const me = ctx.session.user.id;
  const rows = await findThreadRows(ctx.em, {
    me,
    peerId,
    after: cursor ? threadKeyset.continuing(cursor, THREAD_KEY_COLUMNS) : null,
    order: threadKeyset.ordering(THREAD_KEY_COLUMNS),
    limit: pageSize + 1,
  });
  // Messages with them mean they exist (an account deleted leaves its row as a tombstone).
  if (rows.length === 0) await requireUser(ctx.em, peerId);
  const page = threadKeyset.page(
    rows,
    pageSize,
    (row) => toDirectMessage(row, me),
    (row) => ({
      createdAt: row.created_at,
      id: row.id,
    }),
  );
  return { items: page.items.reverse(), nextCursor: page.nextCursor };
}

/** After `updated` messages from `peerId` were marked read: tells them, and the caller's tabs. */
function afterThreadRead(ctx: AuthedContext, peerId: string, updated: number): void {
  if (updated === 0) return;
  const me = ctx.session.user.id;
  publishEvent(ctx, 'messages', { userId: peerId, kind: 'read', peerId: me });
  publishEvent(ctx, 'messages', { userId: me, kind: 'unread' });
}

/** Marks everything `userId` sent the caller read: the Chat page, while the thread is on screen. */
export async function markRead(ctx: AuthedContext, input: PeerInput): Promise<MarkReadResult> {
  const peerId = peerOf(ctx, input.userId);
  const updated = await markThreadRead(ctx.em, ctx.session.user.id, peerId);
  afterThreadRead(ctx, peerId, updated);
  if (updated === 0) await requireUser(ctx.em, peerId);
  return { ok: true, updated };
}

/** For the Chat link's badge. */
export function countUnread(ctx: AuthedContext): Promise<UnreadCount> {
  const me = ctx.session.user.id;
  return memberRead(ctx.cacheScope, 'messages', me, 'unread', async () => ({
    count: await unreadTotal(ctx.em, me),
  }));
}

/** Tells `userId` the caller is typing (or stopped); never stored. */
export async function typing(ctx: AuthedContext, input: TypingInput): Promise<TypingResult> {
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

/** The member a thread is with, for a conversation that may not exist yet (`/chat?user=`). */
export async function getPeer(ctx: AuthedContext, input: PeerInput): Promise<Peer> {
  const peerId = peerOf(ctx, input.userId);
  const row = await findPeer(ctx.em, ctx.session.user.id, peerId);
  if (!row) throw notFound(USER_NOT_FOUND);
  return {
    userId: row.id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    canMessage: row.accepts,
  };
}
