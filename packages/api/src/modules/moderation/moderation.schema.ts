/** Moderation forms: one definition for the procedures and the /moderation page. Imports only zod. */
import { z } from 'zod';
import { pageInputWith } from '../../paging.js';
import { text } from '../../text.js';
import { entityIdSchema } from '../posts/post.schema.js';

export const MODERATION_NOTE_MAX = 1000;
/** The longest suspension with an end: ten years. Longer is "for ever". */
export const SUSPENSION_DAYS_MAX = 3650;

export const moderationReasonSchema = text('Reason', { error: 'Give a reason' })
  .trim()
  .min(1, 'Give a reason')
  .max(MODERATION_NOTE_MAX, `A reason can be at most ${MODERATION_NOTE_MAX} characters`);

export const moderationPageInput = pageInputWith(20);

export const dismissReportInput = z.object({
  reportId: entityIdSchema,
  note: text('Note')
    .trim()
    .max(MODERATION_NOTE_MAX, `A note can be at most ${MODERATION_NOTE_MAX} characters`)
    .optional(),
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
    .int('Days must be a whole number')
    .min(1, 'A suspension lasts at least a day')
    .max(SUSPENSION_DAYS_MAX, `At most ${SUSPENSION_DAYS_MAX} days; choose "for ever" for longer`)
    .nullable(),
  reason: moderationReasonSchema,
});
export type SuspendUserInput = z.infer<typeof suspendUserInput>;

export const unsuspendUserInput = z.object({ userId: entityIdSchema, reason: moderationReasonSchema });
export type UnsuspendUserInput = z.infer<typeof unsuspendUserInput>;
