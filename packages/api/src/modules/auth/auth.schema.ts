/** Account forms: one definition for the procedure, the REST body and the web form. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { LANGUAGES } from '../../rules.js';
import { text } from '../../text.js';

/** The 400's message for any other value: the choices by their own names (LANGUAGE_NAMES). */
export const LANGUAGE_MESSAGE = ERROR_REASONS.LANGUAGE_INVALID;

/** The member's language (settings, registration): one of LANGUAGES, anything else a 400. */
export const languageSchema = z.enum(LANGUAGES, { error: LANGUAGE_MESSAGE });

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

export const passwordSchema = text('Password', { error: ERROR_REASONS.PASSWORD_REQUIRED })
  .min(PASSWORD_MIN, ERROR_REASONS.PASSWORD_TOO_SHORT)
  .max(PASSWORD_MAX, ERROR_REASONS.PASSWORD_TOO_LONG);

export const emailSchema = text('Email', { error: ERROR_REASONS.EMAIL_REQUIRED })
  .trim()
  .min(1, ERROR_REASONS.EMAIL_REQUIRED)
  .max(254, ERROR_REASONS.EMAIL_TOO_LONG)
  .email(ERROR_REASONS.EMAIL_INVALID);

export const usernameSchema = text('Username', { error: ERROR_REASONS.USERNAME_REQUIRED })
  .trim()
  .min(3, ERROR_REASONS.USERNAME_TOO_SHORT)
  .max(30, ERROR_REASONS.USERNAME_TOO_LONG)
  .regex(/^[A-Za-z0-9_]+$/, ERROR_REASONS.USERNAME_INVALID);

export const displayNameSchema = text('Display name', { error: ERROR_REASONS.DISPLAY_NAME_REQUIRED })
  .trim()
  .min(1, ERROR_REASONS.DISPLAY_NAME_REQUIRED)
  .max(50, ERROR_REASONS.DISPLAY_NAME_TOO_LONG);

export const registerInput = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  displayName: displayNameSchema,
  /** The visitor's language becomes the account's; left out, the default (English). */
  language: languageSchema.optional(),
});
export type RegisterInput = z.infer<typeof registerInput>;

export const loginInput = z.object({
  email: text('Email', { error: ERROR_REASONS.EMAIL_REQUIRED })
    .trim()
    .min(1, ERROR_REASONS.EMAIL_REQUIRED)
    .max(254),
  password: text('Password', { error: ERROR_REASONS.PASSWORD_REQUIRED })
    .min(1, ERROR_REASONS.PASSWORD_REQUIRED)
    .max(PASSWORD_MAX),
});
export type LoginInput = z.infer<typeof loginInput>;

export const forgotPasswordInput = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;

export const RESET_CODE_LENGTH = 6;

export const resetPasswordInput = z.object({
  email: emailSchema,
  code: text('Code', { error: ERROR_REASONS.CODE_REQUIRED })
    .trim()
    .regex(/^\d{6}$/, ERROR_REASONS.CODE_INVALID_FORMAT),
  newPassword: passwordSchema,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

// Responses, as JSON (see post.schema.ts on response schemas).

/** A confirmation to show the user (reset code sent, password changed…). */
export const messageResult = z.strictObject({ message: z.string() });
export type MessageResult = z.infer<typeof messageResult>;

export const okResult = z.strictObject({ ok: z.literal(true) });
export type OkResult = z.infer<typeof okResult>;
