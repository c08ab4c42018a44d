/**
 * Members report posts, comments, direct messages and members to the moderators. A report
 * names an item the reporter can see (a message only by its receiver), never their own; each
 * reporter reports an item once (a unique index decides, so two racing requests make one row).
 */
import { randomUUID } from 'node:crypto';
import type { AuthedContext } from '../../context.types.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, conflict, notFound, requireUuid } from '../../errors.js';
import { findTargetUser, insertReport } from './report.repository.js';
import type { CreateReportInput, ReportResult, ReportTargetTypeValue } from './report.schema.js';

export const ALREADY_REPORTED = ERROR_REASONS.ALREADY_REPORTED;

export const TARGET_NOT_FOUND: Record<ReportTargetTypeValue, string> = {
  post: ERROR_REASONS.POST_NOT_FOUND,
  comment: ERROR_REASONS.COMMENT_NOT_FOUND,
  message: ERROR_REASONS.MESSAGE_NOT_FOUND,
  user: ERROR_REASONS.USER_NOT_FOUND,
};

/** The answer to reporting one's own item (or oneself). */
export const CANNOT_REPORT_OWN: Record<ReportTargetTypeValue, string> = {
  post: ERROR_REASONS.CANNOT_REPORT_OWN_POST,
  comment: ERROR_REASONS.CANNOT_REPORT_OWN_COMMENT,
  message: ERROR_REASONS.CANNOT_REPORT_OWN_MESSAGE,
  user: ERROR_REASONS.CANNOT_REPORT_SELF,
};

/**
 * Reports an item the caller can see: removed content is gone for everyone but moderators, and a
 * post or comment hidden by a block either way or by its author's suspension is not there for the
 * reporter either (404, as a like or a comment would be). A member stays reportable whatever
 * stands between the two: one may block and report.
 */
export async function createReport(ctx: AuthedContext, input: CreateReportInput): Promise<ReportResult> {
  const type = input.targetType;
  const targetId = requireUuid(input.targetId, TARGET_NOT_FOUND[type]);
  const me = ctx.session.user.id;
  const targetUserId = await findTargetUser(ctx.em, type, targetId, me);
  if (!targetUserId) throw notFound(TARGET_NOT_FOUND[type]);
  if (targetUserId === me) {
    throw badRequest(CANNOT_REPORT_OWN[type]);
  }
  const id = randomUUID();
  const stored = await insertReport(ctx.em, {
    id,
    reporter_id: me,
    target_type: type,
    target_id: targetId,
    target_user_id: targetUserId,
    reason: input.reason,
    created_at: ctx.now(),
  });
  if (!stored) throw conflict(ALREADY_REPORTED);
  return { id };
}
