/**
 * Every statement of moderation: the moderator check, the open-reports queue and each item's
 * surroundings, the audit log, and the writes an action makes (close reports, hide content,
 * suspend or reinstate a member). The service files hold the rules; these run inside the
 * transaction they are given.
 */
import type {
  IModerationAction,
  IReport,
  ModerationActionType,
  ReportStatus,
  ReportTargetType,
  Row,
  UserRole,
} from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { keyset } from '../../paging.js';
import { empty, firstRow, iso, raw, rows, sql } from '../../sql.js';
import { notSuspended, shownMemberOf } from './suspension.sql.js';

/** The queue reads oldest first: the longest-waiting report is at the top. */
export const queueKeyset = keyset({
  name: 'reports',
  order: 'asc',
  key: { createdAt: 'timestamp', id: 'uuid' },
});
export const logKeyset = keyset({
  name: 'moderation-log',
  order: 'desc',
  key: { createdAt: 'timestamp', id: 'uuid' },
});

export async function roleOf(em: EntityManager, userId: string): Promise<string | undefined> {
  const row = await firstRow<{ role: string }>(em, sql`select role from users where id = ${userId}`);
  return row?.role;
}

/** An open report with its reporter and the member it is about (their suspension as of `now`). */
export interface ReportRow {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: string;
  created_at: string;
  reporter_id: string;
  reporter_username: string;
  reporter_display_name: string;
  user_id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  suspended_at: string | null;
  suspended_until: string | null;
  suspended_now: boolean;
  open_on_item: number;
}

/** `limit + 1` open reports after `cursor`, oldest first. */
export function openReportRows(
  em: EntityManager,
  query: { now: Date; cursor: { createdAt: string; id: string } | null; limit: number },
): Promise<ReportRow[]> {
  const columns = { createdAt: 'r.created_at', id: 'r.id' };
  const after = query.cursor ? sql`and ${queueKeyset.continuing(query.cursor, columns)}` : empty;
  return rows<ReportRow>(
    em,
    sql`select r.id, r.target_type, r.target_id, r.reason, ${iso('r.created_at')} as created_at,
            rp.id as reporter_id, rp.username as reporter_username, rp.display_name as reporter_display_name,
            t.id as user_id, t.username, t.display_name, t.avatar_url,
            ${iso('t.suspended_at')} as suspended_at, ${iso('t.suspended_until')} as suspended_until,
            (t.suspended_at is not null and (t.suspended_until is null or t.suspended_until > ${query.now})) as suspended_now,
            (select count(*)::int from reports o
              where o.target_type = r.target_type and o.target_id = r.target_id and o.status = 'open') as open_on_item
       from reports r
       join users rp on rp.id = r.reporter_id
       join users t on t.id = r.target_user_id
      where r.status = 'open' ${after}
      order by ${queueKeyset.ordering(columns)}
      limit ${query.limit + 1}`,
  );
}

/** One row of a reported item's surroundings. */
export interface ContextRow {
  id: string;
  username: string;
  content: string;
  image_url: string | null;
  created_at: string;
  removed: boolean;
}

const POST_COLUMNS = sql`p.id, u.username, p.content, p.image_url, ${iso('p.created_at')} as created_at,
    p.removed_at is not null as removed`;

export function postContext(em: EntityManager, postId: string): Promise<ContextRow[]> {
  return rows<ContextRow>(
    em,
    sql`select ${POST_COLUMNS} from posts p join users u on u.id = p.author_id where p.id = ${postId}`,
  );
}

export function commentContext(
  em: EntityManager,
  commentId: string,
): Promise<(ContextRow & { post_id: string }) | undefined> {
  return firstRow<ContextRow & { post_id: string }>(
    em,
    sql`select c.id, c.post_id, u.username, c.content, null as image_url,
              ${iso('c.created_at')} as created_at, c.removed_at is not null as removed
         from comments c join users u on u.id = c.author_id where c.id = ${commentId}`,
  );
}

/** The message and the `before` messages of its conversation before it, newest first. */
export function messageContext(em: EntityManager, messageId: string, before: number): Promise<ContextRow[]> {
  return rows<ContextRow>(
    em,
    sql`with m as (select * from direct_messages where id = ${messageId})
       select d.id, u.username, d.content, null as image_url, ${iso('d.created_at')} as created_at,
              d.removed_at is not null as removed
         from m
         join direct_messages d
           on ((d.sender_id = m.sender_id and d.receiver_id = m.receiver_id)
            or (d.sender_id = m.receiver_id and d.receiver_id = m.sender_id))
          and (d.created_at, d.id) <= (m.created_at, m.id)
         join users u on u.id = d.sender_id
        order by d.created_at desc, d.id desc
        limit ${before + 1}`,
  );
}

export function profileContext(em: EntityManager, userId: string): Promise<ContextRow[]> {
  return rows<ContextRow>(
    em,
    sql`select u.id, u.username, concat_ws(E'\\n', u.display_name, u.bio) as content, u.avatar_url as image_url,
            ${iso('u.created_at')} as created_at, false as removed
       from users u where u.id = ${userId}`,
  );
}

/** An audit row as the log reads it: the table's columns, its times as ISO text. */
export type LogRow = Pick<
  Row<IModerationAction>,
  'id' | 'action' | 'moderator_username' | 'target_type' | 'target_id' | 'target_username' | 'note'
> & { suspended_until: string | null; created_at: string };

const LOG_COLUMNS = sql`id, action, moderator_username, target_type, target_id, target_username, note,
  ${iso('suspended_until')} as suspended_until, ${iso('created_at')} as created_at`;

/** `limit + 1` audit rows after `cursor`, newest first. */
export function logRows(
  em: EntityManager,
  query: { cursor: { createdAt: string; id: string } | null; limit: number },
): Promise<LogRow[]> {
  const columns = { createdAt: 'created_at', id: 'id' };
  const after = query.cursor ? sql`where ${logKeyset.continuing(query.cursor, columns)}` : empty;
  return rows<LogRow>(
    em,
    sql`select ${LOG_COLUMNS} from moderation_actions
      ${after}
      order by ${logKeyset.ordering(columns)}
      limit ${query.limit + 1}`,
  );
}

export interface AuditRecord {
  id: string;
  moderatorId: string;
  moderatorUsername: string;
  action: ModerationActionType;
  reportId: string | null;
  targetType: ReportTargetType;
  targetId: string;
  targetUserId: string | null;
  note: string;
  suspendedUntil: Date | null;
  at: Date;
}

/** One audit row; the target's username is copied as it is now. */
export async function insertAudit(em: EntityManager, record: AuditRecord): Promise<LogRow> {
  const row = await firstRow<LogRow>(
    em,
    sql`insert into moderation_actions (id, moderator_id, moderator_username, action, report_id, target_type,
        target_id, target_user_id, target_username, note, suspended_until, created_at)
     select ${record.id}, ${record.moderatorId}, ${record.moderatorUsername}, ${record.action}, ${record.reportId},
            ${record.targetType}, ${record.targetId}, ${record.targetUserId},
            coalesce((select username from users where id = ${record.targetUserId}), ''), ${record.note},
            ${record.suspendedUntil}, ${record.at}
     returning ${LOG_COLUMNS}`,
  );
  if (!row) throw new Error('the audit row was not written');
  return row;
}

export type ReportLock = Pick<Row<IReport>, 'id' | 'target_type' | 'target_id' | 'target_user_id'> & {
  status: ReportStatus;
};

/** The report, locked for the transaction (`for update`). */
export function lockReport(em: EntityManager, reportId: string): Promise<ReportLock | undefined> {
  return firstRow<ReportLock>(
    em,
    sql`select id, target_type, target_id, target_user_id, status from reports where id = ${reportId} for update`,
  );
}

/** Closes every open report of one item with `status`. */
export async function closeReportsOfItem(
  em: EntityManager,
  item: { target_type: ReportTargetType; target_id: string },
  status: ReportStatus,
  by: string,
  now: Date,
): Promise<void> {
  await rows(
    em,
    sql`update reports set status = ${status}, resolved_at = ${now}, resolved_by_id = ${by}
      where target_type = ${item.target_type} and target_id = ${item.target_id} and status = 'open'`,
  );
}

export async function dismiss(em: EntityManager, reportId: string, by: string, now: Date): Promise<void> {
  await rows(
    em,
    sql`update reports set status = 'dismissed', resolved_at = ${now}, resolved_by_id = ${by} where id = ${reportId}`,
  );
}

/** Hides a post not hidden yet; its author (and whether they are suspended), or undefined. */
export function hidePost(
  em: EntityManager,
  postId: string,
  now: Date,
): Promise<{ author_id: string; author_hidden: boolean } | undefined> {
  return firstRow(
    em,
    sql`update posts set removed_at = ${now} where id = ${postId} and removed_at is null
        returning author_id, not ${shownMemberOf(raw('posts.author_id'))} as author_hidden`,
  );
}

/**
 * Hides a comment not hidden yet and takes it off its post's count; its author and post (the
 * post's author, and whether the post is out of everyone's sight), or undefined.
 */
export async function hideComment(
  em: EntityManager,
  commentId: string,
  now: Date,
): Promise<{ author_id: string; post_id: string; post_author_id: string; post_hidden: boolean } | undefined> {
  const row = await firstRow<{
    author_id: string;
    post_id: string;
    post_author_id: string;
    post_hidden: boolean;
  }>(
    em,
    sql`update comments c set removed_at = ${now} from posts p
        where c.id = ${commentId} and c.removed_at is null and p.id = c.post_id
        returning c.author_id, c.post_id, p.author_id as post_author_id,
          (p.removed_at is not null or not ${shownMemberOf(raw('p.author_id'))}) as post_hidden`,
  );
  if (!row) return undefined;
  // The post's count is of the comments readers see.
  await rows(
    em,
    sql`update posts set comments_count = comments_count - 1 where id = ${row.post_id} and comments_count > 0`,
  );
  return row;
}

/** Hides a message not hidden yet, and marks it read; its sender and receiver, or undefined. */
export function hideMessage(
  em: EntityManager,
  messageId: string,
  now: Date,
): Promise<{ sender_id: string; receiver_id: string } | undefined> {
  return firstRow(
    em,
    sql`update direct_messages set removed_at = ${now}, read_at = coalesce(read_at, ${now})
      where id = ${messageId} and removed_at is null returning sender_id, receiver_id`,
  );
}

export async function insertRemovalNotification(
  em: EntityManager,
  notice: { id: string; recipientId: string; actorId: string; postId: string | null; note: string; at: Date },
): Promise<void> {
  await rows(
    em,
    sql`insert into notifications (id, recipient_id, actor_id, type, post_id, note, created_at)
         values (${notice.id}, ${notice.recipientId}, ${notice.actorId}, 'removal', ${notice.postId}, ${notice.note}, ${notice.at})`,
  );
}

export function findMember(
  em: EntityManager,
  userId: string,
): Promise<{ id: string; role: string } | undefined> {
  return firstRow(em, sql`select id, role from users where id = ${userId}`);
}

export async function suspend(
  em: EntityManager,
  userId: string,
  now: Date,
  until: Date | null,
): Promise<void> {
  await rows(
    em,
    sql`update users set suspended_at = ${now}, suspended_until = ${until} where id = ${userId}`,
  );
}

/** Ends a suspension in force at `now`; false when the member was not suspended. */
export async function liftSuspension(em: EntityManager, userId: string, now: Date): Promise<boolean> {
  const lifted = await rows(
    em,
    sql`update users set suspended_at = null, suspended_until = null
        where id = ${userId} and suspended_at is not null and (suspended_until is null or suspended_until > ${now})
        returning id`,
  );
  return lifted.length > 0;
}

/** Whose bells hold a notification from `userId`. */
export async function notifiedBy(em: EntityManager, userId: string): Promise<string[]> {
  const found = await rows<{ recipient_id: string }>(
    em,
    sql`select distinct recipient_id from notifications where actor_id = ${userId}`,
  );
  return found.map((row) => row.recipient_id);
}

export function updateRole(
  em: EntityManager,
  username: string,
  role: UserRole,
): Promise<{ username: string; role: string } | undefined> {
  return firstRow(
    em,
    sql`update users set role = ${role} where lower(username) = lower(${username}) returning username, role`,
  );
}

/** The member's suspension at `now`: undefined when they are not suspended. */
export function findSuspension(
  em: EntityManager,
  userId: string,
  now: Date,
): Promise<{ suspended_until: Date | null } | undefined> {
  return firstRow(
    em,
    sql`select u.suspended_until from users u where u.id = ${userId} and not ${notSuspended('u', now)}`,
  );
}
