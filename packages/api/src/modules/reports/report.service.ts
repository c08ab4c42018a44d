/**
 * Members report posts, comments, direct messages and members to the moderators. A report
 * names an item the reporter can see (a message only by its receiver), never their own; each
 * reporter reports an item once (a unique index decides, so two racing requests make one row).
 */
import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { AuthedContext } from '../../context.js';
import { badRequest, notFound, requireUuid } from '../../errors.js';
import { shownMemberById } from '../moderation/suspension.js';
import { notBlockedBetween, notBlockedParams } from '../safety/safety.sql.js';
import type { CreateReportInput, ReportTargetTypeValue } from './report.schema.js';

export const ALREADY_REPORTED = 'You have already reported this';

export const TARGET_NOT_FOUND: Record<ReportTargetTypeValue, string> = {
  post: 'Post not found',
  comment: 'Comment not found',
  message: 'Message not found',
  user: 'User not found',
};

/**
 * Whom the item is about (its author, or the member), if the reporter can see it. Removed
 * content is gone for everyone but moderators, so it cannot be reported again; a post or comment
 * hidden by a block either way or by its author's suspension is not there for the reporter
 * either (404, as a like or a comment would be). A member stays reportable whatever stands
 * between the two: one may block and report.
 */
async function targetUserOf(
  ctx: AuthedContext,
  type: ReportTargetTypeValue,
  id: string,
): Promise<string | null> {
  const me = ctx.session.user.id;
  const queries: Record<ReportTargetTypeValue, [string, unknown[]]> = {
    // As for a like or a comment: a block either way, or a suspended author, hides it.
    post: [
      `select p.author_id as user_id from posts p
        where p.id = ? and p.removed_at is null and ${shownMemberById('p.author_id')}
          and ${notBlockedBetween('?::uuid', 'p.author_id')}`,
      [id, ...notBlockedParams(me)],
    ],
    comment: [
      `select c.author_id as user_id from comments c join posts p on p.id = c.post_id
        where c.id = ? and c.removed_at is null and p.removed_at is null
          and ${shownMemberById('c.author_id')} and ${shownMemberById('p.author_id')}
          and ${notBlockedBetween('?::uuid', 'c.author_id')} and ${notBlockedBetween('?::uuid', 'p.author_id')}`,
      [id, ...notBlockedParams(me), ...notBlockedParams(me)],
    ],
    // Only its receiver can report a message: the sender has nothing to report.
    message: [
      'select sender_id as user_id from direct_messages where id = ? and receiver_id = ? and removed_at is null',
      [id, me],
    ],
    user: ['select id as user_id from users where id = ?', [id]],
  };
  const [sql, params] = queries[type];
  const rows = await ctx.em.execute<{ user_id: string }[]>(sql, params);
  return rows[0]?.user_id ?? null;
}

export async function createReport(ctx: AuthedContext, input: CreateReportInput): Promise<{ id: string }> {
  const type = input.targetType;
  const targetId = requireUuid(input.targetId, TARGET_NOT_FOUND[type]);
  const me = ctx.session.user.id;
  const targetUserId = await targetUserOf(ctx, type, targetId);
  if (!targetUserId) throw notFound(TARGET_NOT_FOUND[type]);
  if (targetUserId === me) {
    throw badRequest(type === 'user' ? 'You cannot report yourself' : `You cannot report your own ${type}`);
  }
  const rows = await ctx.em.execute<{ id: string }[]>(
    `insert into reports (id, reporter_id, target_type, target_id, target_user_id, reason, status, created_at)
     values (?, ?, ?, ?, ?, ?, 'open', ?)
     on conflict (reporter_id, target_type, target_id) do nothing
     returning id`,
    [randomUUID(), me, type, targetId, targetUserId, input.reason, ctx.now()],
  );
  if (!rows[0]) throw new TRPCError({ code: 'CONFLICT', message: ALREADY_REPORTED });
  return { id: rows[0].id };
}
