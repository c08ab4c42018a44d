/**
 * Suspension: a suspended member cannot log in, and no session of theirs resolves, until
 * `suspended_until` (never, when it is null). The SQL condition is shared by login and the
 * session look-up, so both agree on who is suspended.
 *
 * While suspended, what they wrote is out of sight too (as on Mastodon): their posts, comments
 * and media, their name in search and suggestions, their notifications to others.
 * `shownMember` is that condition for every read of others' content; it reads the database's
 * clock, so the content is back the moment a suspension ends, with nothing to undo. Moderators
 * still see it on /moderation, and direct messages stay (as after a block).
 */
import { raw, type Sql, sql } from '../../sql.js';

/** `alias` (the users table) is not suspended at `clock`. */
function notSuspendedAt(alias: string, clock: Sql): Sql {
  const a = raw(alias);
  // Never null: a suspension for ever (null end) must not turn the whole condition unknown.
  return sql`(${a}.suspended_at is null or (${a}.suspended_until is not null and ${a}.suspended_until <= ${clock}))`;
}

/** True for a member who may act at `now` (bound): `alias` is the users table's alias. */
export function notSuspended(alias: string, now: Date): Sql {
  return notSuspendedAt(alias, sql`${now}`);
}

/**
 * True for a member whose content others may see: not suspended at the database's `now()`.
 * `alias` is the users table's alias; no parameter.
 */
export function shownMember(alias: string): Sql {
  return notSuspendedAt(alias, raw('now()'));
}

/**
 * `shownMember` for a member known by id, where their row is not joined: `id` is a column
 * (`column('m.creator_id')`) or a value (`uuid(id)`). A scalar subquery, not EXISTS: the planner
 * cannot turn it into a join, so it stays one primary-key look-up per row that reaches it, never
 * a hash of every member.
 */
export function shownMemberOf(id: Sql): Sql {
  return sql`coalesce((select ${shownMember('sm')} from users sm where sm.id = ${id}), false)`;
}

/**
 * `shownMemberOf` for many members at once (`id` a column of an existing member): none of the
 * members suspended now has this id. It reads the suspended members' partial index
 * (`users_suspended_index`), a handful of rows the planner may hash once, where `shownMemberOf`
 * reads every member's row: 200 followees cost 800 buffers that way (bench/README.md, "Later
 * pages of the Following feed").
 */
export function notSuspendedMember(id: Sql): Sql {
  // `suspended_at is not null` written out: it is what lets the planner take the partial index.
  return sql`not exists (select 1 from users sus
    where sus.id = ${id} and sus.suspended_at is not null and not ${shownMember('sus')})`;
}
