/**
 * Every statement on the sessions table: write one at login, find one by its token's hash (the
 * hot path, a prepared statement), renew its expiry, list and delete a member's. Each runs on the
 * EntityManager it is given; the look-ups use plain SQL only, so the root one will do.
 */
import { type ISession, type Row, Session, User } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { type Sql, sql } from '../../sql.js';
import { notSuspended } from '../moderation/suspension.sql.js';

/** `query` on `em`'s connection, outside any transaction context of `em`. */
function onConnection<T>(em: EntityManager, query: Sql): Promise<T[]> {
  return em.getConnection().execute<T[]>(query.sql, query.values);
}

export async function insertSession(
  em: EntityManager,
  session: { tokenHash: string; userId: string; userAgent: string | null; now: Date; expiresAt: Date },
): Promise<void> {
  em.create(Session, {
    tokenHash: session.tokenHash,
    user: em.getReference(User, session.userId),
    createdAt: session.now,
    lastSeenAt: session.now,
    expiresAt: session.expiresAt,
    userAgent: session.userAgent,
  });
  await em.flush();
}

type SessionRow = Row<ISession>;

export type LiveSessionRow = Pick<SessionRow, 'id' | 'user_id' | 'last_seen_at' | 'expires_at'> & {
  username: string;
};

/** The unexpired session of a token hash whose member is not suspended at `now`. */
export async function findLiveSession(
  em: EntityManager,
  tokenHash: string,
  now: Date,
): Promise<LiveSessionRow | undefined> {
  const found = await preparedRows<LiveSessionRow>(
    em,
    sql`select s.id, s.user_id, u.username, s.last_seen_at, s.expires_at
       from sessions s join users u on u.id = s.user_id
      where s.token_hash = ${tokenHash} and s.expires_at > ${now} and ${notSuspended('u', now)}`,
  );
  return found[0];
}

/** Pushes a session's expiry out, as of `now`. */
export async function renewSession(
  em: EntityManager,
  sessionId: string,
  now: Date,
  expiresAt: Date,
): Promise<void> {
  await onConnection(
    em,
    sql`update sessions set last_seen_at = ${now}, expires_at = ${expiresAt} where id = ${sessionId}`,
  );
}

/** Deletes one session, or all of a user's but `exceptSessionId`; how many went. */
export function deleteSessions(
  em: EntityManager,
  which: { sessionId?: string; userId: string; exceptSessionId?: string },
): Promise<number> {
  return em.nativeDelete(
    Session,
    which.sessionId !== undefined
      ? { id: which.sessionId }
      : { user: which.userId, ...(which.exceptSessionId ? { id: { $ne: which.exceptSessionId } } : {}) },
  );
}

export type SessionListRow = Pick<SessionRow, 'id' | 'created_at' | 'last_seen_at'> & {
  user_agent: string | null;
};

/** A user's unexpired sessions, `currentId` first, then the most recently seen (at most 200). */
export function listUserSessions(
  em: EntityManager,
  userId: string,
  currentId: string,
  now: Date,
): Promise<SessionListRow[]> {
  return onConnection<SessionListRow>(
    em,
    sql`select id, user_agent, created_at, last_seen_at from sessions
      where user_id = ${userId} and expires_at > ${now}
      order by (id = ${currentId}) desc, last_seen_at desc, created_at desc
      limit 200`,
  );
}

/** Whether `sessionId` is one of `userId`'s sessions. */
export async function isSessionOf(em: EntityManager, sessionId: string, userId: string): Promise<boolean> {
  const found = await onConnection(
    em,
    sql`select id from sessions where id = ${sessionId} and user_id = ${userId}`,
  );
  return found.length > 0;
}
