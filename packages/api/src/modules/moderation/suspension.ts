/**
 * Suspension: a suspended member cannot log in, and no session of theirs resolves, until
 * `suspended_until` (never, when it is null). The SQL condition is shared by login and the
 * session look-up, so both agree on who is suspended.
 *
 * While suspended, what they wrote is out of sight too (as on Mastodon): their posts, comments
 * and media, their name in search and suggestions, their notifications to others.
 * `shownMemberSql` is that condition for every read of others' content; it reads the database's
 * clock, so the content is back the moment a suspension ends, with nothing to undo. Moderators
 * still see it on /moderation, and direct messages stay (as after a block).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { TRPCError } from '@trpc/server';
import { raw, type Sql, sql } from '../../sql.js';

/** `alias` (the users table) is not suspended at `clock`, an SQL expression. */
function notSuspendedAt(alias: string, clock: string): string {
  // Never null: a suspension for ever (null end) must not turn the whole condition unknown.
  return `(${alias}.suspended_at is null or (${alias}.suspended_until is not null and ${alias}.suspended_until <= ${clock}))`;
}

/** True for a member who may act: `alias` is the users table's alias; one `now` parameter. */
export function notSuspendedSql(alias: string): string {
  return notSuspendedAt(alias, '?');
}

/**
 * True for a member whose content others may see: not suspended at the database's `now()`.
 * `alias` is the users table's alias; no parameter.
 */
export function shownMemberSql(alias: string): string {
  return notSuspendedAt(alias, 'now()');
}

/** `shownMemberSql` as a fragment (sql.ts). */
export function shownMember(alias: string): Sql {
  return raw(shownMemberSql(alias));
}

/** `notSuspendedSql` as a fragment, its clock (`now`) bound. */
export function notSuspended(alias: string, now: Date): Sql {
  const a = raw(alias);
  return sql`(${a}.suspended_at is null or (${a}.suspended_until is not null and ${a}.suspended_until <= ${now}))`;
}

/**
 * `shownMemberSql` for a member known by id (`m.creator_id`), where their row is not joined.
 * A scalar subquery, not EXISTS: the planner cannot turn it into a join, so it stays one
 * primary-key look-up per row that reaches it, never a hash of every member.
 */
export function shownMemberById(id: string): string {
  return `coalesce((select ${shownMemberSql('sm')} from users sm where sm.id = ${id}), false)`;
}

/** `shownMemberById` as a fragment: `shownMemberWithId(column('p.author_id'))`. */
export function shownMemberWithId(id: Sql): Sql {
  return sql`coalesce((select ${shownMember('sm')} from users sm where sm.id = ${id}), false)`;
}

export function suspendedMessage(until: Date | null): string {
  if (!until) return 'This account has been suspended';
  return `This account is suspended until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** 403 when `userId` is suspended at `now`. */
export async function refuseSuspended(em: EntityManager, userId: string, now: Date): Promise<void> {
  const rows = await em.execute<{ suspended_until: Date | null }[]>(
    `select u.suspended_until from users u where u.id = ? and not ${notSuspendedSql('u')}`,
    [userId, now],
  );
  if (rows[0]) {
    const until = rows[0].suspended_until;
    throw new TRPCError({ code: 'FORBIDDEN', message: suspendedMessage(until ? new Date(until) : null) });
  }
}
