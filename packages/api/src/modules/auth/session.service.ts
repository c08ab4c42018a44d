/**
 * Cookie sessions: a random 32-byte token goes to the browser; only its SHA-256 is stored.
 * Sessions slide: each use pushes the expiry 30 days out (written at most hourly).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Session, User } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CurrentSession } from '../../context.js';

export const SESSION_COOKIE = 'cubes_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const REFRESH_AFTER_MS = 60 * 60 * 1000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(
  em: EntityManager,
  userId: string,
  userAgent: string | null,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  em.create(Session, {
    tokenHash: hashToken(token),
    user: em.getReference(User, userId),
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    userAgent: userAgent?.slice(0, 512) ?? null,
  });
  await em.flush();
  return { token, expiresAt };
}

export interface ResolvedSession extends CurrentSession {
  /** set when the expiry moved and the cookie should be sent again */
  renewedUntil: Date | null;
}

/** One indexed query per request; expired or unknown tokens resolve to null. */
export async function resolveSession(
  em: EntityManager,
  token: string | undefined,
  now: Date,
): Promise<ResolvedSession | null> {
  if (!token || token.length > 128) return null;
  const rows = await em
    .getConnection()
    .execute<{ id: string; user_id: string; username: string; last_seen_at: Date }[]>(
      `select s.id, s.user_id, u.username, s.last_seen_at
       from sessions s join users u on u.id = s.user_id
      where s.token_hash = ? and s.expires_at > ?`,
      [hashToken(token), now],
    );
  const row = rows[0];
  if (!row) return null;
  let renewedUntil: Date | null = null;
  if (now.getTime() - new Date(row.last_seen_at).getTime() > REFRESH_AFTER_MS) {
    renewedUntil = new Date(now.getTime() + SESSION_TTL_MS);
    await em
      .getConnection()
      .execute('update sessions set last_seen_at = ?, expires_at = ? where id = ?', [
        now,
        renewedUntil,
        row.id,
      ]);
  }
  return { id: row.id, user: { id: row.user_id, username: row.username }, renewedUntil };
}

export async function deleteSession(em: EntityManager, sessionId: string): Promise<void> {
  await em.nativeDelete(Session, { id: sessionId });
}

/** Ends every session of a user, optionally keeping one (the caller's). */
export async function revokeSessions(
  em: EntityManager,
  userId: string,
  keepSessionId?: string,
): Promise<number> {
  return em.nativeDelete(Session, {
    user: userId,
    ...(keepSessionId ? { id: { $ne: keepSessionId } } : {}),
  });
}
