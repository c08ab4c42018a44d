/** Account forms: one definition for the procedure, the REST body and the web form. */
import { z } from 'zod';
import { LANGUAGES } from '../../rules.js';
import { text } from '../../text.js';

// The languages are rules the web's first page reads without zod.
export {
  DEFAULT_LANGUAGE,
  isLanguage,
  isRtl,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
} from '../../rules.js';

/** The 400's message for any other value: the choices by their own names (LANGUAGE_NAMES). */
export const LANGUAGE_MESSAGE = 'Choose English, Deutsch or العربية';

/** The member's language (settings, registration): one of LANGUAGES, anything else a 400. */
export const languageSchema = z.enum(LANGUAGES, { error: LANGUAGE_MESSAGE });

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

export const passwordSchema = text('Password', { error: 'Password is required' })
  .min(PASSWORD_MIN, 'Must be at least 6 characters')
  .max(PASSWORD_MAX, 'Must be at most 128 characters');

export const emailSchema = text('Email', { error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .email('Enter a valid email address');

export const usernameSchema = text('Username', { error: 'Username is required' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(30, 'Username must be at most 30 characters')
  .regex(/^[A-Za-z0-9_]+$/, 'Username may contain only letters, digits and _');

export const displayNameSchema = text('Display name', { error: 'Display name is required' })
  .trim()
  .min(1, 'Display name is required')
  .max(50, 'Display name must be at most 50 characters');

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
  email: text('Email', { error: 'Email is required' }).trim().min(1, 'Email is required').max(254),
  password: text('Password', { error: 'Password is required' })
    .min(1, 'Password is required')
    .max(PASSWORD_MAX),
});
export type LoginInput = z.infer<typeof loginInput>;

export const forgotPasswordInput = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;

export const RESET_CODE_LENGTH = 6;

export const resetPasswordInput = z.object({
  email: emailSchema,
  code: text('Code', { error: 'Code is required' })
    .trim()
    .regex(/^\d{6}$/, 'Code must be 6 digits'),
  newPassword: passwordSchema,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

// Responses, as JSON (see post.schema.ts on response schemas).

/** A confirmation to show the user (reset code sent, password changed…). */
export const messageResult = z.strictObject({ message: z.string() });
export type MessageResult = z.infer<typeof messageResult>;

export const okResult = z.strictObject({ ok: z.literal(true) });
export type OkResult = z.infer<typeof okResult>;
