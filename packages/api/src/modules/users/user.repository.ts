import { type IUser, User } from '@cubes/db';
import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

export const USER_NOT_FOUND = 'User not found';

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
