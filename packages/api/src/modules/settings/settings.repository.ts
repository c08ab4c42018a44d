/**
 * The statements behind the member's own settings: their row (with the password hash when a
 * check needs it), the pending e-mail change (one per member, its code kept as a hash), and the
 * reset codes an address change voids.
 */
import { EmailChange, type IEmailChange, type IUser, PasswordReset, User } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../../sql.js';

export function findSelf(em: EntityManager, userId: string, withPassword = false): Promise<IUser | null> {
  return em.findOne(User, { id: userId }, withPassword ? { populate: ['passwordHash'] } : {});
}

/** Stores the member's pending change, replacing the address, the code and the tries of any earlier one. */
export async function storeEmailChange(
  em: EntityManager,
  change: { userId: string; newEmail: string; codeHash: string; expiresAt: Date; now: Date },
): Promise<void> {
  const query = sql`insert into email_changes (id, user_id, new_email, code_hash, expires_at, attempts, created_at)
     values (gen_random_uuid(), ${change.userId}, ${change.newEmail}, ${change.codeHash}, ${change.expiresAt}, 0, ${change.now})
     on conflict (user_id) do update
       set new_email = excluded.new_email, code_hash = excluded.code_hash,
           expires_at = excluded.expires_at, attempts = 0, created_at = excluded.created_at`;
  await em.getConnection().execute(query.sql, query.values);
}

export function findEmailChange(em: EntityManager, userId: string): Promise<IEmailChange | null> {
  return em.findOne(EmailChange, { user: userId });
}

/** Deletes the pending change (only while its code is `codeHash`, when given); how many went. */
export function deleteEmailChange(em: EntityManager, id: string, codeHash?: string): Promise<number> {
  return em.nativeDelete(EmailChange, codeHash === undefined ? { id } : { id, codeHash });
}

/** Counts a wrong code atomically; the tries so far, or undefined when the change is gone. */
export async function countWrongEmailCode(em: EntityManager, id: string): Promise<number | undefined> {
  const query = sql`update email_changes set attempts = attempts + 1 where id = ${id} returning attempts`;
  const found = await em.getConnection().execute<{ attempts: number }[]>(query.sql, query.values);
  return found[0]?.attempts;
}

export async function deletePasswordResets(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(PasswordReset, { user: userId });
}
