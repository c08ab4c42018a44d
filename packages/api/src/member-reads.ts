/**
 * One member's own lists, kept in memory between their reads: the notifications list and the
 * bell's count, the conversations list, a thread's newest page, the Chat badge. Each is read
 * from the database at most once per TTL (below) while nothing changes it, and dropped
 * at once by whatever does change it.
 *
 * What drops them is the bus event every such change already publishes for the live views, keyed
 * by the member it is about: `notifications` (recipientId) drops that member's notification
 * reads, `messages` (userId; typing aside) their message reads, as kept-reads.ts says for every
 * cache. The TTL bounds what no event announces: another member's new name or avatar, a message
 * a moderator removed as its sender sees it.
 *
 * Kept as kept-reads.ts says: concurrent misses share one load, and one that began before a drop
 * never fills the cache after it. Entries are shared between requests and never edited, so they
 * are marked shared and a host encodes each to JSON once.
 */
import { LRUCache } from 'lru-cache';
import { keptRead, type Loading, track } from './kept-reads.js';
import { markShared } from './shared-json.js';

/** Members with something kept, per group; past that, the least recently read member's reads go. */
export const MEMBER_READS_MAX_MEMBERS = 10_000;

type Group = 'notifications' | 'messages';

interface Entry extends Loading {
  value: Promise<unknown>;
}

/** group → member → key → entry */
type Members = LRUCache<string, Map<string, Entry>>;
const newMembers = (): Members => new LRUCache({ max: MEMBER_READS_MAX_MEMBERS });

export const memberReads = keptRead<Record<Group, Members>>({
  name: "a member's own lists",
  ttlMs: 1_000,
  make: () => ({ notifications: newMembers(), messages: newMembers() }),
  dependsOn: {
    notifications: (groups, p) => groups.notifications.delete(p.recipientId),
    // A like here wrote or took back the author's notification; their bell's event comes batched
    // (notification.bells.ts), so what this process keeps of their list goes at once.
    likes: (groups, p) => {
      if (p.authorId && p.authorId !== p.userId) groups.notifications.delete(p.authorId);
    },
    // Typing changes nothing that is stored.
    messages: (groups, p) => {
      if (p.kind !== 'typing') groups.messages.delete(p.userId);
    },
  },
  clear: (groups) => {
    groups.notifications.clear();
    groups.messages.clear();
  },
});

/**
 * `memberId`'s read `key` in `group`, from memory when it was read less than the TTL ago and
 * nothing in the group changed for them since; `load` reads it otherwise.
 */
export function memberRead<V extends object>(
  scope: object,
  group: Group,
  memberId: string,
  key: string,
  load: () => Promise<V>,
): Promise<V> {
  const members = memberReads.store(scope)[group];
  let reads = members.get(memberId);
  const current = reads?.get(key);
  if (current && memberReads.isFresh(current)) return current.value as Promise<V>;
  if (!reads) {
    reads = new Map();
    members.set(memberId, reads);
  }
  const value = load().then(markShared);
  track(reads, key, { value, loadedAt: null }, value);
  return value;
}
