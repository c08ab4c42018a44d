/**
 * Each member's blocks, both ways (the members they blocked and those who blocked them), kept in
 * memory for the live streams that hear one event and ask, for each of their listeners, whether
 * its author is hidden from them (posts.onChange): a busy instance holds thousands of sockets,
 * and a statement per socket and event would be thousands per edit.
 *
 * A block or unblock (the `relations` event, heard on every instance) drops both members' sets,
 * before the write answers on this instance; the bus's reconnect drops everything, as for every
 * kept read. Since every block and unblock says so, the TTL only bounds what a lost event could
 * leave.
 */
import { LRUCache } from 'lru-cache';
import { keptRead, type Loading, track } from '../../kept-reads.js';

/** Members whose blocks are kept; past that, the least recently asked go first. */
export const BLOCKS_KEPT_MAX_MEMBERS = 50_000;

interface Entry extends Loading {
  blocks: Promise<ReadonlySet<string>>;
}

export const blocksEitherWay = keptRead<LRUCache<string, Entry>>({
  name: "each member's blocks, either way",
  ttlMs: 5 * 60_000,
  make: () => new LRUCache({ max: BLOCKS_KEPT_MAX_MEMBERS }),
  dependsOn: {
    relations: (members, { userId, otherId, kind }) => {
      if (kind !== 'block' && kind !== 'unblock') return;
      members.delete(userId);
      members.delete(otherId);
    },
  },
  clear: (members) => members.clear(),
});

/**
 * The members blocked either way with `memberId`: from memory, or `load`ed once (concurrent
 * callers share the load) and kept.
 */
export function cachedBlocksEitherWay(
  scope: object,
  memberId: string,
  load: () => Promise<string[]>,
): Promise<ReadonlySet<string>> {
  const members = blocksEitherWay.store(scope);
  const known = members.get(memberId);
  if (known && blocksEitherWay.isFresh(known)) return known.blocks;
  const blocks = load().then((ids): ReadonlySet<string> => new Set(ids));
  track(members, memberId, { blocks, loadedAt: null }, blocks);
  return blocks;
}
