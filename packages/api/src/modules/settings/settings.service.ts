/**
 * The member's own settings: the profile fields, the password (other sessions end) and the
 * e-mail address, which changes only once a code mailed to the new address comes back.
 */
import { type AuthedContext, publishEvent } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, conflict, LOGIN_REQUIRED, unauthorized } from '../../errors.js';
import { sendWithoutWaiting } from '../../mail/mailer.js';
import { enforceRateLimit } from '../../trpc.js';
import { hashPassword, verifyPassword } from '../auth/auth.password.js';
import type { MessageResult } from '../auth/auth.schema.js';
import { ownUser } from '../auth/auth.serializer.js';
import { EMAIL_TAKEN } from '../auth/auth.service.js';
import { generateResetCode, hashResetCode, sameCodeHash } from '../auth/password-reset.service.js';
import { revokeSessions } from '../sessions/sessions.service.js';
import { findUserByEmail, uniqueViolationField } from '../users/user.repository.js';
import type { UserResult } from '../users/user.schema.js';
import { setProfileImages } from '../users/user.service.js';
import {
  countWrongEmailCode,
  deleteEmailChange,
  deletePasswordResets,
  findEmailChange,
  findSelf,
  storeEmailChange,
} from './settings.repository.js';
import type {
  ChangeEmailInput,
  ChangePasswordInput,
  ConfirmEmailChangeInput,
  EmailChangeRequestResult,
  Settings,
  UpdateSettingsInput,
} from './settings.schema.js';

/** The caller's settings as `Settings` (settings.schema.ts) names them. */
export type SettingsDto = Settings;

async function loadSelf(ctx: AuthedContext, withPassword = false) {
  const user = await findSelf(ctx.em, ctx.session.user.id, withPassword);
  if (!user) throw unauthorized(LOGIN_REQUIRED);
  return user;
}

export async function getSettings(ctx: AuthedContext): Promise<Settings> {
  const user = await loadSelf(ctx);
  return {
    username: user.username,
    displayName: user.displayName,
    email: user.email,
    bio: user.bio ?? null,
    avatarUrl: user.avatarUrl ?? null,
    headerUrl: user.headerUrl ?? null,
    emailVisible: user.emailVisible,
    messagesFrom: user.messagesFrom,
    alwaysShowContentWarnings: user.alwaysShowContentWarnings,
    alwaysShowSensitiveMedia: user.alwaysShowSensitiveMedia,
    language: user.language,
  };
}

/** Partial update: only the fields present change. */
export async function updateSettings(ctx: AuthedContext, input: UpdateSettingsInput): Promise<UserResult> {
  const user = await loadSelf(ctx);
  await setProfileImages(ctx, user, { avatarUrl: input.avatarUrl, headerUrl: input.headerUrl });
  if (input.displayName !== undefined) user.displayName = input.displayName;
  if (input.bio !== undefined) user.bio = input.bio;
  if (input.emailVisible !== undefined) user.emailVisible = input.emailVisible;
  if (input.messagesFrom !== undefined) user.messagesFrom = input.messagesFrom;
  if (input.alwaysShowContentWarnings !== undefined)
    user.alwaysShowContentWarnings = input.alwaysShowContentWarnings;
  if (input.alwaysShowSensitiveMedia !== undefined)
    user.alwaysShowSensitiveMedia = input.alwaysShowSensitiveMedia;
  if (input.language !== undefined) user.language = input.language;
  await ctx.em.flush();
  publishEvent(ctx, 'profiles', { userId: user.id });
  return { user: ownUser(user) };
}

export const PASSWORD_CHANGED = 'Password changed successfully';

/**
 * Checks the current password, stores the new one and ends every other session of the user.
 * Every check counts against the member's `passwordCheck` bucket, shared with the other
 * procedures that check their password, over every transport and batch.
 */
export async function changePassword(ctx: AuthedContext, input: ChangePasswordInput): Promise<MessageResult> {
  await enforceRateLimit(ctx, 'passwordCheck', ctx.session.user.id);
  const user = await loadSelf(ctx, true);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw badRequest(ERROR_REASONS.WRONG_CURRENT_PASSWORD);
  }
  user.passwordHash = await hashPassword(input.newPassword);
  await ctx.em.flush();
  await revokeSessions(ctx, user.id, ctx.session.id);
  return { message: PASSWORD_CHANGED };
}

export const EMAIL_CODE_TTL_MS = 15 * 60 * 1000;
export const EMAIL_CODE_MAX_ATTEMPTS = 5;
export const SAME_EMAIL = ERROR_REASONS.SAME_EMAIL;
export const INVALID_EMAIL_CODE = ERROR_REASONS.INVALID_CODE;

export function emailCodeSentMessage(email: string): string {
  return `We sent a code to ${email}. Enter it to confirm the change.`;
}

/**
 * The first step of an e-mail change: checks the password, then mails a 6-digit code to the new
 * address; users.email changes only when the code comes back (confirmEmailChange), so nobody can
 * take an address they cannot read. The answer is the same whether or not another account has the
 * address, and so is the work before it: a pending change is stored either way, but when the
 * address is taken its owner gets a notice instead of the code, and the change can never be
 * confirmed. Limited per member by `emailChange` and, as every password check, `passwordCheck`.
 */
export async function changeEmail(
  ctx: AuthedContext,
  input: ChangeEmailInput,
): Promise<EmailChangeRequestResult> {
  const userId = ctx.session.user.id;
  await enforceRateLimit(ctx, 'emailChange', userId);
  await enforceRateLimit(ctx, 'passwordCheck', userId);
  const user = await loadSelf(ctx, true);
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw badRequest(ERROR_REASONS.WRONG_PASSWORD);
  }
  if (input.email === user.email) throw badRequest(SAME_EMAIL);
  const owner = await findUserByEmail(ctx.em, input.email);
  const code = generateResetCode();
  const now = ctx.now();
  // One pending change per member: a new request replaces the address, the code and the tries.
  await storeEmailChange(ctx.em, {
    userId: user.id,
    newEmail: input.email,
    codeHash: hashResetCode(code),
    expiresAt: new Date(now.getTime() + EMAIL_CODE_TTL_MS),
    now,
  });
  if (owner && owner.id !== user.id) {
    const to = owner.email;
    sendWithoutWaiting(ctx.logError, 'email in use notice failed', () => ctx.mailer.sendEmailInUseNotice(to));
  } else {
    sendWithoutWaiting(ctx.logError, 'email change code mail failed', () =>
      ctx.mailer.sendEmailChangeCode(input.email, code, user.language),
    );
  }
  return { message: emailCodeSentMessage(input.email), pendingEmail: input.email };
}

/**
 * The second step: the code mailed to the new address makes it the member's address. The other
 * sessions end (as after a password change); this one stays. A reset code mailed to the old
 * address stops working. If another account took the address meanwhile (register does not
 * confirm addresses), the answer is 409: the member has just shown they read that mailbox, so
 * this tells them nothing about someone else's.
 */
export async function confirmEmailChange(
  ctx: AuthedContext,
  input: ConfirmEmailChangeInput,
): Promise<UserResult> {
  const userId = ctx.session.user.id;
  await enforceRateLimit(ctx, 'emailChange', userId);
  const pending = await findEmailChange(ctx.em, userId);
  if (!pending) throw badRequest(INVALID_EMAIL_CODE);
  if (pending.expiresAt.getTime() <= ctx.now().getTime()) {
    await deleteEmailChange(ctx.em, pending.id);
    throw badRequest(INVALID_EMAIL_CODE);
  }
  if (!sameCodeHash(pending.codeHash, hashResetCode(input.code))) {
    // Counted atomically, so parallel guesses cannot exceed the budget; the 5th wrong try ends it.
    const attempts = await countWrongEmailCode(ctx.em, pending.id);
    if ((attempts ?? EMAIL_CODE_MAX_ATTEMPTS) >= EMAIL_CODE_MAX_ATTEMPTS) {
      await deleteEmailChange(ctx.em, pending.id);
    }
    throw badRequest(INVALID_EMAIL_CODE);
  }
  // Claim the code: only one request can delete the row, so a code works once.
  const claimed = await deleteEmailChange(ctx.em, pending.id, pending.codeHash);
  if (claimed !== 1) throw badRequest(INVALID_EMAIL_CODE);
  const user = await loadSelf(ctx);
  const oldEmail = user.email;
  const owner = await findUserByEmail(ctx.em, pending.newEmail);
  if (owner && owner.id !== user.id) throw conflict(EMAIL_TAKEN);
  user.email = pending.newEmail;
  try {
    await ctx.em.flush();
  } catch (error) {
    if (uniqueViolationField(error) === 'email') throw conflict(EMAIL_TAKEN);
    throw error;
  }
  // Their profile shows the address where they show it, and so do the pages kept of it.
  publishEvent(ctx, 'profiles', { userId: user.id });
  await deletePasswordResets(ctx.em, user.id);
  await revokeSessions(ctx, user.id, ctx.session.id);
  if (oldEmail.toLowerCase() !== user.email.toLowerCase()) {
    sendWithoutWaiting(ctx.logError, 'email changed notice failed', () =>
      ctx.mailer.sendEmailChangedNotice(oldEmail, user.email),
    );
  }
  return { user: ownUser(user) };
}
