import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetEverything as forgetMemberReads, cachesHear as memberReadsChanged } from './kept-reads.js';
import { MEMBER_READS_MAX_MEMBERS, memberRead, memberReads } from './member-reads.js';

const MEMBER_READS_TTL_MS = memberReads.ttlMs;

import { sharedJson } from './shared-json.js';

/** A load that counts its calls and answers a new object each time. */
function counter() {
  const calls = { n: 0 };
  const load = async () => ({ version: ++calls.n });
  return { calls, load };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('member reads', () => {
  it('reads once while fresh, shares a load between concurrent misses, and reads again after the TTL', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const scope = {};
    const { calls, load } = counter();
    const [a, b] = await Promise.all([
      memberRead(scope, 'notifications', 'alice', 'list', load),
      memberRead(scope, 'notifications', 'alice', 'list', load),
    ]);
    expect(a).toBe(b);
    expect(calls.n).toBe(1);
    // Shared between requests: encoded to JSON once.
    expect(sharedJson(a)?.toString()).toBe('{"version":1}');
    vi.advanceTimersByTime(MEMBER_READS_TTL_MS - 1);
    expect(await memberRead(scope, 'notifications', 'alice', 'list', load)).toBe(a);
    vi.advanceTimersByTime(1);
    expect(await memberRead(scope, 'notifications', 'alice', 'list', load)).toEqual({ version: 2 });
  });

  it('drops only the member and the group an event is about', async () => {
    const scope = {};
    const { calls, load } = counter();
    const read = (group: 'notifications' | 'messages', member: string, key = 'k') =>
      memberRead(scope, group, member, key, load);
    await read('notifications', 'alice');
    await read('messages', 'alice');
    await read('notifications', 'bob');
    await read('messages', 'alice', 'thread:bob:50');
    expect(calls.n).toBe(4);

    memberReadsChanged(scope, 'notifications', { recipientId: 'alice' });
    await read('notifications', 'alice'); // read again
    await read('messages', 'alice'); // kept
    await read('notifications', 'bob'); // kept
    expect(calls.n).toBe(5);

    memberReadsChanged(scope, 'messages', { userId: 'alice', kind: 'typing', fromId: 'bob', active: true });
    await read('messages', 'alice'); // typing changes nothing stored
    expect(calls.n).toBe(5);
    memberReadsChanged(scope, 'messages', { userId: 'alice', kind: 'read', peerId: 'bob' });
    await read('messages', 'alice');
    await read('messages', 'alice', 'thread:bob:50');
    expect(calls.n).toBe(7);

    memberReadsChanged(scope, 'feed', {}); // not a member's own list
    await read('notifications', 'bob');
    expect(calls.n).toBe(7);
  });

  it('never keeps a load that began before a drop, and keeps no failure', async () => {
    const scope = {};
    let release!: (v: { version: number }) => void;
    const slow = () => new Promise<{ version: number }>((resolve) => (release = resolve));
    const pending = memberRead(scope, 'messages', 'alice', 'conversations', slow);
    memberReadsChanged(scope, 'messages', { userId: 'alice', kind: 'unread' }); // a write committed meanwhile
    release({ version: 1 });
    expect(await pending).toEqual({ version: 1 }); // the caller who asked before the write gets it
    const { calls, load } = counter();
    expect(await memberRead(scope, 'messages', 'alice', 'conversations', load)).toEqual({ version: 1 });
    expect(calls.n).toBe(1); // read again, not the value from before the write

    const failing = () => Promise.reject(new Error('database down'));
    await expect(memberRead(scope, 'messages', 'bob', 'unread', failing)).rejects.toThrow('database down');
    await memberRead(scope, 'messages', 'bob', 'unread', load);
    expect(calls.n).toBe(2);
  });

  it('keeps databases apart, forgets everything on request, and holds a bounded number of members', async () => {
    const scope = {};
    const other = {};
    const { calls, load } = counter();
    await memberRead(scope, 'notifications', 'alice', 'list', load);
    await memberRead(other, 'notifications', 'alice', 'list', load);
    memberReadsChanged(other, 'notifications', { recipientId: 'alice' });
    await memberRead(scope, 'notifications', 'alice', 'list', load);
    expect(calls.n).toBe(2);

    forgetMemberReads(scope);
    await memberRead(scope, 'notifications', 'alice', 'list', load);
    expect(calls.n).toBe(3);

    const many = {};
    for (let i = 0; i <= MEMBER_READS_MAX_MEMBERS; i++)
      await memberRead(many, 'messages', `m${i}`, 'unread', load);
    const before = calls.n;
    await memberRead(many, 'messages', `m${MEMBER_READS_MAX_MEMBERS}`, 'unread', load); // the newest is kept
    await memberRead(many, 'messages', 'm0', 'unread', load); // the oldest made room
    expect(calls.n - before).toBe(1);
  });
});
