/**
 * Moderators: the open-reports queue with each item in context, the actions on a report
 * (dismiss it, remove the content, suspend its author or the member) and the audit log every
 * action writes in the same transaction. Removed content is hidden, not deleted (`removed_at`),
 * and its author is notified with the reason. Only moderators reach any of this: to everyone
 * else the procedures do not exist (404), like the page.
 */
import { randomUUID } from 'node:crypto';
import {
  isModeratorRole,
  type ModerationActionType,
  type ReportStatus,
  type ReportTargetType,
  type UserRole,
} from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { TRPCError } from '@trpc/server';
import { type Context, type CurrentSession, publishEvent } from '../../context.js';
import { badRequest, notFound, requireUuid } from '../../errors.js';
import { keyset, type Page, type PageInput } from '../../paging.js';
import { isoTime } from '../../sql.js';
import { revokeSessions } from '../auth/session.service.js';
import type {
  DismissReportInput,
  RemoveContentInput,
  SuspendUserInput,
  UnsuspendUserInput,
} from './moderation.schema.js';

export const NOT_FOUND_MESSAGE = 'Not found';
export const REPORT_NOT_FOUND = 'Report not found';
export const REPORT_CLOSED = 'This report is already closed';
const USER_NOT_FOUND = 'User not found';

export type ModeratorContext = Context & { session: CurrentSession };

/** The caller, if a moderator; 404 for everyone else, logged in or not. */
export async function requireModerator(ctx: Context): Promise<CurrentSession> {
  if (!ctx.session) throw notFound(NOT_FOUND_MESSAGE);
  const rows = await ctx.em.execute<{ role: string }[]>('select role from users where id = ?', [
    ctx.session.user.id,
  ]);
  if (!isModeratorRole(rows[0]?.role)) throw notFound(NOT_FOUND_MESSAGE);
  return ctx.session;
}

export interface ModerationUser {
  id: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  /** null when not suspended now */
  suspension: { since: Date; until: Date | null } | null;
}

/** One piece of the reported item's surroundings; `reported` marks the item itself. */
export interface ContextEntry {
  id: string;
  kind: 'post' | 'comment' | 'message' | 'profile';
  username: string;
  content: string;
  imageUrl: string | null;
  createdAt: Date;
  reported: boolean;
  removed: boolean;
}

export interface OpenReportDto {
  id: string;
  targetType: ReportTargetType;
  targetId: string;
  reason: string;
  createdAt: Date;
  reporter: { id: string; username: string; displayName: string };
  targetUser: ModerationUser;
  /** open reports of the same item, this one included */
  openReportsOnItem: number;
  /** empty when the item no longer exists (its author deleted it) */
  context: ContextEntry[];
}

export interface ModerationLogEntry {
  id: string;
  action: ModerationActionType;
  moderatorUsername: string;
  targetType: ReportTargetType;
  targetId: string;
  targetUsername: string;
  note: string;
  suspendedUntil: Date | null;
  createdAt: Date;
}

/** The queue reads oldest first: the longest-waiting report is at the top. */
const queueKeyset = keyset({ name: 'reports', order: 'asc', key: { createdAt: 'timestamp', id: 'uuid' } });
const logKeyset = keyset({
  name: 'moderation-log',
  order: 'desc',
  key: { createdAt: 'timestamp', id: 'uuid' },
});

interface ReportRow {
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

interface ContextRow {
  id: string;
  username: string;
  content: string;
  image_url: string | null;
  created_at: string;
  removed: boolean;
}

function entry(row: ContextRow, kind: ContextEntry['kind'], reportedId: string): ContextEntry {
  return {
    id: row.id,
    kind,
    username: row.username,
    content: row.content,
    imageUrl: row.image_url,
    createdAt: new Date(row.created_at),
    reported: row.id === reportedId,
    removed: row.removed,
  };
}

/** How many earlier messages of the conversation a reported message is shown with. */
const MESSAGE_CONTEXT = 3;

/**
 * The reported item and what a moderator needs to judge it: a comment under its post, a
 * message after the few before it in that conversation, a member's profile. Removed rows are
 * shown (marked), since moderators judge them.
 */
async function contextOf(em: EntityManager, type: ReportTargetType, id: string): Promise<ContextEntry[]> {
  const postColumns = `p.id, u.username, p.content, p.image_url, ${isoTime('p.created_at')} as created_at,
    p.removed_at is not null as removed`;
  if (type === 'post') {
    const rows = await em.execute<ContextRow[]>(
      `select ${postColumns} from posts p join users u on u.id = p.author_id where p.id = ?`,
      [id],
    );
    return rows.map((r) => entry(r, 'post', id));
  }
  if (type === 'comment') {
    const [comment] = await em.execute<(ContextRow & { post_id: string })[]>(
      `select c.id, c.post_id, u.username, c.content, null as image_url,
              ${isoTime('c.created_at')} as created_at, c.removed_at is not null as removed
         from comments c join users u on u.id = c.author_id where c.id = ?`,
      [id],
    );
    if (!comment) return [];
    const posts = await em.execute<ContextRow[]>(
      `select ${postColumns} from posts p join users u on u.id = p.author_id where p.id = ?`,
      [comment.post_id],
    );
    return [...posts.map((r) => entry(r, 'post', id)), entry(comment, 'comment', id)];
  }
  if (type === 'message') {
    const rows = await em.execute<ContextRow[]>(
      `with m as (select * from direct_messages where id = ?)
       select d.id, u.username, d.content, null as image_url, ${isoTime('d.created_at')} as created_at,
              d.removed_at is not null as removed
         from m
         join direct_messages d
           on ((d.sender_id = m.sender_id and d.receiver_id = m.receiver_id)
            or (d.sender_id = m.receiver_id and d.receiver_id = m.sender_id))
          and (d.created_at, d.id) <= (m.created_at, m.id)
         join users u on u.id = d.sender_id
        order by d.created_at desc, d.id desc
        limit ?`,
      [id, MESSAGE_CONTEXT + 1],
    );
    return rows.reverse().map((r) => entry(r, 'message', id));
  }
  const rows = await em.execute<ContextRow[]>(
    `select u.id, u.username, concat_ws(E'\\n', u.display_name, u.bio) as content, u.avatar_url as image_url,
            ${isoTime('u.created_at')} as created_at, false as removed
       from users u where u.id = ?`,
    [id],
  );
  return rows.map((r) => entry(r, 'profile', id));
}

export async function listOpenReports(ctx: ModeratorContext, input: PageInput): Promise<Page<OpenReportDto>> {
  const cursor = queueKeyset.decode(input.cursor);
  const columns = { createdAt: 'r.created_at', id: 'r.id' };
  const after = cursor ? queueKeyset.after(cursor, columns) : null;
  const now = ctx.now();
  const rows = await ctx.em.execute<ReportRow[]>(
    `select r.id, r.target_type, r.target_id, r.reason, ${isoTime('r.created_at')} as created_at,
            rp.id as reporter_id, rp.username as reporter_username, rp.display_name as reporter_display_name,
            t.id as user_id, t.username, t.display_name, t.avatar_url,
            ${isoTime('t.suspended_at')} as suspended_at, ${isoTime('t.suspended_until')} as suspended_until,
            (t.suspended_at is not null and (t.suspended_until is null or t.suspended_until > ?)) as suspended_now,
            (select count(*)::int from reports o
              where o.target_type = r.target_type and o.target_id = r.target_id and o.status = 'open') as open_on_item
       from reports r
       join users rp on rp.id = r.reporter_id
       join users t on t.id = r.target_user_id
      where r.status = 'open' ${after ? `and ${after.sql}` : ''}
      order by ${queueKeyset.orderBy(columns)}
      limit ?`,
    [now, ...(after?.params ?? []), input.limit + 1],
  );
  const page = queueKeyset.page(
    rows,
    input.limit,
    (row) => row,
    (row) => ({
      createdAt: row.created_at,
      id: row.id,
    }),
  );
  // One context query per report: a page is at most 50 reports, read by a few moderators.
  const items = await Promise.all(
    page.items.map(
      async (row): Promise<OpenReportDto> => ({
        id: row.id,
        targetType: row.target_type,
        targetId: row.target_id,
        reason: row.reason,
        createdAt: new Date(row.created_at),
        reporter: {
          id: row.reporter_id,
          username: row.reporter_username,
          displayName: row.reporter_display_name,
        },
        targetUser: {
          id: row.user_id,
          username: row.username,
          displayName: row.display_name,
          avatarUrl: row.avatar_url,
          suspension:
            row.suspended_now && row.suspended_at
              ? {
                  since: new Date(row.suspended_at),
                  until: row.suspended_until ? new Date(row.suspended_until) : null,
                }
              : null,
        },
        openReportsOnItem: row.open_on_item,
        context: await contextOf(ctx.em, row.target_type, row.target_id),
      }),
    ),
  );
  return { items, nextCursor: page.nextCursor };
}

interface LogRow {
  id: string;
  action: ModerationActionType;
  moderator_username: string;
  target_type: ReportTargetType;
  target_id: string;
  target_username: string;
  note: string;
  suspended_until: string | null;
  created_at: string;
}

function toLogEntry(row: LogRow): ModerationLogEntry {
  return {
    id: row.id,
    action: row.action,
    moderatorUsername: row.moderator_username,
    targetType: row.target_type,
    targetId: row.target_id,
    targetUsername: row.target_username,
    note: row.note,
    suspendedUntil: row.suspended_until ? new Date(row.suspended_until) : null,
    createdAt: new Date(row.created_at),
  };
}

const LOG_COLUMNS = `id, action, moderator_username, target_type, target_id, target_username, note,
  ${isoTime('suspended_until')} as suspended_until, ${isoTime('created_at')} as created_at`;

/** The audit log, newest first. */
export async function listLog(ctx: ModeratorContext, input: PageInput): Promise<Page<ModerationLogEntry>> {
  const cursor = logKeyset.decode(input.cursor);
  const columns = { createdAt: 'created_at', id: 'id' };
  const after = cursor ? logKeyset.after(cursor, columns) : null;
  const rows = await ctx.em.execute<LogRow[]>(
    `select ${LOG_COLUMNS} from moderation_actions
      ${after ? `where ${after.sql}` : ''}
      order by ${logKeyset.orderBy(columns)}
      limit ?`,
    [...(after?.params ?? []), input.limit + 1],
  );
  return logKeyset.page(rows, input.limit, toLogEntry, (row) => ({ createdAt: row.created_at, id: row.id }));
}

interface AuditInput {
  action: ModerationActionType;
  reportId: string | null;
  targetType: ReportTargetType;
  targetId: string;
  targetUserId: string | null;
  note: string;
  suspendedUntil?: Date | null;
  at: Date;
}

/** Writes one audit row in the action's transaction; the usernames are copied as they are now. */
async function audit(
  em: EntityManager,
  ctx: ModeratorContext,
  input: AuditInput,
): Promise<ModerationLogEntry> {
  const [row] = await em.execute<LogRow[]>(
    `insert into moderation_actions (id, moderator_id, moderator_username, action, report_id, target_type,
        target_id, target_user_id, target_username, note, suspended_until, created_at)
     select ?, ?, ?, ?, ?, ?, ?, ?, coalesce((select username from users where id = ?), ''), ?, ?, ?
     returning ${LOG_COLUMNS}`,
    [
      randomUUID(),
      ctx.session.user.id,
      ctx.session.user.username,
      input.action,
      input.reportId,
      input.targetType,
      input.targetId,
      input.targetUserId,
      input.targetUserId,
      input.note,
      input.suspendedUntil ?? null,
      input.at,
    ],
  );
  return toLogEntry(row!);
}

interface OpenReport {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  target_user_id: string;
  status: ReportStatus;
}

/** The report, locked for this transaction; 404 if unknown, 409 if a moderator already closed it. */
async function lockOpenReport(em: EntityManager, rawId: string): Promise<OpenReport> {
  const reportId = requireUuid(rawId, REPORT_NOT_FOUND);
  const [report] = await em.execute<OpenReport[]>(
    'select id, target_type, target_id, target_user_id, status from reports where id = ? for update',
    [reportId],
  );
  if (!report) throw notFound(REPORT_NOT_FOUND);
  if (report.status !== 'open') throw new TRPCError({ code: 'CONFLICT', message: REPORT_CLOSED });
  return report;
}

/** Closes every open report of one item: one decision answers all who reported it. */
async function closeReportsOfItem(
  em: EntityManager,
  ctx: ModeratorContext,
  item: { target_type: ReportTargetType; target_id: string },
  status: ReportStatus,
  now: Date,
): Promise<void> {
  await em.execute(
    `update reports set status = ?, resolved_at = ?, resolved_by_id = ?
      where target_type = ? and target_id = ? and status = 'open'`,
    [status, now, ctx.session.user.id, item.target_type, item.target_id],
  );
}

export async function dismissReport(
  ctx: ModeratorContext,
  input: DismissReportInput,
): Promise<{ ok: true; entry: ModerationLogEntry }> {
  const now = ctx.now();
  const entry = await ctx.em.transactional(async (em) => {
    const report = await lockOpenReport(em, input.reportId);
    await em.execute(
      `update reports set status = 'dismissed', resolved_at = ?, resolved_by_id = ? where id = ?`,
      [now, ctx.session.user.id, report.id],
    );
    return audit(em, ctx, {
      action: 'dismiss',
      reportId: report.id,
      targetType: report.target_type,
      targetId: report.target_id,
      targetUserId: report.target_user_id,
      note: input.note ?? '',
      at: now,
    });
  });
  return { ok: true, entry };
}

/** What removing an item changed: whose it was, and the post a notification points to. */
interface Removed {
  authorId: string;
  postId: string | null;
  receiverId?: string;
}

async function hide(
  em: EntityManager,
  type: ReportTargetType,
  id: string,
  now: Date,
): Promise<Removed | null> {
  if (type === 'post') {
    const [row] = await em.execute<{ author_id: string }[]>(
      'update posts set removed_at = ? where id = ? and removed_at is null returning author_id',
      [now, id],
    );
    return row ? { authorId: row.author_id, postId: id } : null;
  }
  if (type === 'comment') {
    const [row] = await em.execute<{ author_id: string; post_id: string }[]>(
      'update comments set removed_at = ? where id = ? and removed_at is null returning author_id, post_id',
      [now, id],
    );
    if (!row) return null;
    // The post's count is of the comments readers see.
    await em.execute(
      'update posts set comments_count = comments_count - 1 where id = ? and comments_count > 0',
      [row.post_id],
    );
    return { authorId: row.author_id, postId: row.post_id };
  }
  // A removed message also counts as read: it must not stay in the receiver's unread badge.
  const [row] = await em.execute<{ sender_id: string; receiver_id: string }[]>(
    `update direct_messages set removed_at = ?, read_at = coalesce(read_at, ?)
      where id = ? and removed_at is null returning sender_id, receiver_id`,
    [now, now, id],
  );
  return row ? { authorId: row.sender_id, postId: null, receiverId: row.receiver_id } : null;
}

export async function removeContent(
  ctx: ModeratorContext,
  input: RemoveContentInput,
): Promise<{ ok: true; entry: ModerationLogEntry }> {
  const now = ctx.now();
  const result = await ctx.em.transactional(async (em) => {
    const report = await lockOpenReport(em, input.reportId);
    if (report.target_type === 'user') throw badRequest('A member cannot be removed; suspend them instead');
    // Null when the author already deleted it or another report's removal hid it: the reports close all the same.
    const removed = await hide(em, report.target_type, report.target_id, now);
    if (removed && removed.authorId !== ctx.session.user.id) {
      await em.execute(
        `insert into notifications (id, recipient_id, actor_id, type, post_id, note, created_at)
         values (?, ?, ?, 'removal', ?, ?, ?)`,
        [
          randomUUID(),
          removed.authorId,
          ctx.session.user.id,
          removed.postId,
          `removed your ${report.target_type}. Reason: ${input.reason}`,
          now,
        ],
      );
    }
    await closeReportsOfItem(em, ctx, report, 'removed', now);
    const entry = await audit(em, ctx, {
      action: 'remove',
      reportId: report.id,
      targetType: report.target_type,
      targetId: report.target_id,
      targetUserId: report.target_user_id,
      note: input.reason,
      at: now,
    });
    return { entry, removed, type: report.target_type };
  });
  const { removed } = result;
  if (removed) {
    // Open feeds and threads drop a removed post, or reload the post whose comment went.
    if (removed.postId) {
      publishEvent(ctx, 'postChanges', {
        postId: removed.postId,
        kind: result.type === 'post' ? 'deleted' : 'comments',
      });
    }
    if (removed.authorId !== ctx.session.user.id) {
      publishEvent(ctx, 'notifications', { recipientId: removed.authorId });
    }
    if (removed.receiverId) publishEvent(ctx, 'messages', { userId: removed.receiverId, kind: 'unread' });
  }
  return { ok: true, entry: result.entry };
}

async function findUser(em: EntityManager, rawId: string): Promise<{ id: string; role: string }> {
  const userId = requireUuid(rawId, USER_NOT_FOUND);
  const [user] = await em.execute<{ id: string; role: string }[]>('select id, role from users where id = ?', [
    userId,
  ]);
  if (!user) throw notFound(USER_NOT_FOUND);
  return user;
}

/**
 * A member's posts, comments, media, name and notifications left every list or came back
 * (suspension.ts): announced as an `accounts` event, and to the bells of those they notified
 * (whose open bells refresh too).
 */
function memberContentShownChanged(
  ctx: ModeratorContext,
  userId: string,
  change: 'suspended' | 'reinstated',
  notified: string[],
): void {
  publishEvent(ctx, 'accounts', { userId, change });
  for (const recipientId of notified) publishEvent(ctx, 'notifications', { recipientId });
}

/** Whose bells hold a notification from `userId`, read in the action's transaction. */
async function notifiedBy(em: EntityManager, userId: string): Promise<string[]> {
  const rows = await em.execute<{ recipient_id: string }[]>(
    'select distinct recipient_id from notifications where actor_id = ?',
    [userId],
  );
  return rows.map((row) => row.recipient_id);
}

/**
 * Suspends a member for `days` or for ever. Their sessions end in the same transaction: the
 * bus's `sessions` event goes out with the commit, so every instance refuses them from then on.
 * What they wrote is out of sight until the suspension ends (`shownMemberSql`).
 */
export async function suspendUser(
  ctx: ModeratorContext,
  input: SuspendUserInput,
): Promise<{ ok: true; entry: ModerationLogEntry }> {
  const now = ctx.now();
  const until = input.days === null ? null : new Date(now.getTime() + input.days * 24 * 60 * 60 * 1000);
  const { entry, userId, notified } = await ctx.em.transactional(async (em) => {
    const user = await findUser(em, input.userId);
    if (user.id === ctx.session.user.id) throw badRequest('You cannot suspend yourself');
    if (isModeratorRole(user.role)) throw badRequest('A moderator cannot be suspended');
    let reportId: string | null = null;
    if (input.reportId !== undefined) {
      const report = await lockOpenReport(em, input.reportId);
      if (report.target_user_id !== user.id) throw badRequest('That report is about someone else');
      reportId = report.id;
      await closeReportsOfItem(em, ctx, report, 'suspended', now);
    }
    await em.execute('update users set suspended_at = ?, suspended_until = ? where id = ?', [
      now,
      until,
      user.id,
    ]);
    // Reports of the member themself are answered by the suspension.
    await closeReportsOfItem(em, ctx, { target_type: 'user', target_id: user.id }, 'suspended', now);
    await revokeSessions({ em, bus: ctx.bus }, user.id);
    const logged = await audit(em, ctx, {
      action: 'suspend',
      reportId,
      targetType: 'user',
      targetId: user.id,
      targetUserId: user.id,
      note: input.reason,
      suspendedUntil: until,
      at: now,
    });
    return { entry: logged, userId: user.id, notified: await notifiedBy(em, user.id) };
  });
  memberContentShownChanged(ctx, userId, 'suspended', notified);
  return { ok: true, entry };
}

export async function unsuspendUser(
  ctx: ModeratorContext,
  input: UnsuspendUserInput,
): Promise<{ ok: true; entry: ModerationLogEntry }> {
  const now = ctx.now();
  const { entry, userId, notified } = await ctx.em.transactional(async (em) => {
    const user = await findUser(em, input.userId);
    const lifted = await em.execute<unknown[]>(
      `update users set suspended_at = null, suspended_until = null
        where id = ? and suspended_at is not null and (suspended_until is null or suspended_until > ?)
        returning id`,
      [user.id, now],
    );
    if (lifted.length === 0)
      throw new TRPCError({ code: 'CONFLICT', message: 'This member is not suspended' });
    const logged = await audit(em, ctx, {
      action: 'unsuspend',
      reportId: null,
      targetType: 'user',
      targetId: user.id,
      targetUserId: user.id,
      note: input.reason,
      at: now,
    });
    return { entry: logged, userId: user.id, notified: await notifiedBy(em, user.id) };
  });
  memberContentShownChanged(ctx, userId, 'reinstated', notified);
  return { ok: true, entry };
}

/**
 * Grants or takes back the moderator role: the operator command's work (`npm run admin --
 * make-moderator <username>`); there is no procedure for it. Null when no member has that name.
 */
export async function setRole(
  em: EntityManager,
  username: string,
  role: UserRole,
): Promise<{ username: string; role: string } | null> {
  const rows = await em.execute<{ username: string; role: string }[]>(
    'update users set role = ? where lower(username) = lower(?) returning username, role',
    [role, username],
  );
  return rows[0] ?? null;
}
