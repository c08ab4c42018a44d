/**
 * What a moderator does to a report: dismiss it, remove the content (hidden with `removed_at`,
 * not deleted, and its author told the reason), suspend its author or the member, or lift a
 * suspension. Each action closes the reports it answers and writes its audit row in one
 * transaction; the events go out after the commit.
 */
import { randomUUID } from 'node:crypto';
import { isModeratorRole, type ReportStatus, type ReportTargetType } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { publishEvent } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, conflict, notFound, requireUuid } from '../../errors.js';
import { removalNote } from '../notifications/notification.service.js';
import { revokeSessions } from '../sessions/sessions.service.js';
import type { ModeratorContext } from './moderation.access.js';
import { audit } from './moderation.audit.js';
import * as repo from './moderation.repository.js';
import type {
  DismissReportInput,
  ModerationActionResult,
  RemoveContentInput,
  SuspendUserInput,
  UnsuspendUserInput,
} from './moderation.schema.js';

export const REPORT_NOT_FOUND = ERROR_REASONS.REPORT_NOT_FOUND;
export const REPORT_CLOSED = ERROR_REASONS.REPORT_CLOSED;
const USER_NOT_FOUND = ERROR_REASONS.USER_NOT_FOUND;

/** The report, locked for this transaction; 404 if unknown, 409 if a moderator already closed it. */
async function lockOpenReport(em: EntityManager, rawId: string): Promise<repo.ReportLock> {
  const reportId = requireUuid(rawId, REPORT_NOT_FOUND);
  const report = await repo.lockReport(em, reportId);
  if (!report) throw notFound(REPORT_NOT_FOUND);
  if (report.status !== 'open') throw conflict(REPORT_CLOSED);
  return report;
}

/** Closes every open report of one item: one decision answers all who reported it. */
function closeReportsOfItem(
  em: EntityManager,
  ctx: ModeratorContext,
  item: { target_type: ReportTargetType; target_id: string },
  status: ReportStatus,
  now: Date,
): Promise<void> {
  return repo.closeReportsOfItem(em, item, status, ctx.session.user.id, now);
}

export async function dismissReport(
  ctx: ModeratorContext,
  input: DismissReportInput,
): Promise<ModerationActionResult> {
  const now = ctx.now();
  const entry = await ctx.em.transactional(async (em) => {
    const report = await lockOpenReport(em, input.reportId);
    await repo.dismiss(em, report.id, ctx.session.user.id, now);
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
  /** the post's author, and whether it was out of everyone's sight already (posts.onChange) */
  post?: { authorId: string; hidden: boolean };
}

async function hide(
  em: EntityManager,
  type: ReportTargetType,
  id: string,
  now: Date,
): Promise<Removed | null> {
  if (type === 'post') {
    const row = await repo.hidePost(em, id, now);
    return row
      ? { authorId: row.author_id, postId: id, post: { authorId: row.author_id, hidden: row.author_hidden } }
      : null;
  }
  if (type === 'comment') {
    const row = await repo.hideComment(em, id, now);
    return row
      ? {
          authorId: row.author_id,
          postId: row.post_id,
          post: { authorId: row.post_author_id, hidden: row.post_hidden },
        }
      : null;
  }
  // A removed message also counts as read: it must not stay in the receiver's unread badge.
  const row = await repo.hideMessage(em, id, now);
  return row ? { authorId: row.sender_id, postId: null, receiverId: row.receiver_id } : null;
}

export async function removeContent(
  ctx: ModeratorContext,
  input: RemoveContentInput,
): Promise<ModerationActionResult> {
  const now = ctx.now();
  const result = await ctx.em.transactional(async (em) => {
    const report = await lockOpenReport(em, input.reportId);
    if (report.target_type === 'user') throw badRequest(ERROR_REASONS.MEMBER_CANNOT_BE_REMOVED);
    // Null when the author already deleted it or another report's removal hid it: the reports close all the same.
    const removed = await hide(em, report.target_type, report.target_id, now);
    if (removed && removed.authorId !== ctx.session.user.id) {
      await repo.insertRemovalNotification(em, {
        id: randomUUID(),
        recipientId: removed.authorId,
        actorId: ctx.session.user.id,
        postId: removed.postId,
        note: removalNote(report.target_type, input.reason),
        at: now,
      });
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
    // A post its author's suspension hid already: only caches hear of it.
    if (removed.postId && removed.post) {
      publishEvent(ctx, 'postChanges', {
        postId: removed.postId,
        kind: result.type === 'post' ? 'deleted' : 'comments',
        authorId: removed.post.authorId,
        hidden: removed.post.hidden,
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
  const user = await repo.findMember(em, requireUuid(rawId, USER_NOT_FOUND));
  if (!user) throw notFound(USER_NOT_FOUND);
  return user;
}

/**
 * A member's posts, comments, media, name and notifications left every list or came back
 * (suspension.sql.ts): announced as an `accounts` event, and to the bells of those they notified
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

/**
 * Suspends a member for `days` or for ever. Their sessions end in the same transaction: the
 * bus's `sessions` event goes out with the commit, so every instance refuses them from then on.
 * What they wrote is out of sight until the suspension ends (suspension.sql.ts's `shownMember`).
 */
export async function suspendUser(
  ctx: ModeratorContext,
  input: SuspendUserInput,
): Promise<ModerationActionResult> {
  const now = ctx.now();
  const until = input.days === null ? null : new Date(now.getTime() + input.days * 24 * 60 * 60 * 1000);
  const { entry, userId, notified } = await ctx.em.transactional(async (em) => {
    const user = await findUser(em, input.userId);
    if (user.id === ctx.session.user.id) throw badRequest(ERROR_REASONS.CANNOT_SUSPEND_SELF);
    if (isModeratorRole(user.role)) throw badRequest(ERROR_REASONS.CANNOT_SUSPEND_MODERATOR);
    let reportId: string | null = null;
    if (input.reportId !== undefined) {
      const report = await lockOpenReport(em, input.reportId);
      if (report.target_user_id !== user.id) throw badRequest(ERROR_REASONS.REPORT_ABOUT_SOMEONE_ELSE);
      reportId = report.id;
      await closeReportsOfItem(em, ctx, report, 'suspended', now);
    }
    await repo.suspend(em, user.id, now, until);
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
    return { entry: logged, userId: user.id, notified: await repo.notifiedBy(em, user.id) };
  });
  memberContentShownChanged(ctx, userId, 'suspended', notified);
  return { ok: true, entry };
}

export async function unsuspendUser(
  ctx: ModeratorContext,
  input: UnsuspendUserInput,
): Promise<ModerationActionResult> {
  const now = ctx.now();
  const { entry, userId, notified } = await ctx.em.transactional(async (em) => {
    const user = await findUser(em, input.userId);
    if (!(await repo.liftSuspension(em, user.id, now))) throw conflict(ERROR_REASONS.NOT_SUSPENDED);
    const logged = await audit(em, ctx, {
      action: 'unsuspend',
      reportId: null,
      targetType: 'user',
      targetId: user.id,
      targetUserId: user.id,
      note: input.reason,
      at: now,
    });
    return { entry: logged, userId: user.id, notified: await repo.notifiedBy(em, user.id) };
  });
  memberContentShownChanged(ctx, userId, 'reinstated', notified);
  return { ok: true, entry };
}
