/**
 * Every statement on members: the ORM look-ups by e-mail, name and id, and the profile reads as
 * single SQL queries (a member with their counts and where the viewer stands with them). Hidden
 * members (suspended, or behind a block either way) are left out in the statement.
 */
import type { AsText, IUser, Row } from '@cubes/db';
import { User } from '@cubes/db';
import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ERROR_REASONS } from '../../error-reasons.js';
import { preparedRows } from '../../prepared.js';
import { iso, sql, uuid } from '../../sql.js';
import { shownMember } from '../moderation/suspension.sql.js';
import type { Relationship } from '../safety/safety.schema.js';
import { column, notBlocked, relationship } from '../safety/safety.sql.js';

export const USER_NOT_FOUND = ERROR_REASONS.USER_NOT_FOUND;

/** Case-insensitive look-ups; the lower(...) unique indexes of the accounts migration serve them. */
export function findUserByEmail(
  em: EntityManager,
  email: string,
  withPassword = false,
): Promise<IUser | null> {
  return em.findOne(
    User,
    { [raw('lower(email)')]: email.toLowerCase() },
    withPassword ? { populate: ['passwordHash'] } : {},
  );
}

export function findUserByUsername(em: EntityManager, username: string): Promise<IUser | null> {
  return em.findOne(User, { [raw('lower(username)')]: username.toLowerCase(), deletedAt: null });
}

export function findUserById(em: EntityManager, id: string): Promise<IUser | null> {
  return em.findOne(User, { id });
}

/** Postgres unique-violation on one of the case-insensitive indexes → which field clashed. */
export function uniqueViolationField(error: unknown): 'username' | 'email' | null {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return null;
  const where = `${e.constraint ?? ''} ${e.message ?? ''}`;
  if (where.includes('users_username')) return 'username';
  if (where.includes('users_email')) return 'email';
  return null;
}

/** A member's three counts, as the statements name them. */
export interface StatsRow {
  followers: number;
  following: number;
  posts: number;
}

/** A user's three counts as columns of `u`, each served by an index (followee, follower pair, author). */
const STATS_COLUMNS = sql`
  (select count(*)::int from follows f where f.followee_id = u.id) as followers,
  (select count(*)::int from follows f where f.follower_id = u.id) as following,
  (select count(*)::int from posts p where p.author_id = u.id and p.removed_at is null) as posts`;

/** Where `viewerId` (null: a visitor) stands with `u`: the three safety facts and the follow. */
export type Standing = Relationship & { isFollowing: boolean };

function standingColumns(viewerId: string | null) {
  return sql`${relationship(viewerId, column('u.id'))},
  exists (select 1 from follows f where f.follower_id = ${uuid(viewerId)} and f.followee_id = u.id) as "isFollowing"`;
}

/**
 * A member's counts, or undefined when the viewer may not see them: unknown, suspended (the
 * counts would count what is hidden), or a block between the viewer and them either way (whose
 * posts are 404 to each other), the conditions every read of members' content uses.
 */
export async function findStats(
  em: EntityManager,
  userId: string,
  viewerId: string | null,
): Promise<StatsRow | undefined> {
  const [row] = await preparedRows<StatsRow>(
    em,
    sql`select ${STATS_COLUMNS} from users u
      where u.id = ${userId} and ${shownMember('u')} and ${notBlocked(viewerId, column('u.id'))}`,
  );
  return row;
}

/** A profile's row: the member's public columns (created_at as ISO text), counts and standing. */
export type ProfileRow = AsText<
  Pick<
    Row<IUser>,
    | 'id'
    | 'username'
    | 'display_name'
    | 'email'
    | 'email_visible'
    | 'bio'
    | 'avatar_url'
    | 'header_url'
    | 'created_at'
  >,
  'created_at'
> &
  StatsRow &
  Standing & { suspended: boolean };

/**
 * The member named `username` (any case; not deleted) with their counts and where `viewerId`
 * stands with them (all false for null), in one statement.
 */
export async function findProfileRow(
  em: EntityManager,
  username: string,
  viewerId: string | null,
): Promise<ProfileRow | undefined> {
  const [row] = await preparedRows<ProfileRow>(
    em,
    sql`select u.id, u.username, u.display_name, u.email, u.email_visible, u.bio, u.avatar_url, u.header_url,
            ${iso('u.created_at')} as created_at, not ${shownMember('u')} as suspended,
            ${STATS_COLUMNS}, ${standingColumns(viewerId)}
       from users u
      where lower(u.username) = ${username.toLowerCase()} and u.deleted_at is null`,
  );
  return row;
}

/** Where `viewerId` stands with the member `userId`. */
export async function findStanding(
  em: EntityManager,
  userId: string,
  viewerId: string,
): Promise<Standing | undefined> {
  const [row] = await preparedRows<Standing>(
    em,
    sql`select ${standingColumns(viewerId)} from users u where u.id = ${userId}`,
  );
  return row;
}

/** Whether a users row `userId` exists (deleted accounts' tombstones included). */
export async function userRowExists(em: EntityManager, userId: string): Promise<boolean> {
  const found = await preparedRows<unknown>(em, sql`select 1 from users where id = ${userId}`);
  return found.length > 0;
}
