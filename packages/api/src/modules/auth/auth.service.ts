/**
 * Accounts in and out: register (a new member and their first session), login (limited by IP,
 * address and account, and refused to a suspended member only after the password), the member's
 * own answer (auth.me) and logout.
 */
import { createHash } from 'node:crypto';
import type { IUser } from '@cubes/db';
import type { Context } from '../../context.types.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { conflict, LOGIN_REQUIRED, unauthorized } from '../../errors.js';
import { DEFAULT_LANGUAGE } from '../../rules.js';
import { enforceRateLimit } from '../../trpc.js';
import { isUsernameHeld } from '../account/account.service.js';
import { refuseSuspended } from '../moderation/moderation.access.js';
import { createSession, deleteSession } from '../sessions/sessions.service.js';
import {
  findUserByEmail,
  findUserById,
  findUserByUsername,
  uniqueViolationField,
} from '../users/user.repository.js';
import type { SessionResult } from '../users/user.schema.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from './auth.password.js';
import { insertUser } from './auth.repository.js';
import type { LoginInput, OkResult, RegisterInput } from './auth.schema.js';
import { sessionResultFor } from './auth.serializer.js';

export const USERNAME_TAKEN = ERROR_REASONS.USERNAME_TAKEN;
export const EMAIL_TAKEN = ERROR_REASONS.EMAIL_TAKEN;
export const INVALID_LOGIN = ERROR_REASONS.INVALID_CREDENTIALS;

export async function conflictFor(field: 'username' | 'email'): Promise<never> {
  throw conflict(field === 'username' ? USERNAME_TAKEN : EMAIL_TAKEN);
}

async function startSession(ctx: Context, userId: string): Promise<void> {
  const { token, expiresAt } = await createSession(ctx.em, userId, ctx.userAgent, ctx.now());
  ctx.response.setSessionCookie(token, expiresAt);
}

export async function register(ctx: Context, input: RegisterInput): Promise<SessionResult> {
  await enforceRateLimit(ctx, 'register', ctx.ip);
  if (await findUserByUsername(ctx.em, input.username)) await conflictFor('username');
  if (await isUsernameHeld(ctx.em, input.username, ctx.now())) await conflictFor('username');
  if (await findUserByEmail(ctx.em, input.email)) await conflictFor('email');
  const passwordHash = await hashPassword(input.password);
  let user: IUser;
  try {
    user = await insertUser(ctx.em, {
      username: input.username,
      email: input.email,
      displayName: input.displayName,
      passwordHash,
      language: input.language ?? DEFAULT_LANGUAGE,
      createdAt: ctx.now(),
    });
  } catch (error) {
    // Two registrations raced past the checks above; the unique index decides.
    const field = uniqueViolationField(error);
    if (field) await conflictFor(field);
    throw error;
  }
  await startSession(ctx, user.id);
  return sessionResultFor(user);
}

/**
 * The key of the `loginAccount` bucket: the account (whatever the IP, so many addresses together
 * cannot guess one account's password faster) and its current password, so that when the owner
 * was locked out, a password reset (or change) starts a new count and they can log in again. An
 * address without an account counts by itself, the same way: a 429 tells nobody which is which.
 */
export function loginAccountKey(email: string, user: Pick<IUser, 'id' | 'passwordHash'> | null): string {
  if (!user) return `email:${email}`;
  const password = createHash('sha256').update(user.passwordHash).digest('hex').slice(0, 16);
  return `user:${user.id}:${password}`;
}

export async function login(ctx: Context, input: LoginInput): Promise<SessionResult> {
  const email = input.email.toLowerCase();
  await enforceRateLimit(ctx, 'loginIp', ctx.ip);
  await enforceRateLimit(ctx, 'login', `${ctx.ip}|${email}`);
  const user = await findUserByEmail(ctx.em, email, true);
  await enforceRateLimit(ctx, 'loginAccount', loginAccountKey(email, user));
  if (!user) {
    await burnPasswordCheck(input.password);
    throw unauthorized(INVALID_LOGIN);
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    throw unauthorized(INVALID_LOGIN);
  }
  // Only after the password: a stranger does not learn that an address has a suspended account.
  await refuseSuspended(ctx.em, user.id, ctx.now());
  await startSession(ctx, user.id);
  return sessionResultFor(user);
}

export async function me(
  ctx: Context & { session: NonNullable<Context['session']> },
): Promise<SessionResult> {
  const user = await findUserById(ctx.em, ctx.session.user.id);
  if (!user) throw unauthorized(LOGIN_REQUIRED);
  return sessionResultFor(user);
}

/** The caller's session, or null for a visitor (or a session whose member is gone). */
export async function session(ctx: Context): Promise<SessionResult | null> {
  if (!ctx.session) return null;
  const user = await findUserById(ctx.em, ctx.session.user.id);
  return user ? sessionResultFor(user) : null;
}

export async function logout(ctx: Context): Promise<OkResult> {
  if (ctx.session) await deleteSession(ctx, ctx.session.user.id, ctx.session.id);
  ctx.response.clearSessionCookie();
  return { ok: true };
}
