/**
 * Who moderates: the check every moderation procedure runs first, and the operator command's
 * role change. Only moderators reach the queue, the log and the actions: to everyone else the
 * procedures do not exist (404), like the page.
 */
import { isModeratorRole, type UserRole } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context, CurrentSession } from '../../context.js';
import { notFound } from '../../errors.js';
import { roleOf, updateRole } from './moderation.repository.js';

export const NOT_FOUND_MESSAGE = 'Not found';

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
