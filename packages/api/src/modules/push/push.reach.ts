/**
 * Whether a member has a browser to push to, kept in memory. Every notification and direct message
 * event starts a push fan-out (push.dispatch.ts), and most members have no browser subscribed: the
 * fan-out's claim then found nothing, after a transaction of its own (or a job through the queue)
 * for each event. With this answer kept, an event for a member without a subscription costs no
 * statement at all (bench/README.md, "Pushes only where a browser waits").
 *
 * A new subscription is the event that matters: it drops the member's answer on every instance,
 * so their next notification is pushed. An answer kept as "yes" after the last subscription went
 * only costs the claim it saved, which finds no browser and sends nothing. The TTL bounds what a
 * lost event could leave, and the bus's reconnect drops everything, as for every kept read.
 */
import { LRUCache } from 'lru-cache';
import { keptRead, type Loading, track } from '../../kept-reads.js';

/** Members whose answer is kept; past that, the least recently asked goes first. */
export const PUSH_REACH_MAX_MEMBERS = 50_000;

interface Entry extends Loading {
  value: Promise<boolean>;
}

export const pushReach = keptRead<LRUCache<string, Entry>>({
  name: 'members a push can reach',
  ttlMs: 30_000,
  make: () => new LRUCache({ max: PUSH_REACH_MAX_MEMBERS }),
  dependsOn: {
    pushSubscriptions: (members, { userId }) => members.delete(userId),
  },
  clear: (members) => members.clear(),
});

/** Whether `memberId` has a browser subscribed: from memory, or `load`ed once and kept. */
export function canPush(scope: object, memberId: string, load: () => Promise<boolean>): Promise<boolean> {
  const members = pushReach.store(scope);
  const known = members.get(memberId);
  if (known && pushReach.isFresh(known)) return known.value;
  const value = load();
  track(members, memberId, { value, loadedAt: null }, value);
  return value;
}
