/**
 * Cookie sessions: a random 32-byte token goes to the browser; only its SHA-256 is stored.
 * Sessions slide: each use pushes the expiry 30 days out (written at most hourly).
 */
import { hash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Context, type CurrentSession, sentWithWrite } from '../../context.js';
import type { EventTopics } from '../../events/event-bus.js';
import { keptRead } from '../../kept-reads.js';
import { deleteSessions, findLiveSession, insertSession, renewSession } from './sessions.repository.js';

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

/**
 * Resolved sessions are kept in memory for a minute, so most requests skip the session query
 * (a member who pauses between pages for more than a few seconds paid it each time at 5 s: a
 * quarter of the mixed benchmark's requests; bench/README.md). Logout and revocations drop them
 * at once: here directly, on other instances through the event bus's `sessions` topic, and a bus
 * that reconnects drops them all, so the minute bounds only what no event says (a row edited by
 * hand).
 */
export const SESSION_CACHE_TTL_MS = 60_000;
const SESSION_CACHE_MAX = 50_000;

interface CachedSession {
  id: string;
  userId: string;
  username: string;
  lastSeenAt: number;
  expiresAt: number;
  cachedAt: number;
}

/**
 * By token hash. A session that ends (`sessions`: logout, revocation, a password change) or
 * whose member is deleted or suspended (`accounts`) goes at once, here and on every instance.
 */
export const sessionReads = keptRead<Map<string, CachedSession>>({
  name: 'resolved sessions',
  ttlMs: SESSION_CACHE_TTL_MS,
  make: () => new Map(),
  dependsOn: {
    sessions: (cache, which) => {
      for (const [key, entry] of cache) if (sessionEnded(entry, which)) cache.delete(key);
    },
    accounts: (cache, { userId, change }) => {
      if (change === 'reinstated') return;
      for (const [key, entry] of cache) if (entry.userId === userId) cache.delete(key);
    },
  },
  clear: (cache) => cache.clear(),
});

function sessionCache(em: EntityManager): Map<string, CachedSession> {
  return sessionReads.store(em.getDriver());
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
    if (cache.size >= SESSION_CACHE_MAX) cache.delete(cache.keys().next().value!); // the oldest
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

/** Which sessions ended: one, or all of a user's but one (the bus's `sessions` payload). */
export type EndedSessions = EventTopics['sessions'];

/** Whether the session `entry` is among those that ended. */
export function sessionEnded(entry: { id: string; userId: string }, which: EndedSessions): boolean {
  if (which.sessionId !== undefined) return entry.id === which.sessionId;
  return entry.userId === which.userId && entry.id !== which.exceptSessionId;
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
