/**
 * Each member's blocks kept in memory (safety.cache.ts), in memory alone: what posts.onChange asks
 * of every listener for every change is looked up once per member, not once per listener or
 * change, and a block or unblock of either member drops it.
 */
import { describe, expect, it } from 'vitest';
import { cachesHear } from '../../kept-reads.js';
import { BLOCKS_KEPT_MAX_MEMBERS, blocksEitherWay, cachedBlocksEitherWay } from './safety.cache.js';

function counted(ids: string[]) {
  const load = async () => {
    load.calls += 1;
    return ids;
  };
  load.calls = 0;
  return load;
}

describe("each member's blocks, kept", () => {
  it('a thousand listeners of one member and their changes share one look-up', async () => {
    const scope = {};
    const load = counted(['b1', 'b2']);
    const answers = await Promise.all(
      Array.from({ length: 1_000 }, () => cachedBlocksEitherWay(scope, 'm', load)),
    );
    for (let i = 0; i < 100; i++) answers.push(await cachedBlocksEitherWay(scope, 'm', load));
    expect(load.calls).toBe(1);
    expect(answers.every((blocks) => blocks.has('b1') && blocks.has('b2') && !blocks.has('x'))).toBe(true);
  });

  it('a block or unblock of either member drops theirs; follows and mutes do not', async () => {
    const scope = {};
    const load = counted([]);
    const keep = async () => {
      for (const id of ['a', 'b', 'c']) await cachedBlocksEitherWay(scope, id, load);
    };
    await keep();
    expect(load.calls).toBe(3);
    for (const kind of ['follow', 'unfollow', 'mute', 'unmute'] as const) {
      cachesHear(scope, 'relations', { userId: 'a', otherId: 'b', kind });
    }
    await keep();
    expect(load.calls).toBe(3);
    cachesHear(scope, 'relations', { userId: 'a', otherId: 'b', kind: 'block' });
    expect([...blocksEitherWay.store(scope).keys()]).toEqual(['c']);
    await keep();
    expect(load.calls).toBe(5);
    cachesHear(scope, 'relations', { userId: 'b', otherId: 'c', kind: 'unblock' });
    await keep();
    expect(load.calls).toBe(7);
  });

  it('keeps no failed look-up, and lets the oldest member go at the bound', async () => {
    const scope = {};
    await expect(
      cachedBlocksEitherWay(scope, 'm', async () => Promise.reject(new Error('down'))),
    ).rejects.toThrow('down');
    expect(blocksEitherWay.store(scope).has('m')).toBe(false);
    const none = async () => [];
    for (let i = 0; i <= BLOCKS_KEPT_MAX_MEMBERS; i++) await cachedBlocksEitherWay(scope, `m${i}`, none);
    const members = blocksEitherWay.store(scope);
    expect(members.size).toBe(BLOCKS_KEPT_MAX_MEMBERS);
    expect(members.has('m0')).toBe(false);
    expect(members.has(`m${BLOCKS_KEPT_MAX_MEMBERS}`)).toBe(true);
  });

  it('lets the least recently asked member go at the bound, not the first kept', async () => {
    const scope = {};
    const none = async () => [];
    for (let i = 0; i < BLOCKS_KEPT_MAX_MEMBERS; i++) await cachedBlocksEitherWay(scope, `m${i}`, none);
    await cachedBlocksEitherWay(scope, 'm0', none); // asked again: the most recent now
    await cachedBlocksEitherWay(scope, 'new', none);
    const members = blocksEitherWay.store(scope);
    expect(members.has('m0')).toBe(true);
    expect(members.has('m1')).toBe(false);
    expect(members.has('new')).toBe(true);
  });
});
