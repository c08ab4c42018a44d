/**
 * Sessions: the cookie's (a random 32-byte token goes to the browser; only its SHA-256 is stored;
 * each use pushes the expiry 30 days out, written at most hourly), resolved through the kept
 * sessions (sessions.cache.ts) on every request, and ended by logout, revocation or the member
 * themselves. A member lists their own sessions (device, last seen, which one is this), ends one,
 * or ends every other. Ending deletes the rows and tells every instance at commit, so the ended
 * sessions are refused and their sockets close everywhere.
 */
import { hash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, type Context, type CurrentSession, sentWithWrite } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { isUuid, notFound } from '../../errors.js';
import {
  type CachedSession,
  type EndedSessions,
  SESSION_CACHE_TTL_MS,
  sessionCache,
} from './sessions.cache.js';
import { describeDevice } from './sessions.device.js';
import {
  deleteSessions,
  findLiveSession,
  insertSession,
  isSessionOf,
  listUserSessions,
  renewSession,
} from './sessions.repository.js';
import type { EndSessionsResult, SessionIdInput, SessionListResult } from './sessions.schema.js';

export const SESSION_COOKIE = 'cubes_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const REFRESH_AFTER_MS = 60 * 60 * 1000;

/** SHA-256, hex. One-shot crypto.hash: it runs on every request, and is faster than a Hash object. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export async function createSession(
  em: EntityManager,
  userId: string,
  userAgent: string | null,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await insertSession(em, {
    tokenHash: hashToken(token),
    userId,
    userAgent: userAgent?.slice(0, 512) ?? null,
    now,
    expiresAt,
  });
  return { token, expiresAt };
}

export interface ResolvedSession extends CurrentSession {
  /** set when the expiry moved and the cookie should be sent again */
  renewedUntil: Date | null;
}

async function loadSession(em: EntityManager, tokenHash: string, now: Date): Promise<CachedSession | null> {
  const row = await findLiveSession(em, tokenHash, now);
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    username: row.username,
    lastSeenAt: new Date(row.last_seen_at).getTime(),
    expiresAt: new Date(row.expires_at).getTime(),
    cachedAt: now.getTime(),
  };
}

function fresh(entry: CachedSession, nowMs: number): boolean {
  return nowMs - entry.cachedAt < SESSION_CACHE_TTL_MS && nowMs >= entry.cachedAt;
}

function resolved(entry: CachedSession, renewedUntil: Date | null): ResolvedSession {
  return { id: entry.id, user: { id: entry.userId, username: entry.username }, renewedUntil };
}

/**
 * The session from memory alone, when that is enough to answer: null for no token or an
 * expired cached session, the session when it is cached and needs no renewal, and undefined
 * when resolveSession has to ask the database. Lets the hot path skip a promise.
 */
export function resolveSessionFromCache(
  em: EntityManager,
  token: string | undefined,
  now: Date,
): ResolvedSession | null | undefined {
  if (!token || token.length > 128) return null;
  const entry = sessionCache(em).get(hashToken(token));
  const nowMs = now.getTime();
  if (
    !entry ||
    !fresh(entry, nowMs) ||
    entry.expiresAt <= nowMs ||
    nowMs - entry.lastSeenAt > REFRESH_AFTER_MS
  ) {
    return undefined;
  }
  return resolved(entry, null);
}

/**
 * Expired or unknown tokens resolve to null. At most one indexed query, usually none. Only plain
 * SQL on `em`'s connection is used, so the root EntityManager will do.
 */
export async function resolveSession(
  em: EntityManager,
  token: string | undefined,
  now: Date,
): Promise<ResolvedSession | null> {
  if (!token || token.length > 128) return null;
  const tokenHash = hashToken(token);
  const cache = sessionCache(em);
  const nowMs = now.getTime();
  let entry = cache.get(tokenHash) ?? null;
  if (!entry || !fresh(entry, nowMs)) {
    entry = await loadSession(em, tokenHash, now);
    cache.delete(tokenHash);
    if (!entry) return null;
    cache.set(tokenHash, entry);
  }
  if (entry.expiresAt <= nowMs) {
    cache.delete(tokenHash);
    return null;
  }
  let renewedUntil: Date | null = null;
  if (nowMs - entry.lastSeenAt > REFRESH_AFTER_MS) {
    renewedUntil = new Date(nowMs + SESSION_TTL_MS);
    await renewSession(em, entry.id, now, renewedUntil);
    entry.lastSeenAt = nowMs;
    entry.expiresAt = renewedUntil.getTime();
  }
  return resolved(entry, renewedUntil);
}

type SessionContext = Pick<Context, 'em' | 'bus'>;

/**
 * Ends sessions: deleted, and announced to the other instances in the same transaction, so the
 * news is on its way before the caller is answered and another instance refuses the session from
 * the next request on; this process's cache hears it once the deletion committed.
 */
async function endSessions(ctx: SessionContext, which: EndedSessions): Promise<number> {
  const count = await ctx.em.transactional(async (em) => {
    const count = await deleteSessions(em, which);
    await ctx.bus.publish('sessions', which, em);
    return count;
  });
  sentWithWrite({ cacheScope: ctx.em.getDriver() }, 'sessions', which);
  return count;
}

export async function deleteSession(ctx: SessionContext, userId: string, sessionId: string): Promise<void> {
  await endSessions(ctx, { userId, sessionId });
}

/** Ends every session of a user, optionally keeping one (the caller's). */
export function revokeSessions(ctx: SessionContext, userId: string, keepSessionId?: string): Promise<number> {
  return endSessions(ctx, { userId, ...(keepSessionId ? { exceptSessionId: keepSessionId } : {}) });
}

const iso = (value: Date | string) => new Date(value).toISOString();

export async function listSessions(ctx: AuthedContext): Promise<SessionListResult> {
  const now = ctx.now();
  const rows = await listUserSessions(ctx.em, ctx.session.user.id, ctx.session.id, now);
  return {
    sessions: rows.map((row) => {
      const current = row.id === ctx.session.id;
      return {
        id: row.id,
        device: describeDevice(row.user_agent),
        createdAt: iso(row.created_at),
        lastSeenAt: current ? now.toISOString() : iso(row.last_seen_at),
        current,
      };
    }),
  };
}

/** Ends one of the caller's sessions (this one too: that is a logout). Someone else's is 404. */
export async function endSession(
  ctx: AuthedContext,
  { sessionId }: SessionIdInput,
): Promise<EndSessionsResult> {
  if (!isUuid(sessionId)) throw notFound(ERROR_REASONS.SESSION_NOT_FOUND);
  if (!(await isSessionOf(ctx.em, sessionId, ctx.session.user.id)))
    throw notFound(ERROR_REASONS.SESSION_NOT_FOUND);
  await deleteSession(ctx, ctx.session.user.id, sessionId);
  if (sessionId === ctx.session.id) ctx.response.clearSessionCookie();
  return { ended: 1 };
}

/** "Log out everywhere else": every session of the caller but this one. */
export async function endOtherSessions(ctx: AuthedContext): Promise<EndSessionsResult> {
  const ended = await revokeSessions(ctx, ctx.session.user.id, ctx.session.id);
  return { ended };
}
