/**
 * Every SQL statement of web push: a browser's subscription (saved by the member who registered
 * it, trimmed, removed), a member's per-kind choices, and the claims that hand each notification or
 * direct message to the send queue once: a claim is an insert into push_deliveries, so whichever
 * instance or job run claims first sends, and the others find nothing. What is claimed obeys the
 * bell's rules: no push from someone the recipient muted, across a block, or while either side
 * is suspended.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { firstRow, raw, rows, type Sql, sql } from '../../sql.js';
import { shownMember, shownMemberOf } from '../moderation/suspension.sql.js';
import { SNIPPET_READ_MAX } from '../notifications/notification.repository.js';
import { column, notBlocked, notMuted } from '../safety/safety.sql.js';
import type { PushPreferences } from './push.schema.js';

/** A member keeps at most this many browsers subscribed; a new one beyond it drops the oldest. */
export const MAX_SUBSCRIPTIONS_PER_MEMBER = 10;

/** Only notifications and messages this recent are pushed: none from before a subscription. */
export const PUSH_WINDOW_MINUTES = 10;

export interface SubscriptionRow {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Saves `s.userId`'s subscription, or renews it (keys, time) when it is theirs already. An
 * endpoint another member registered stays theirs: nothing is written, and the answer is false.
 * One statement decides, so two members posting one endpoint at once cannot both have it.
 */
export async function upsertSubscription(
  em: EntityManager,
  s: { id: string; userId: string; endpoint: string; p256dh: string; auth: string; at: Date },
): Promise<boolean> {
  const saved = await rows<{ id: string }>(
    em,
    sql`insert into push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at)
        values (${s.id}, ${s.userId}, ${s.endpoint}, ${s.p256dh}, ${s.auth}, ${s.at})
        on conflict (endpoint) do update
          set p256dh = excluded.p256dh, auth = excluded.auth, created_at = excluded.created_at
          where push_subscriptions.user_id = excluded.user_id
        returning id`,
  );
  if (saved.length === 0) return false;
  await rows(
    em,
    sql`delete from push_subscriptions where user_id = ${s.userId} and id not in (
          select id from push_subscriptions where user_id = ${s.userId}
           order by created_at desc, id desc limit ${MAX_SUBSCRIPTIONS_PER_MEMBER})`,
  );
  return true;
}

/** Removes the member's subscription at `endpoint`; another member's is left alone. */
export async function deleteSubscription(
  em: EntityManager,
  userId: string,
  endpoint: string,
): Promise<number> {
  const deleted = await rows<{ id: string }>(
    em,
    sql`delete from push_subscriptions where user_id = ${userId} and endpoint = ${endpoint} returning id`,
  );
  return deleted.length;
}

/** The push service said the subscription is gone (404/410). */
export async function deleteSubscriptionById(em: EntityManager, id: string): Promise<void> {
  await rows(em, sql`delete from push_subscriptions where id = ${id}`);
}

export function findSubscription(em: EntityManager, id: string): Promise<SubscriptionRow | undefined> {
  return firstRow<SubscriptionRow>(
    em,
    sql`select id, user_id, endpoint, p256dh, auth from push_subscriptions where id = ${id}`,
  );
}

export function findSubscriptionIds(em: EntityManager, userId: string): Promise<{ id: string }[]> {
  return rows<{ id: string }>(
    em,
    sql`select id from push_subscriptions where user_id = ${userId} order by created_at desc`,
  );
}

/** Whether `userId` has any browser subscribed (push.reach.ts keeps the answer). */
export async function hasAnySubscription(em: EntityManager, userId: string): Promise<boolean> {
  const found = await preparedRows(
    em,
    sql`select 1 from push_subscriptions where user_id = ${userId}::uuid limit 1`,
  );
  return found.length > 0;
}

export async function hasSubscription(em: EntityManager, userId: string, endpoint: string): Promise<boolean> {
  return (
    (await firstRow(
      em,
      sql`select 1 from push_subscriptions where user_id = ${userId} and endpoint = ${endpoint}`,
    )) !== undefined
  );
}

export async function findPreferences(em: EntityManager, userId: string): Promise<PushPreferences> {
  const row = await firstRow<PushPreferences>(
    em,
    sql`select likes, comments, follows, mentions, messages from push_preferences where user_id = ${userId}`,
  );
  return row ?? { likes: true, comments: true, follows: true, mentions: true, messages: true };
}

/** Changes the kinds given, keeps the others (all on for a member with no row yet); one statement. */
export async function savePreferences(
  em: EntityManager,
  userId: string,
  p: Partial<PushPreferences>,
): Promise<PushPreferences> {
  const value = (v: boolean | undefined) => sql`${v ?? null}::boolean`;
  const row = await firstRow<PushPreferences>(
    em,
    sql`insert into push_preferences (user_id, likes, comments, follows, mentions, messages)
        values (${userId}, coalesce(${value(p.likes)}, true), coalesce(${value(p.comments)}, true),
                coalesce(${value(p.follows)}, true), coalesce(${value(p.mentions)}, true),
                coalesce(${value(p.messages)}, true))
        on conflict (user_id) do update
          set likes = coalesce(${value(p.likes)}, push_preferences.likes),
              comments = coalesce(${value(p.comments)}, push_preferences.comments),
              follows = coalesce(${value(p.follows)}, push_preferences.follows),
              mentions = coalesce(${value(p.mentions)}, push_preferences.mentions),
              messages = coalesce(${value(p.messages)}, push_preferences.messages)
        returning likes, comments, follows, mentions, messages`,
  );
  return row as PushPreferences;
}

/** The recipient (alias `r`) wants pushes of this kind (`kindColumn` of push_preferences). */
function wants(recipient: Sql, kind: Sql): Sql {
  return sql`coalesce((select ${kind} from push_preferences pp where pp.user_id = ${recipient}), true)`;
}

/** The recipient has a browser to push to, and may act (not suspended). */
function reachable(recipient: Sql): Sql {
  return sql`exists (select 1 from push_subscriptions ps where ps.user_id = ${recipient})
    and ${shownMemberOf(recipient)}`;
}

export interface ClaimedNotification {
  id: string;
  type: string;
  post_id: string | null;
  /** the actor's */
  username: string;
  display_name: string;
  /** what was said to the recipient (a comment, or what mentions them), up to SNIPPET_READ_MAX; else null */
  snippet: string | null;
  /** the recipient's (users.language): the service worker words the push in it */
  language: string;
}

/**
 * What a pushed notification quotes: the comment of a comment or of a mention in one, the post of
 * a mention in a post; nothing once removed (the comment or its post), nor a post behind a content
 * warning (its folded card shows the warning, not the words). A like quotes nothing (the post is
 * the recipient's own).
 */
const pushedSnippet = sql`case
    when n.type in ('comment', 'mention') and n.comment_id is not null then
      (select left(c.content, ${SNIPPET_READ_MAX}) from comments c join posts p on p.id = c.post_id
        where c.id = n.comment_id and c.removed_at is null and p.removed_at is null)
    when n.type = 'mention' then
      (select left(p.content, ${SNIPPET_READ_MAX}) from posts p
        where p.id = n.post_id and p.removed_at is null and p.content_warning is null)
  end`;

/**
 * Claims `recipientId`'s recent, unread notifications not pushed yet, of the kinds they want, as
 * the bell would show them. The mention kind is matched by name.
 */
export function claimNotificationPushes(
  em: EntityManager,
  recipientId: string,
): Promise<ClaimedNotification[]> {
  const recipient = column('n.recipient_id');
  const actor = column('n.actor_id');
  const kind = sql`case n.type when 'like' then pp.likes when 'comment' then pp.comments
    when 'follow' then pp.follows when 'mention' then pp.mentions else false end`;
  return rows<ClaimedNotification>(
    em,
    sql`with fresh as (
          select n.id, n.type, n.post_id, u.username, u.display_name, ${pushedSnippet} as snippet,
                 r.language
            from notifications n
            join users u on u.id = n.actor_id
            join users r on r.id = n.recipient_id
           where n.recipient_id = ${recipientId} and n.read_at is null
             and n.type in ('like', 'comment', 'follow', 'mention')
             and n.created_at > now() - make_interval(mins => ${PUSH_WINDOW_MINUTES})
             and ${notMuted(recipient, actor)} and ${notBlocked(recipient, actor)} and ${shownMember('u')}
             and coalesce((select ${kind} from push_preferences pp where pp.user_id = n.recipient_id), true)
             and ${reachable(recipient)}
             and not exists (select 1 from push_deliveries d where d.source_id = n.id)
        ), claimed as (
          insert into push_deliveries (source_id) select id from fresh
          on conflict do nothing returning source_id
        )
        select fresh.* from fresh join claimed on claimed.source_id = fresh.id`,
  );
}

export interface ClaimedMessage {
  id: string;
  sender_id: string;
  username: string;
  display_name: string;
  /** the receiver's (users.language) */
  language: string;
}

/** Claims the direct message `messageId` for a push to its receiver `receiverId`, if due. */
export function claimMessagePush(
  em: EntityManager,
  messageId: string,
  receiverId: string,
): Promise<ClaimedMessage | undefined> {
  const receiver = column('m.receiver_id');
  const sender = column('m.sender_id');
  return firstRow<ClaimedMessage>(
    em,
    sql`with fresh as (
          select m.id, m.sender_id, u.username, u.display_name, r.language
            from direct_messages m
            join users u on u.id = m.sender_id
            join users r on r.id = m.receiver_id
           where m.id = ${messageId} and m.receiver_id = ${receiverId} and m.read_at is null
             and m.created_at > now() - make_interval(mins => ${PUSH_WINDOW_MINUTES})
             and ${notMuted(receiver, sender)} and ${notBlocked(receiver, sender)} and ${shownMember('u')}
             and ${wants(receiver, raw('pp.messages'))}
             and ${reachable(receiver)}
        ), claimed as (
          insert into push_deliveries (source_id) select id from fresh
          on conflict do nothing returning source_id
        )
        select fresh.* from fresh join claimed on claimed.source_id = fresh.id`,
  );
}

/** Forgets claims older than `before`: nothing that old is pushed any more. */
export async function sweepDeliveries(em: EntityManager, before: Date): Promise<number> {
  return (await rows(em, sql`delete from push_deliveries where created_at < ${before} returning source_id`))
    .length;
}
