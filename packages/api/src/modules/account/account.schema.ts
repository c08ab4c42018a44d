/** Leaving with your data: the export's state and the account deletion form, for procedure, REST and web. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { text } from '../../text.js';

/** The password that confirms a deletion. */
export const deleteAccountInput = z.object({
  password: text('Password', { error: ERROR_REASONS.PASSWORD_REQUIRED })
    .min(1, ERROR_REASONS.PASSWORD_REQUIRED)
    .max(128),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;

export { DELETED_USERNAME_PREFIX, isDeletedUsername } from '../../rules.js';

export const exportStatusSchema = z.enum(['queued', 'running', 'done', 'failed']);

// Responses, as the JSON on the wire (see post.schema.ts on response schemas).

/** The member's newest data export. */
export const accountExportSchema = z.strictObject({
  id: z.string(),
  status: exportStatusSchema,
  /** 0–100 while it is built; 100 when done. */
  progress: z.int().min(0).max(100),
  /** Bytes of the zip, once done. */
  size: z.int().nonnegative().nullable(),
  createdAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  /** Where the zip downloads from (same origin, needs the session), once done. */
  downloadUrl: z.string().nullable(),
});

export type AccountExport = z.infer<typeof accountExportSchema>;

/** GET /api/account/export: null before the first request. */
export const accountExportResult = accountExportSchema.nullable();
