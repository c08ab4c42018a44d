/**
 * Forgot / reset password: a 6-digit code, mailed, stored only as its SHA-256, valid 15 minutes,
 * 5 wrong tries. One live code per user (a new request replaces the old one).
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { PasswordReset, User } from '@cubes/db';
import type { Context } from '../../context.js';
import { badRequest } from '../../errors.js';
import { enforceRateLimit } from '../../trpc.js';
import { findUserByEmail } from '../users/user.repository.js';
import type { ForgotPasswordInput, ResetPasswordInput } from './auth.schema.js';
import { burnPasswordCheck, hashPassword } from './password.js';
import { revokeSessions } from './session.service.js';

export const RESET_CODE_TTL_MS = 15 * 60 * 1000;
export const RESET_MAX_ATTEMPTS = 5;
export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for that email, a reset code has been sent.';
export const RESET_PASSWORD_MESSAGE = 'Password reset successfully';
export const INVALID_RESET_CODE = 'Invalid or expired code';

export function hashResetCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

export function generateResetCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

async function limitReset(ctx: Context, email: string): Promise<void> {
  await enforceRateLimit(ctx, 'passwordResetIp', ctx.ip);
  await enforceRateLimit(ctx, 'passwordReset', email);
}

export async function forgotPassword(ctx: Context, input: ForgotPasswordInput): Promise<{ message: string }> {
  const email = input.email.toLowerCase();
  await limitReset(ctx, email);
  const user = await findUserByEmail(ctx.em, email);
  if (user) {
    const code = generateResetCode();
    const now = ctx.now();
    // One live code per user: the unique user_id decides, a new request overwrites the old row.
    await ctx.em.getConnection().execute(
      `insert into password_resets (id, user_id, code_hash, expires_at, attempts, created_at)
       values (gen_random_uuid(), ?, ?, ?, 0, ?)
       on conflict (user_id) do update
         set code_hash = excluded.code_hash, expires_at = excluded.expires_at,
             attempts = 0, created_at = excluded.created_at`,
      [user.id, hashResetCode(code), new Date(now.getTime() + RESET_CODE_TTL_MS), now],
    );
    try {
      await ctx.mailer.sendPasswordReset(user.email, code);
    } catch (error) {
      // The answer stays the same: a mail failure must not tell anyone the account exists.
      ctx.logError?.('password reset mail failed', error);
    }
  }
  return { message: FORGOT_PASSWORD_MESSAGE };
}

export async function resetPassword(ctx: Context, input: ResetPasswordInput): Promise<{ message: string }> {
  const email = input.email.toLowerCase();
  await limitReset(ctx, email);
  const user = await findUserByEmail(ctx.em, email);
  const reset = user ? await ctx.em.findOne(PasswordReset, { user: user.id }) : null;
  if (!user || !reset) {
    await burnPasswordCheck(input.newPassword);
    throw badRequest(INVALID_RESET_CODE);
  }
  if (reset.expiresAt.getTime() <= ctx.now().getTime()) {
    await ctx.em.nativeDelete(PasswordReset, { id: reset.id });
    throw badRequest(INVALID_RESET_CODE);
  }
  if (!sameHash(reset.codeHash, hashResetCode(input.code))) {
    // Count atomically so parallel guesses cannot exceed the budget; the 5th wrong try kills the code.
    const rows = await ctx.em
      .getConnection()
      .execute<{ attempts: number }[]>(
        'update password_resets set attempts = attempts + 1 where id = ? returning attempts',
        [reset.id],
      );
    if ((rows[0]?.attempts ?? RESET_MAX_ATTEMPTS) >= RESET_MAX_ATTEMPTS) {
      await ctx.em.nativeDelete(PasswordReset, { id: reset.id });
    }
    throw badRequest(INVALID_RESET_CODE);
  }
  // Claim the code: only one request can delete the row, so a code works once.
  const claimed = await ctx.em.nativeDelete(PasswordReset, { id: reset.id });
  if (claimed !== 1) throw badRequest(INVALID_RESET_CODE);
  await ctx.em.nativeUpdate(User, { id: user.id }, { passwordHash: await hashPassword(input.newPassword) });
  await revokeSessions(ctx, user.id);
  return { message: RESET_PASSWORD_MESSAGE };
}
