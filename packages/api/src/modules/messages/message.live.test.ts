import { describe, expect, it } from 'vitest';
import { createMember, expectCode, useDatabase } from '../../../test/harness.js';
import type { AuthedContext } from '../../context.types.js';
import { createMemoryEventBus } from '../../events/event-bus.js';
import { liveKeyset, liveMessages, type MessageEvent } from './message.live.js';

const db = useDatabase();

type Live = { id: string; event: MessageEvent };

/** The router's generator without tRPC's tracked() wrapping (the server tests cover that over a socket). */
function live(member: { ctx: unknown }, lastEventId: string | null, signal: AbortSignal) {
  return liveMessages(member.ctx as AuthedContext, lastEventId, signal);
}

/** Reads a subscription into an array as it yields. */
function collect(iterable: AsyncIterable<unknown>, into: Live[]) {
  void (async () => {
    try {
      for await (const item of iterable) into.push(item as Live);
    } catch {
      // aborted
    }
  })();
}

async function until(check: () => boolean, what: string) {
  const end = Date.now() + 3_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('messages.live', () => {
  it('delivers messages, receipts, unread counts and typing, and catches up from lastEventId', async () => {
    const bus = createMemoryEventBus();
    const a = await createMember(db.orm, {}, { bus });
    const b = await createMember(db.orm, {}, { bus });
    const controllerA = new AbortController();
    const controllerB = new AbortController();
    const seenA: Live[] = [];
    const seenB: Live[] = [];
    collect(live(a, null, controllerA.signal), seenA);
    collect(live(b, null, controllerB.signal), seenB);
    await until(() => seenA.length === 1 && seenB.length === 1, 'the first unread counts');
    expect(seenB[0]!.event).toEqual({ type: 'unread', count: 0 });

    const sent = await a.caller.messages.send({ receiverId: b.user.id, content: 'live one' });
    await until(() => seenB.some((e) => e.event.type === 'message'), 'b gets the message');
    await until(() => seenA.some((e) => e.event.type === 'message'), "a's own tabs get it");
    await until(() => seenB.some((e) => e.event.type === 'unread' && e.event.count === 1), 'b unread 1');

    await b.caller.messages.typing({ userId: a.user.id });
    await until(() => seenA.some((e) => e.event.type === 'typing'), 'a sees b typing');
    expect(seenA.find((e) => e.event.type === 'typing')!.event).toEqual({
      type: 'typing',
      userId: b.user.id,
      active: true,
    });

    await b.caller.messages.markRead({ userId: a.user.id });
    await until(() => seenA.some((e) => e.event.type === 'read'), 'a gets the receipt');
    expect(seenA.find((e) => e.event.type === 'read')!.event).toMatchObject({
      peerId: b.user.id,
      lastReadId: sent.id,
    });
    await until(
      () => seenB.at(-1)!.event.type === 'unread' && (seenB.at(-1)!.event as { count: number }).count === 0,
      'b unread 0',
    );

    // B goes away; A sends two more; B comes back with its last id and gets exactly those.
    const lastB = seenB.at(-1)!.id;
    controllerB.abort();
    await a.caller.messages.send({ receiverId: b.user.id, content: 'missed 1' });
    await a.caller.messages.send({ receiverId: b.user.id, content: 'missed 2' });
    const back: Live[] = [];
    const controllerBack = new AbortController();
    collect(live(b, lastB, controllerBack.signal), back);
    await until(() => back.some((e) => e.event.type === 'unread'), 'the catch-up');
    const messages = back
      .filter((e) => e.event.type === 'message')
      .map((e) => (e.event as { message: { content: string } }).message.content);
    expect(messages).toEqual(['missed 1', 'missed 2']);
    expect(liveKeyset.decode(back.at(-1)!.id)).toBeTruthy();

    // A missed the receipt of those two while away: it gets it on its reconnect. Its own tabs
    // heard both sends first (they load each one after the bus's event: wait, or the cursor
    // below would be taken before the second arrived).
    await until(() => seenA.filter((e) => e.event.type === 'message').length === 3, "a's own sends, live");
    const lastA = seenA.at(-1)!.id;
    controllerA.abort();
    await b.caller.messages.markRead({ userId: a.user.id });
    const backA: Live[] = [];
    const controllerBackA = new AbortController();
    collect(live(a, lastA, controllerBackA.signal), backA);
    await until(() => backA.some((e) => e.event.type === 'unread'), "a's catch-up");
    const receipts = backA.filter((e) => e.event.type === 'read');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.event).toMatchObject({ peerId: b.user.id });
    // Its own two sends reached it live before it left: not repeated.
    expect(backA.filter((e) => e.event.type === 'message')).toHaveLength(0);
    controllerBack.abort();
    controllerBackA.abort();
    await expectCode(
      liveMessages(a.ctx as AuthedContext, 'garbage', undefined).next(),
      'BAD_REQUEST',
      'Invalid cursor',
    );
  });
});
