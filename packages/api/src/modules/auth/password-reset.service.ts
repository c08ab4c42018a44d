/**
 * Forgot / reset password: a 6-digit code, mailed, stored only as its SHA-256, valid 15 minutes,
 * 5 wrong tries. One live code per user (a new request replaces the old one). Neither step tells
 * an address with an account from one without: not by the answer, nor by the work done before it.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Context } from '../../context.types.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest } from '../../errors.js';
import { sendWithoutWaiting } from '../../mail/mailer.js';
import { enforceRateLimit } from '../../trpc.js';
import { revokeSessions } from '../sessions/sessions.service.js';
import { hashPassword } from './auth.password.js';
import {
  claimReset,
  countWrongReset,
  deleteResets,
  findReset,
  setPasswordHash,
  storeResetCode,
} from './auth.repository.js';
import type { ForgotPasswordInput, MessageResult, ResetPasswordInput } from './auth.schema.js';

export const RESET_CODE_TTL_MS = 15 * 60 * 1000;
export const RESET_MAX_ATTEMPTS = 5;
export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for that email, a reset code has been sent.';
export const RESET_PASSWORD_MESSAGE = 'Password reset successfully';
export const INVALID_RESET_CODE = ERROR_REASONS.INVALID_CODE;

export function hashResetCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

export function generateResetCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** Compares two SHA-256 hex digests in constant time. */
export function sameCodeHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

async function limitReset(ctx: Context, email: string): Promise<void> {
  await enforceRateLimit(ctx, 'passwordResetIp', ctx.ip);
  await enforceRateLimit(ctx, 'passwordReset', email);
}

/**
 * Answers alike for an address with an account and one without: the same single statement runs
 * for both (it stores a code only when the address has an account), and the mail is sent after
 * the answer, so a slow or failing mail server cannot tell the two apart.
 */
export async function forgotPassword(ctx: Context, input: ForgotPasswordInput): Promise<MessageResult> {
  const email = input.email.toLowerCase();
  await limitReset(ctx, email);
  const code = generateResetCode();
  const now = ctx.now();
  // One live code per user: the unique user_id decides, a new request overwrites the old row.
  const account = await storeResetCode(ctx.em, {
    email,
    codeHash: hashResetCode(code),
    expiresAt: new Date(now.getTime() + RESET_CODE_TTL_MS),
    now,
  });
  // In the account's language: the statement that stored the code read it, nothing more runs.
  if (account)
    sendWithoutWaiting(ctx.logError, 'password reset mail failed', () =>
      ctx.mailer.sendPasswordReset(account.email, code, account.language),
    );
  return { message: FORGOT_PASSWORD_MESSAGE };
}

/**
 * Every request takes the same way up to the answer, whether the address has an account, a code,
 * a live code or the right code: one lookup, one argon2 hash of the new password (used only when
 * the code is right), and for any refusal one statement that counts the wrong try against the
 * address's code (there is none for an unknown address) and drops a code at its fifth wrong try.
 */
export async function resetPassword(ctx: Context, input: ResetPasswordInput): Promise<MessageResult> {
  const email = input.email.toLowerCase();
  await limitReset(ctx, email);
  const found = await findReset(ctx.em, email);
  const newHash = await hashPassword(input.newPassword);
  const now = ctx.now().getTime();
  const valid =
    found?.reset_id != null &&
    found.code_hash != null &&
    found.expires_at != null &&
    new Date(found.expires_at).getTime() > now &&
    sameCodeHash(found.code_hash, hashResetCode(input.code));
  if (!valid) {
    // Counted atomically, so parallel guesses cannot exceed the budget; an expired code goes too.
    const counted = await countWrongReset(ctx.em, email);
    const spent = counted.filter(
      (row) => row.attempts >= RESET_MAX_ATTEMPTS || new Date(row.expires_at).getTime() <= now,
    );
    if (spent.length > 0)
      await deleteResets(
        ctx.em,
        spent.map((row) => row.id),
      );
    throw badRequest(INVALID_RESET_CODE);
  }
  // Claim the code: only one request can delete the row, so a code works once.
  const claimed = await claimReset(ctx.em, found.reset_id!, found.code_hash!);
  if (claimed !== 1) throw badRequest(INVALID_RESET_CODE);
  await setPasswordHash(ctx.em, found.user_id, newHash);
  await revokeSessions(ctx, found.user_id);
  return { message: RESET_PASSWORD_MESSAGE };
}
