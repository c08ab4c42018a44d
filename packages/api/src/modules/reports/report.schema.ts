/** Report forms and answers: one definition for the procedure, the REST row and the web dialog. */
import { z } from 'zod';
import { text } from '../../text.js';
import { entityIdSchema } from '../posts/post.schema.js';

export const REPORT_REASON_MAX = 1000;

/** What a member can report. */
export const reportTargetTypeSchema = z.enum(['post', 'comment', 'message', 'user']);
export type ReportTargetTypeValue = z.infer<typeof reportTargetTypeSchema>;

export const reportReasonSchema = text('Reason', { error: 'Say why you are reporting this' })
  .trim()
  .min(1, 'Say why you are reporting this')
  .max(REPORT_REASON_MAX, `A reason can be at most ${REPORT_REASON_MAX} characters`);

export const createReportInput = z.object({
  targetType: reportTargetTypeSchema,
  targetId: entityIdSchema,
  reason: reportReasonSchema,
});
export type CreateReportInput = z.infer<typeof createReportInput>;

export const reportResult = z.strictObject({ id: z.uuid() });
export type ReportResult = z.infer<typeof reportResult>;
