import { type MessagesFrom, User } from '@cubes/db';
import { TRPCError } from '@trpc/server';
import type { AuthedContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { enforceRateLimit } from '../../trpc.js';
import { EMAIL_TAKEN } from '../auth/auth.service.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { revokeSessions } from '../auth/session.service.js';
import { feedChanged } from '../posts/feed-cache.js';
import { findUserByEmail, uniqueViolationField } from '../users/user.repository.js';
import { toUserDto, type UserDto } from '../users/user.serializer.js';
import { setProfileImages } from '../users/user.service.js';
import type { ChangeEmailInput, ChangePasswordInput, UpdateSettingsInput } from './settings.schema.js';

export interface SettingsDto {
  username: string;
  displayName: string;
  email: string;
  bio: string | null;
  avatarUrl: string | null;
  headerUrl: string | null;
  emailVisible: boolean;
  messagesFrom: MessagesFrom;
}

async function loadSelf(ctx: AuthedContext, withPassword = false) {
  const user = await ctx.em.findOne(
    User,
    { id: ctx.session.user.id },
    withPassword ? { populate: ['passwordHash'] } : {},
  );
  if (!user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'You need to be logged in' });
  return user;
}

export async function getSettings(ctx: AuthedContext): Promise<SettingsDto> {
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
  };
}

/** Partial update: only the fields present change. */
export async function updateSettings(
  ctx: AuthedContext,
  input: UpdateSettingsInput,
): Promise<{ user: UserDto }> {
  const user = await loadSelf(ctx);
  await setProfileImages(ctx, user, { avatarUrl: input.avatarUrl, headerUrl: input.headerUrl });
  if (input.displayName !== undefined) user.displayName = input.displayName;
  if (input.bio !== undefined) user.bio = input.bio;
  if (input.emailVisible !== undefined) user.emailVisible = input.emailVisible;
  if (input.messagesFrom !== undefined) user.messagesFrom = input.messagesFrom;
  await ctx.em.flush();
  feedChanged(ctx); // posts show their author's name and avatar
  return { user: toUserDto(user, user.id) };
}

export const PASSWORD_CHANGED = 'Password changed successfully';

/**
 * Checks the current password, stores the new one and ends every other session of the user.
 * Every check counts against the member's `passwordCheck` bucket, shared with the other
 * procedures that check their password, over every transport and batch.
 */
export async function changePassword(
  ctx: AuthedContext,
  input: ChangePasswordInput,
): Promise<{ message: string }> {
  await enforceRateLimit(ctx, 'passwordCheck', ctx.session.user.id);
  const user = await loadSelf(ctx, true);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw badRequest('Current password is incorrect');
  }
  user.passwordHash = await hashPassword(input.newPassword);
  await ctx.em.flush();
  await revokeSessions(ctx, user.id, ctx.session.id);
  return { message: PASSWORD_CHANGED };
}

export async function changeEmail(ctx: AuthedContext, input: ChangeEmailInput): Promise<{ user: UserDto }> {
  const user = await loadSelf(ctx, true);
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw badRequest('Password is incorrect');
  }
  const other = await findUserByEmail(ctx.em, input.email);
  if (other && other.id !== user.id) throw new TRPCError({ code: 'CONFLICT', message: EMAIL_TAKEN });
  user.email = input.email;
  try {
    await ctx.em.flush();
  } catch (error) {
    if (uniqueViolationField(error) === 'email') {
      throw new TRPCError({ code: 'CONFLICT', message: EMAIL_TAKEN });
    }
    throw error;
  }
  return { user: toUserDto(user, user.id) };
}
