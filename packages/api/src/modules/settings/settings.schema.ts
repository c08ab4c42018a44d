/** Account settings forms: one definition for the procedure, the REST body and the web form. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { text } from '../../text.js';
import { displayNameSchema, emailSchema, languageSchema, passwordSchema } from '../auth/auth.schema.js';
import { messagesFromSchema } from '../messages/message.schema.js';
import { OBJECT_PATH_MAX, OBJECT_PATH_PATTERN } from '../objects/objects.schema.js';

export const BIO_MAX = 500;
export const IMAGE_URL_MESSAGE = ERROR_REASONS.IMAGE_NOT_UPLOADED;

/**
 * null or '' clears the image; otherwise an uploaded object path (`/objects/…`): avatars and
 * banners are served by us, never fetched from elsewhere by viewers' browsers (the CSP's img-src
 * allows this origin, data: and blob: only). Whose upload it is, the service checks.
 */
export const imageUrlSchema = text('URL', { error: IMAGE_URL_MESSAGE })
  .trim()
  .max(OBJECT_PATH_MAX, ERROR_REASONS.URL_TOO_LONG)
  // isObjectPath or empty, as a pattern the OpenAPI document carries.
  .regex(new RegExp(`^$|${OBJECT_PATH_PATTERN.source}`), IMAGE_URL_MESSAGE)
  .transform((v) => (v === '' ? null : v))
  .nullable();

export const bioSchema = text('Bio', { error: ERROR_REASONS.BIO_NOT_TEXT })
  .trim()
  .max(BIO_MAX, ERROR_REASONS.BIO_TOO_LONG)
  .nullable()
  .transform((v) => (v ? v : null));

export const updateSettingsInput = z.object({
  displayName: displayNameSchema.optional(),
  bio: bioSchema.optional(),
  avatarUrl: imageUrlSchema.optional(),
  headerUrl: imageUrlSchema.optional(),
  emailVisible: z.boolean({ error: ERROR_REASONS.EMAIL_VISIBLE_NOT_BOOLEAN }).optional(),
  /** Who may start a conversation with me; whoever I wrote to may always answer. */
  messagesFrom: messagesFromSchema.optional(),
  /** Show the text and images behind content warnings without a Show press. */
  alwaysShowContentWarnings: z.boolean({ error: ERROR_REASONS.SHOW_CONTENT_WARNINGS_NOT_BOOLEAN }).optional(),
  /** Show images marked sensitive without blurring them. */
  alwaysShowSensitiveMedia: z.boolean({ error: ERROR_REASONS.SHOW_SENSITIVE_MEDIA_NOT_BOOLEAN }).optional(),
  /** The language of the app on every device and of the account's mails: en, de or ar. */
  language: languageSchema.optional(),
});
export type UpdateSettingsInput = z.infer<typeof updateSettingsInput>;

export const changePasswordInput = z.object({
  currentPassword: text('Current password', { error: ERROR_REASONS.CURRENT_PASSWORD_REQUIRED })
    .min(1, ERROR_REASONS.CURRENT_PASSWORD_REQUIRED)
    .max(128, ERROR_REASONS.WRONG_CURRENT_PASSWORD),
  newPassword: passwordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const changeEmailInput = z.object({
  email: emailSchema,
  password: text('Password', { error: ERROR_REASONS.PASSWORD_REQUIRED })
    .min(1, ERROR_REASONS.PASSWORD_REQUIRED)
    .max(128),
});
export type ChangeEmailInput = z.infer<typeof changeEmailInput>;

/** The second step of an e-mail change: the 6-digit code mailed to the new address. */
export const confirmEmailChangeInput = z.object({
  code: text('Code', { error: ERROR_REASONS.CODE_REQUIRED })
    .trim()
    .regex(/^\d{6}$/, ERROR_REASONS.CODE_INVALID_FORMAT),
});
export type ConfirmEmailChangeInput = z.infer<typeof confirmEmailChangeInput>;

/** The answer to an e-mail change request: the same whether or not the address is free. */
export const emailChangeRequestResult = z.strictObject({
  message: z.string(),
  /** The address the code went to, as typed; it replaces the old one once confirmed. */
  pendingEmail: z.string(),
});
export type EmailChangeRequestResult = z.infer<typeof emailChangeRequestResult>;

/** The caller's own settings (response JSON; see post.schema.ts on response schemas). */
export const settingsSchema = z.strictObject({
  username: z.string(),
  displayName: z.string(),
  email: z.string(),
  bio: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  headerUrl: z.string().nullable(),
  emailVisible: z.boolean(),
  messagesFrom: messagesFromSchema,
  /** posts' text and images behind content warnings show without a Show press (default false) */
  alwaysShowContentWarnings: z.boolean(),
  /** images marked sensitive show unblurred (default false) */
  alwaysShowSensitiveMedia: z.boolean(),
  /** the app's and the account's mails' language (default 'en') */
  language: languageSchema,
});
export type Settings = z.infer<typeof settingsSchema>;
