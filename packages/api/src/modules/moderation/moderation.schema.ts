/** Moderation forms: one definition for the procedures and the /moderation page. Imports only zod. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { timestamp } from '../../output.js';
import { pageInputWith, pageOf } from '../../paging.js';
import { text } from '../../text.js';
import { entityIdSchema } from '../posts/post.schema.js';

export const MODERATION_NOTE_MAX = 1000;
/** The longest suspension with an end: ten years. Longer is "for ever". */
export const SUSPENSION_DAYS_MAX = 3650;

export const moderationReasonSchema = text('Reason', { error: ERROR_REASONS.REASON_REQUIRED })
  .trim()
  .min(1, ERROR_REASONS.REASON_REQUIRED)
  .max(MODERATION_NOTE_MAX, ERROR_REASONS.REASON_TOO_LONG);

export const moderationPageInput = pageInputWith(20);

export const dismissReportInput = z.object({
  reportId: entityIdSchema,
  note: text('Note').trim().max(MODERATION_NOTE_MAX, ERROR_REASONS.NOTE_TOO_LONG).optional(),
});
export type DismissReportInput = z.infer<typeof dismissReportInput>;

/** Removes the reported post, comment or message; `reason` is what its author is told. */
export const removeContentInput = z.object({ reportId: entityIdSchema, reason: moderationReasonSchema });
export type RemoveContentInput = z.infer<typeof removeContentInput>;

/** `days: null` suspends for ever. With `reportId`, that report (about this member) is closed. */
export const suspendUserInput = z.object({
  userId: entityIdSchema,
  reportId: entityIdSchema.optional(),
  days: z
    .int(ERROR_REASONS.SUSPENSION_DAYS_NOT_WHOLE)
    .min(1, ERROR_REASONS.SUSPENSION_TOO_SHORT)
    .max(SUSPENSION_DAYS_MAX, ERROR_REASONS.SUSPENSION_TOO_LONG)
    .nullable(),
  reason: moderationReasonSchema,
});
export type SuspendUserInput = z.infer<typeof suspendUserInput>;

export const unsuspendUserInput = z.object({ userId: entityIdSchema, reason: moderationReasonSchema });
export type UnsuspendUserInput = z.infer<typeof unsuspendUserInput>;

const reportTargetType = z.enum(['post', 'comment', 'message', 'user']);
const moderationAction = z.enum(['dismiss', 'remove', 'suspend', 'unsuspend']);

/** The member a report is about; `suspension` is null when not suspended now. */
export const moderationUserSchema = z.strictObject({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
  suspension: z.strictObject({ since: timestamp(), until: timestamp().nullable() }).nullable(),
});
export type ModerationUser = z.infer<typeof moderationUserSchema>;

/** One piece of the reported item's surroundings; `reported` marks the item itself. */
export const contextEntrySchema = z.strictObject({
  id: z.string(),
  kind: z.enum(['post', 'comment', 'message', 'profile']),
  username: z.string(),
  content: z.string(),
  imageUrl: z.string().nullable(),
  createdAt: timestamp(),
  reported: z.boolean(),
  removed: z.boolean(),
});
export type ContextEntry = z.infer<typeof contextEntrySchema>;

export const openReportSchema = z.strictObject({
  id: z.string(),
  targetType: reportTargetType,
  targetId: z.string(),
  reason: z.string(),
  createdAt: timestamp(),
  reporter: z.strictObject({ id: z.string(), username: z.string(), displayName: z.string() }),
  targetUser: moderationUserSchema,
  /** open reports of the same item, this one included */
  openReportsOnItem: z.int(),
  /** empty when the item no longer exists (its author deleted it) */
  context: z.array(contextEntrySchema),
});
export type OpenReport = z.infer<typeof openReportSchema>;
export const openReportPage = pageOf(openReportSchema);

export const moderationLogEntrySchema = z.strictObject({
  id: z.string(),
  action: moderationAction,
  moderatorUsername: z.string(),
  targetType: reportTargetType,
  targetId: z.string(),
  targetUsername: z.string(),
  note: z.string(),
  suspendedUntil: timestamp().nullable(),
  createdAt: timestamp(),
});
export type ModerationLogEntry = z.infer<typeof moderationLogEntrySchema>;
export const moderationLogPage = pageOf(moderationLogEntrySchema);

/** What every moderator action answers: the audit entry it wrote. */
export const moderationActionResult = z.strictObject({
  ok: z.literal(true),
  entry: moderationLogEntrySchema,
});
export type ModerationActionResult = z.infer<typeof moderationActionResult>;
