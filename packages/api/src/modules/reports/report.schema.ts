/** Report forms and answers: one definition for the procedure, the REST row and the web dialog. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { text } from '../../text.js';
import { entityIdSchema } from '../posts/post.schema.js';

export const REPORT_REASON_MAX = 1000;

/** What a member can report. */
export const reportTargetTypeSchema = z.enum(['post', 'comment', 'message', 'user']);
export type ReportTargetTypeValue = z.infer<typeof reportTargetTypeSchema>;

export const reportReasonSchema = text('Reason', { error: ERROR_REASONS.REPORT_REASON_REQUIRED })
  .trim()
  .min(1, ERROR_REASONS.REPORT_REASON_REQUIRED)
  .max(REPORT_REASON_MAX, ERROR_REASONS.REASON_TOO_LONG);

export const createReportInput = z.object({
  targetType: reportTargetTypeSchema,
  targetId: entityIdSchema,
  reason: reportReasonSchema,
});
export type CreateReportInput = z.infer<typeof createReportInput>;

export const reportResult = z.strictObject({ id: z.uuid() });
export type ReportResult = z.infer<typeof reportResult>;
