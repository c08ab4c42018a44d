/**
 * Who moderates and who may act: the check every moderation procedure runs first, the operator
 * command's role change, and login's refusal of a suspended member. Only moderators reach the queue, the log and the actions: to everyone else the
 * procedures do not exist (404), like the page.
 */
import { isModeratorRole, type UserRole } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context, CurrentSession } from '../../context.types.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { forbidden, notFound } from '../../errors.js';
import { findSuspension, roleOf, updateRole } from './moderation.repository.js';

export const NOT_FOUND_MESSAGE = ERROR_REASONS.NOT_FOUND;

export type ModeratorContext = Context & { session: CurrentSession };

/** The caller, if a moderator; 404 for everyone else, logged in or not. */
export async function requireModerator(ctx: Context): Promise<CurrentSession> {
  if (!ctx.session) throw notFound(NOT_FOUND_MESSAGE);
  if (!isModeratorRole(await roleOf(ctx.em, ctx.session.user.id))) throw notFound(NOT_FOUND_MESSAGE);
  return ctx.session;
}

/**
 * Grants or takes back the moderator role: the operator command's work (`npm run admin --
 * make-moderator <username>`); there is no procedure for it. Null when no member has that name.
 */
export async function setRole(
  em: EntityManager,
  username: string,
  role: UserRole,
): Promise<{ username: string; role: string } | null> {
  return (await updateRole(em, username, role)) ?? null;
}

export function suspendedMessage(until: Date | null): string {
  if (!until) return ERROR_REASONS.ACCOUNT_SUSPENDED;
  return `This account is suspended until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** 403 when `userId` is suspended at `now`. */
export async function refuseSuspended(em: EntityManager, userId: string, now: Date): Promise<void> {
  const row = await findSuspension(em, userId, now);
  if (row) {
    const until = row.suspended_until;
    throw forbidden(suspendedMessage(until ? new Date(until) : null));
  }
}
