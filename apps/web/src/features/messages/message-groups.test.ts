import { describe, expect, it } from 'vitest';
import { GROUP_WINDOW_MS, placeMessages } from './message-groups';

const T0 = new Date('2026-11-28T10:00:00Z').getTime();
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const msg = (id: string, senderId: string, minutes: number, read: boolean) => ({
  id,
  senderId,
  createdAt: at(minutes),
  readAt: read ? at(minutes + 1) : null,
});

describe('placeMessages (issue #46: messages look like a conversation)', () => {
  it('groups one sender’s messages a few minutes apart, with one time under each group', () => {
    const placed = placeMessages(
      [
        msg('a1', 'me', 0, true),
        msg('a2', 'me', 1, true),
        msg('a3', 'me', 1 + GROUP_WINDOW_MS / 60_000 + 1, true), // too long after: a new group
        msg('b1', 'bob', 20, false),
        msg('b2', 'bob', 21, false),
      ],
      'me',
    );
    expect(placed.map((p) => [p.message.id, p.groupStart, p.groupEnd])).toEqual([
      ['a1', true, false],
      ['a2', false, true],
      ['a3', true, true],
      ['b1', true, false],
      ['b2', false, true],
    ]);
  });

  it('shows Seen once, under the newest own message read, and Sent under a newer unread one', () => {
    const allRead = placeMessages(
      [
        msg('a1', 'me', 0, true),
        msg('a2', 'me', 1, true),
        msg('b1', 'bob', 2, true),
        msg('a3', 'me', 3, true),
      ],
      'me',
    );
    expect(allRead.map((p) => p.receipt)).toEqual([null, null, null, 'Seen']);

    const partly = placeMessages(
      [
        msg('a1', 'me', 0, true),
        msg('a2', 'me', 1, true),
        msg('a3', 'me', 2, false),
        msg('a4', 'me', 3, false),
      ],
      'me',
    );
    expect(partly.map((p) => p.receipt)).toEqual([null, 'Seen', null, 'Sent']);
    expect(partly.filter((p) => p.receipt === 'Seen')).toHaveLength(1);
  });

  it('waits with Sent while own messages are still being sent, and keeps their group open', () => {
    const placed = placeMessages([msg('a1', 'me', 0, true), msg('a2', 'me', 1, false)], 'me', true);
    expect(placed.map((p) => [p.receipt, p.groupEnd])).toEqual([
      ['Seen', false],
      [null, false],
    ]);
  });
});
