/**
 * Notifications: another user liked or commented on your post, or followed you. Written by the
 * like, comment and follow services inside their own transactions; never for acting on yourself.
 * A like or follow notification exists at most once per (actor, post) or (actor, recipient): the
 * partial unique indexes guarantee it, and undoing the like or follow removes it, so liking,
 * unliking and liking again leaves exactly one.
 */
import { randomUUID } from 'node:crypto';
import type { NotificationType } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, publishEvent } from '../../context.js';
import { memberRead } from '../../member-reads.js';
import { executePrepared } from '../../prepared.js';
import { isoTime } from '../../sql.js';
import { shownMemberById } from '../moderation/suspension.js';
import { notBlockedBetween, notMutedBy } from '../safety/safety.sql.js';

/**
 * A notification shows only while its recipient has not muted its actor, no block stands
 * between them and its actor is not suspended (alias `n`, no parameters). Muting hides the ones
 * already there too; unmuting, or the suspension's end, brings them back.
 */
const SHOWN = `${notMutedBy('n.recipient_id', 'n.actor_id')} and ${notBlockedBetween('n.recipient_id', 'n.actor_id')}
  and ${shownMemberById('n.actor_id')}`;

export const NOTIFICATION_LIST_LIMIT = 50;

/** Who a 'removal' notification is from. */
export const MODERATORS_NAME = 'Moderators';

/** What the UI shows after the username ("alice liked your post"). */
export const NOTIFICATION_MESSAGES: Record<NotificationType, string> = {
  like: 'liked your post',
  comment: 'commented on your post',
  follow: 'started following you',
  removal: 'removed your content',
};

export interface NotificationDto {
  id: string;
  type: NotificationType;
  /** the actor's username and avatar */
  username: string;
  userAvatar: string | null;
  message: string;
  timestamp: Date;
  isRead: boolean;
  postId: string | null;
}

export interface NewNotification {
  recipientId: string;
  actorId: string;
  type: NotificationType;
  postId: string | null;
  /** the comment a 'comment' notification is about: it goes when the comment does */
  commentId?: string;
  at: Date;
}

export async function notify(em: EntityManager, n: NewNotification): Promise<void> {
  if (n.recipientId === n.actorId) return;
  // A duplicate like/follow notification (a race of two requests) is dropped by the unique indexes.
  // None is written for a recipient who muted the actor (or a blocked pair).
  await em.execute(
    `insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at)
     select ?, ?::uuid, ?::uuid, ?, ?::uuid, ?::uuid, ?::timestamptz
      where ${notMutedBy('?::uuid', '?::uuid')} and ${notBlockedBetween('?::uuid', '?::uuid')}
     on conflict do nothing`,
    [
      randomUUID(),
      n.recipientId,
      n.actorId,
      n.type,
      n.postId,
      n.commentId ?? null,
      n.at,
      n.recipientId,
      n.actorId,
      n.recipientId,
      n.actorId,
      n.actorId,
      n.recipientId,
    ],
  );
}

/** Undoing a like or follow takes its notification back. */
export async function retractLikeNotification(
  em: EntityManager,
  actorId: string,
  postId: string,
): Promise<void> {
  await em.execute(`delete from notifications where type = 'like' and actor_id = ? and post_id = ?`, [
    actorId,
    postId,
  ]);
}

export async function retractFollowNotification(
  em: EntityManager,
  actorId: string,
  recipientId: string,
): Promise<void> {
  await em.execute(`delete from notifications where type = 'follow' and actor_id = ? and recipient_id = ?`, [
    actorId,
    recipientId,
  ]);
}

interface NotificationRow {
  id: string;
  type: NotificationType;
  username: string;
  avatar_url: string | null;
  created_at: string;
  is_read: boolean;
  post_id: string | null;
  note: string | null;
}

/** The caller's newest notifications, with the actor joined in the same query. */
export function listNotifications(ctx: AuthedContext): Promise<NotificationDto[]> {
  const me = ctx.session.user.id;
  return memberRead(ctx.cacheScope, 'notifications', me, 'list', () => readNotifications(ctx.em, me));
}

async function readNotifications(em: EntityManager, recipientId: string): Promise<NotificationDto[]> {
  const rows = await executePrepared<NotificationRow[]>(
    em,
    `select n.id, n.type, u.username, u.avatar_url, ${isoTime('n.created_at')} as created_at,
            n.read_at is not null as is_read, n.post_id, n.note
       from notifications n
       join users u on u.id = n.actor_id
      where n.recipient_id = ? and ${SHOWN}
      order by n.created_at desc, n.id desc
      limit ?`,
    [recipientId, NOTIFICATION_LIST_LIMIT],
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    // A removal comes from the moderators as a body, never from one of them by name.
    username: row.type === 'removal' ? MODERATORS_NAME : row.username,
    userAvatar: row.type === 'removal' ? null : row.avatar_url,
    message:
      row.type === 'removal' ? (row.note ?? NOTIFICATION_MESSAGES.removal) : NOTIFICATION_MESSAGES[row.type],
    timestamp: new Date(row.created_at),
    isRead: row.is_read,
    postId: row.post_id,
  }));
}

/** For the bell's badge; served by the partial index on unread rows. */
export function countUnread(ctx: AuthedContext): Promise<{ count: number }> {
  const me = ctx.session.user.id;
  return memberRead(ctx.cacheScope, 'notifications', me, 'unread', async () => {
    const rows = await executePrepared<{ count: number }[]>(
      ctx.em,
      `select count(*)::int as count from notifications n where n.recipient_id = ? and n.read_at is null and ${SHOWN}`,
      [me],
    );
    return { count: rows[0]?.count ?? 0 };
  });
}

export async function markAllRead(ctx: AuthedContext): Promise<{ ok: true; updated: number }> {
  const result = await ctx.em.execute<{ affectedRows: number }>(
    'update notifications set read_at = ? where recipient_id = ? and read_at is null',
    [ctx.now(), ctx.session.user.id],
    'run',
  );
  // The user's other tabs and devices clear their badge too.
  if (result.affectedRows > 0) publishEvent(ctx, 'notifications', { recipientId: ctx.session.user.id });
  return { ok: true, updated: result.affectedRows };
}

/** What the bell shows, and a version that changes whenever it does (the live event's id). */
export interface NotificationState {
  unreadCount: number;
  /** the newest notification's id, so a new one is news even when the count stays the same */
  newestId: string | null;
}

export function notificationStateId(state: NotificationState): string {
  return `${state.unreadCount}.${state.newestId ?? ''}`;
}

export async function readNotificationState(
  em: EntityManager,
  recipientId: string,
): Promise<NotificationState> {
  const rows = await em.execute<{ unread: number; newest: string | null }[]>(
    `select (select count(*)::int from notifications n
              where n.recipient_id = ? and n.read_at is null and ${SHOWN}) as unread,
            (select n.id from notifications n where n.recipient_id = ? and ${SHOWN}
              order by n.created_at desc, n.id desc limit 1) as newest`,
    [recipientId, recipientId],
  );
  return { unreadCount: rows[0]?.unread ?? 0, newestId: rows[0]?.newest ?? null };
}

/**
 * The bell, live: the current state at once (unless the client already has it: `lastEventId`),
 * then a new state each time the bus says this user's notifications changed. Each event reads
 * the database through a fresh fork, so what is shown is what was committed; a client that
 * reconnects sends its lastEventId and gets the state it missed, if any.
 */
export async function* liveNotifications(
  ctx: AuthedContext,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ id: string; state: NotificationState }> {
  const recipientId = ctx.session.user.id;
  // Listen before reading, so a change between the read and the loop is not lost.
  const changes = ctx.bus.subscribe('notifications', { signal, key: recipientId });
  let last = lastEventId ?? null;
  const current = async () => {
    const state = await readNotificationState(ctx.fork(), recipientId);
    const id = notificationStateId(state);
    if (id === last) return null;
    last = id;
    return { id, state };
  };
  const first = await current();
  if (first) yield first;
  for await (const _change of changes) {
    const next = await current();
    if (next) yield next;
  }
}
