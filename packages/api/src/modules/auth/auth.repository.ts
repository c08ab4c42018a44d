/**
 * The statements of registration and the password reset: a new member's row, the reset code kept
 * as its hash (one live code per member), the wrong tries counted against it, and the new
 * password. The look-ups by address are case-insensitive (the lower(email) index serves them).
 */
import { type IUser, PasswordReset, User } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Language } from '../../rules.js';
import { type Sql, sql } from '../../sql.js';

/** `query` on `em`'s connection, outside any transaction context of `em`. */
function onConnection<T>(em: EntityManager, query: Sql): Promise<T[]> {
  return em.getConnection().execute<T[]>(query.sql, query.values);
}

/** Writes a new member; a unique violation (username or e-mail taken) comes out of the flush. */
export async function insertUser(
  em: EntityManager,
  user: {
    username: string;
    email: string;
    displayName: string;
    passwordHash: string;
    language: Language;
    createdAt: Date;
  },
): Promise<IUser> {
  const created = em.create(User, { ...user, emailVisible: false });
  await em.flush();
  return created;
}

/**
 * Stores a reset code for the account of `email` (replacing its live one) when there is such an
 * account, in one statement either way; the account's address and language (its mail's), or
 * undefined.
 */
export async function storeResetCode(
  em: EntityManager,
  reset: { email: string; codeHash: string; expiresAt: Date; now: Date },
): Promise<{ email: string; language: Language } | undefined> {
  const found = await onConnection<{ email: string; language: Language }>(
    em,
    sql`with account as (select id, email, language from users where lower(email) = ${reset.email}),
     stored as (
       insert into password_resets (id, user_id, code_hash, expires_at, attempts, created_at)
       select gen_random_uuid(), account.id, ${reset.codeHash}, ${reset.expiresAt}, 0, ${reset.now} from account
       on conflict (user_id) do update
         set code_hash = excluded.code_hash, expires_at = excluded.expires_at,
             attempts = 0, created_at = excluded.created_at
       returning user_id)
     select account.email, account.language from account join stored on stored.user_id = account.id`,
  );
  return found[0];
}

export interface ResetLookup {
  user_id: string;
  reset_id: string | null;
  code_hash: string | null;
  expires_at: Date | null;
}

/** The account of `email` (lower case) and its reset code, if any. */
export async function findReset(em: EntityManager, email: string): Promise<ResetLookup | undefined> {
  const found = await onConnection<ResetLookup>(
    em,
    sql`select u.id as user_id, r.id as reset_id, r.code_hash, r.expires_at
       from users u left join password_resets r on r.user_id = u.id
      where lower(u.email) = ${email}`,
  );
  return found[0];
}

/** Counts a wrong try against the code of `email`'s account, atomically; the codes counted. */
export function countWrongReset(
  em: EntityManager,
  email: string,
): Promise<{ id: string; attempts: number; expires_at: Date }[]> {
  return onConnection(
    em,
    sql`update password_resets r set attempts = r.attempts + 1
         from users u where u.id = r.user_id and lower(u.email) = ${email}
       returning r.id, r.attempts, r.expires_at`,
  );
}

export async function deleteResets(em: EntityManager, ids: string[]): Promise<void> {
  await em.nativeDelete(PasswordReset, { id: { $in: ids } });
}

/** Deletes the code if it is still this one: 1 for the one request that claims it, else 0. */
export function claimReset(em: EntityManager, resetId: string, codeHash: string): Promise<number> {
  return em.nativeDelete(PasswordReset, { id: resetId, codeHash });
}

export async function setPasswordHash(
  em: EntityManager,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await em.nativeUpdate(User, { id: userId }, { passwordHash });
}
