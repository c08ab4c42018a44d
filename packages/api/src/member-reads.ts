/**
 * One member's own lists, kept in memory between their reads: the notifications list and the
 * bell's count, the conversations list, a thread's newest page, the Chat badge. Each is read
 * from the database at most once per MEMBER_READS_TTL_MS while nothing changes it, and dropped
 * at once by whatever does change it.
 *
 * What drops them is the bus event every such change already publishes for the live views, keyed
 * by the member it is about: `notifications` (recipientId) drops that member's notification
 * reads, `messages` (userId; typing aside) their message reads. In the process that wrote, the
 * drop happens when the event is published (`publishEvent`, or `memberReadsChanged` after a
 * write that sends its events from SQL), before the write answers; other instances drop on the
 * bus's delivery, and everything when the bus says it reconnected (events may have been lost).
 * The TTL bounds what no event announces: another member's new name or avatar, a message a
 * moderator removed as its sender sees it.
 *
 * Kept as kept-reads.ts says: concurrent misses share one load, and one that began before a drop
 * never fills the cache after it. Entries are shared between requests and never edited, so they
 * are marked shared and a host encodes each to JSON once.
 */
import type { EventTopics } from './events/event-bus.js';
import { isFresh, type Loading, perScope, track } from './kept-reads.js';
import { markShared } from './shared-json.js';

export const MEMBER_READS_TTL_MS = 1_000;
/** Members with something kept, per group; past that, the oldest member's reads go. */
export const MEMBER_READS_MAX_MEMBERS = 10_000;

/** The topics that drop member reads, each with the member its events are about. */
type Group = 'notifications' | 'messages';
const MEMBER_OF: { [G in Group]: (payload: EventTopics[G]) => string | null } = {
  notifications: (p) => p.recipientId,
  // Typing changes nothing that is stored.
  messages: (p) => (p.kind === 'typing' ? null : p.userId),
};

interface Entry extends Loading {
  value: Promise<unknown>;
}

/** scope (Context.cacheScope: one per database) → group → member → key → entry */
type Members = Map<string, Map<string, Entry>>;
const groupsFor = perScope<Record<Group, Members>>(() => ({
  notifications: new Map(),
  messages: new Map(),
}));

/**
 * `memberId`'s read `key` in `group`, from memory when it was read less than MEMBER_READS_TTL_MS
 * ago and nothing in the group changed for them since; `load` reads it otherwise.
 */
export function memberRead<V extends object>(
  scope: object,
  group: Group,
  memberId: string,
  key: string,
  load: () => Promise<V>,
): Promise<V> {
  const members = groupsFor(scope)[group];
  let reads = members.get(memberId);
  const current = reads?.get(key);
  if (current && isFresh(current, MEMBER_READS_TTL_MS)) return current.value as Promise<V>;
  if (!reads) {
    if (members.size >= MEMBER_READS_MAX_MEMBERS) members.delete(members.keys().next().value as string);
    reads = new Map();
    members.set(memberId, reads);
  }
  const value = load().then(markShared);
  track(reads, key, { value, loadedAt: null }, value);
  return value;
}

/** An event of `topic` was published here or heard from another instance: drops what it changed. */
export function memberReadsChanged<T extends keyof EventTopics>(
  scope: object,
  topic: T,
  payload: EventTopics[T],
): void {
  if (topic !== 'notifications' && topic !== 'messages') return;
  const group = topic as Group;
  const memberId = (MEMBER_OF[group] as (p: EventTopics[T]) => string | null)(payload);
  if (memberId !== null) groupsFor(scope)[group].delete(memberId);
}

/** Drops every member's reads (the bus reconnected: events may have been lost meanwhile). */
export function forgetMemberReads(scope: object): void {
  const groups = groupsFor(scope);
  groups.notifications.clear();
  groups.messages.clear();
}
