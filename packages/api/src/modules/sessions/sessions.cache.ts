/**
 * Resolved sessions, kept in memory by token hash (sessions.service.ts resolves a cookie through
 * them), and the rule of which sessions an ended-sessions event names, shared by this kept read and
 * the sockets that close on it.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import type { EventTopics } from '../../events/event-bus.js';
import { keptRead } from '../../kept-reads.js';

/**
 * Resolved sessions are kept in memory for a minute, so most requests skip the session query
 * (a member who pauses between pages for more than a few seconds paid it each time at 5 s: a
 * quarter of the mixed benchmark's requests; bench/README.md). Logout and revocations drop them
 * at once: here directly, on other instances through the event bus's `sessions` topic, and a bus
 * that reconnects drops them all, so the minute bounds only what no event says (a row edited by
 * hand).
 */
export const SESSION_CACHE_TTL_MS = 60_000;
/** Sessions kept; past that, the least recently used goes first. */
export const SESSION_CACHE_MAX = 50_000;

export interface CachedSession {
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
export const sessionReads = keptRead<LRUCache<string, CachedSession>>({
  name: 'resolved sessions',
  ttlMs: SESSION_CACHE_TTL_MS,
  make: () => new LRUCache({ max: SESSION_CACHE_MAX }),
  dependsOn: {
    sessions: (cache, which) => dropWhere(cache, (entry) => sessionEnded(entry, which)),
    accounts: (cache, { userId, change }) => {
      if (change !== 'reinstated') dropWhere(cache, (entry) => entry.userId === userId);
    },
  },
  clear: (cache) => cache.clear(),
});

/** Drops the sessions `drops` names (found first: an LRUCache is not changed while it is walked). */
function dropWhere(cache: LRUCache<string, CachedSession>, drops: (entry: CachedSession) => boolean): void {
  const dropped = [...cache.entries()].filter(([, entry]) => drops(entry));
  for (const [key] of dropped) cache.delete(key);
}

/** The kept sessions of `em`'s database. */
export function sessionCache(em: EntityManager): LRUCache<string, CachedSession> {
  return sessionReads.store(em.getDriver());
}

/** Which sessions ended: one, or all of a user's but one (the bus's `sessions` payload). */
export type EndedSessions = EventTopics['sessions'];

/** Whether the session `entry` is among those that ended. */
export function sessionEnded(entry: { id: string; userId: string }, which: EndedSessions): boolean {
  if (which.sessionId !== undefined) return entry.id === which.sessionId;
  return entry.userId === which.userId && entry.id !== which.exceptSessionId;
}
