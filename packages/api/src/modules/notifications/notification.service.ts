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
import { ERROR_REASONS } from '../../error-reasons.js';
import { notFound, requireUuid } from '../../errors.js';
import { memberRead } from '../../member-reads.js';
import { keyset, type Page } from '../../paging.js';
import { notificationGroupKey } from './notification.groups.js';
import {
  countUnreadNotifications,
  deleteFollowNotification,
  deleteLikeNotification,
  findGroupActors,
  findNotificationState,
  findNotifications,
  GROUP_ACTOR_KEY_COLUMNS,
  type GroupActorRow,
  insertNotification,
  markAllNotificationsRead,
  markNotificationRead,
  NOTIFICATION_KEY_COLUMNS,
  type NotificationRow,
} from './notification.repository.js';
import {
  type GroupActorsInput,
  type MarkAllReadResult,
  type Notification,
  type NotificationActor,
  type NotificationIdInput,
  type NotificationPageInput,
  type NotificationReadResult,
  type NotificationRemoval,
  type RemovedItem,
  SNIPPET_MAX_LENGTH,
  type UnreadCount,
} from './notification.schema.js';

export const NOTIFICATION_LIST_LIMIT = 50;
export const NOTIFICATION_NOT_FOUND = ERROR_REASONS.NOTIFICATION_NOT_FOUND;

/** Who a 'removal' notification is from. */
export const MODERATORS_NAME = 'Moderators';

/** What the UI shows after the username ("alice liked your post"). */
export const NOTIFICATION_MESSAGES: Record<NotificationType, string> = {
  like: 'liked your post',
  comment: 'commented on your post',
  follow: 'started following you',
  removal: 'removed your content',
  mention: 'mentioned you',
  repost: 'reposted your post',
  quote: 'quoted your post',
  // The whole line, from the note the notification was written with (polls/poll.repository.ts).
  poll_ended: 'A poll you voted in has ended',
};

/**
 * A removal's note, as moderation.actions.ts writes it: `removed your <item>. Reason: <reason>`.
 * The English line stays the `message` of older clients; this reads what and why back out of it.
 */
const REMOVAL_NOTE = /^removed your (post|comment|message)\. Reason: ([\s\S]*)$/;

/** The note of a removal (moderation.actions.ts writes it). */
export function removalNote(item: RemovedItem, reason: string): string {
  return `removed your ${item}. Reason: ${reason}`;
}

/** What and why of a removal's note; null for a note in another shape. */
export function removalOf(note: string | null): NotificationRemoval | null {
  const match = note ? REMOVAL_NOTE.exec(note) : null;
  if (!match) return null;
  return { item: match[1] as RemovedItem, reason: match[2] ?? '' };
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

/** Writes a notification; none for acting on yourself, nor for a recipient who muted or blocked the actor. */
export async function notify(em: EntityManager, n: NewNotification): Promise<void> {
  if (n.recipientId === n.actorId) return;
  await insertNotification(em, {
    id: randomUUID(),
    recipientId: n.recipientId,
    actorId: n.actorId,
    type: n.type,
    postId: n.postId,
    commentId: n.commentId ?? null,
    at: n.at,
    groupKey: notificationGroupKey(n.type, n.postId, n.at),
  });
}

/** Undoing a like or follow takes its notification back. */
export function retractLikeNotification(em: EntityManager, actorId: string, postId: string): Promise<void> {
  return deleteLikeNotification(em, actorId, postId);
}

export function retractFollowNotification(
  em: EntityManager,
  actorId: string,
  recipientId: string,
): Promise<void> {
  return deleteFollowNotification(em, actorId, recipientId);
}

/** The caller's newest notifications, with the actor joined in the same query. */
export function listNotifications(ctx: AuthedContext): Promise<Notification[]> {
  const me = ctx.session.user.id;
  return memberRead(ctx.cacheScope, 'notifications', me, 'list', () => readNotifications(ctx.em, me));
}

async function readNotifications(em: EntityManager, recipientId: string): Promise<Notification[]> {
  const rows = await findNotifications(em, recipientId, NOTIFICATION_LIST_LIMIT);
  return rows.map(toNotification);
}

/**
 * The start of what was said, on one line: at most SNIPPET_MAX_LENGTH characters (never half an
 * emoji), cut after a word where one ends late enough, with an ellipsis when cut.
 */
export function snippetOf(content: string | null): string | null {
  if (content === null) return null;
  const flat = content.replace(/\s+/g, ' ').trim();
  if (!flat) return null;
  const chars = Array.from(flat);
  if (chars.length <= SNIPPET_MAX_LENGTH) return flat;
  const cut = chars.slice(0, SNIPPET_MAX_LENGTH - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space >= cut.length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function toActor(row: GroupActorRow): NotificationActor {
  return { id: row.id, username: row.username, displayName: row.display_name, avatarUrl: row.avatar_url };
}

function toNotification(row: NotificationRow): Notification {
  const removal = row.type === 'removal';
  const actors = removal
    ? []
    : (row.actors ?? [
        {
          id: row.actor_id,
          username: row.username,
          display_name: row.display_name,
          avatar_url: row.avatar_url,
        },
      ]);
  return {
    id: row.id,
    type: row.type,
    // A removal comes from the moderators as a body, never from one of them by name.
    username: row.type === 'removal' ? MODERATORS_NAME : row.username,
    userAvatar: row.type === 'removal' ? null : row.avatar_url,
    message:
      row.type === 'removal' || row.type === 'poll_ended'
        ? (row.note ?? NOTIFICATION_MESSAGES[row.type])
        : NOTIFICATION_MESSAGES[row.type],
    timestamp: new Date(row.created_at),
    isRead: row.is_read,
    postId: row.post_id,
    snippet: snippetOf(row.snippet),
    groupKey: row.group_key,
    actors: actors.map(toActor),
    actorsCount: removal ? 0 : row.actors_count,
    removal: removal ? removalOf(row.note) : null,
    // An ended poll's notification to its author is from themself (polls/poll.repository.ts).
    poll: row.type === 'poll_ended' ? { own: row.self_acted } : null,
  };
}

/** The notifications page pages from the newest back. */
export const notificationKeyset = keyset({
  name: 'notifications',
  order: 'desc',
  key: { createdAt: 'timestamp', id: 'uuid' },
});

/**
 * A page of the caller's notifications (/notifications): every kind or mentions only, newest
 * first; the first page of each is kept (member-reads.ts) until their notifications change.
 */
export function pageNotifications(
  ctx: AuthedContext,
  input: NotificationPageInput,
): Promise<Page<Notification>> {
  const me = ctx.session.user.id;
  const cursor = notificationKeyset.decode(input.cursor);
  const read = async () => {
    const rows = await findNotifications(ctx.em, me, input.limit + 1, {
      filter: input.filter,
      after: cursor ? notificationKeyset.continuing(cursor, NOTIFICATION_KEY_COLUMNS) : null,
    });
    return notificationKeyset.page(rows, input.limit, toNotification, (row) => ({
      createdAt: row.created_at,
      id: row.id,
    }));
  };
  if (cursor) return read();
  return memberRead(ctx.cacheScope, 'notifications', me, `page:${input.filter}:${input.limit}`, read);
}

/** A group's actors page from the newest back, on their notification rows' (created_at, id). */
export const groupActorsKeyset = keyset({
  name: 'notification-actors',
  order: 'desc',
  key: { createdAt: 'timestamp', id: 'uuid' },
});

/**
 * Everyone in the group of one of the caller's notifications (the item's id), newest first, paged;
 * those the caller cannot see (muted, blocked either way, suspended) are left out. 404 for an id
 * that is not one of the caller's notifications.
 */
export async function listGroupActors(
  ctx: AuthedContext,
  input: GroupActorsInput,
): Promise<Page<NotificationActor>> {
  const me = ctx.session.user.id;
  const id = requireUuid(input.id, NOTIFICATION_NOT_FOUND);
  const cursor = groupActorsKeyset.decode(input.cursor);
  const { found, rows } = await findGroupActors(
    ctx.em,
    me,
    id,
    input.limit + 1,
    cursor ? groupActorsKeyset.continuing(cursor, GROUP_ACTOR_KEY_COLUMNS) : null,
  );
  if (!found) throw notFound(NOTIFICATION_NOT_FOUND);
  return groupActorsKeyset.page(rows, input.limit, toActor, (row) => ({
    createdAt: row.created_at,
    id: row.nid,
  }));
}

/**
 * Marks one of the caller's notifications read (they opened it), with every notification of its
 * group; 404 for anyone else's. The
 * bell of each of their tabs and devices hears it, on every instance.
 */
export async function markRead(
  ctx: AuthedContext,
  input: NotificationIdInput,
): Promise<NotificationReadResult> {
  const me = ctx.session.user.id;
  const id = requireUuid(input.id, NOTIFICATION_NOT_FOUND);
  const { found, updated } = await markNotificationRead(ctx.em, me, id, ctx.now());
  if (!found) throw notFound(NOTIFICATION_NOT_FOUND);
  if (updated > 0) publishEvent(ctx, 'notifications', { recipientId: me });
  return { ok: true, updated };
}

/** For the bell's badge; served by the partial index on unread rows. */
export function countUnread(ctx: AuthedContext): Promise<UnreadCount> {
  const me = ctx.session.user.id;
  return memberRead(ctx.cacheScope, 'notifications', me, 'unread', async () => ({
    count: await countUnreadNotifications(ctx.em, me),
  }));
}

export async function markAllRead(ctx: AuthedContext): Promise<MarkAllReadResult> {
  const updated = await markAllNotificationsRead(ctx.em, ctx.session.user.id, ctx.now());
  // The user's other tabs and devices clear their badge too.
  if (updated > 0) publishEvent(ctx, 'notifications', { recipientId: ctx.session.user.id });
  return { ok: true, updated };
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
  const { unread, newest } = await findNotificationState(em, recipientId);
  return { unreadCount: unread, newestId: newest };
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
