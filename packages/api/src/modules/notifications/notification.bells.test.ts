/**
 * A like's bell follows its event, batched: one `notifications` event per member per window,
 * however many likes and unlikes of their posts the window held; none for liking one's own post
 * or a toggle that changed nothing; what waits rings when the follower stops.
 */
import { describe, expect, it } from 'vitest';
import { publishEvent } from '../../context.js';
import { createMemoryEventBus, type EventTopics } from '../../events/event-bus.js';
import { followLikesForBells } from './notification.bells.js';

function setup(windowMs: number) {
  const bus = createMemoryEventBus();
  const ctx = { bus, cacheScope: {}, logError: undefined };
  const rung: string[] = [];
  const stopListening = bus.on('notifications', (event) => rung.push(event.payload.recipientId));
  const stop = followLikesForBells(bus, { cacheScope: ctx.cacheScope, windowMs });
  const toggle = (userId: string, authorId: string | null) =>
    publishEvent(ctx, 'likes', { postId: 'p', userId, likesCount: 1, authorId });
  return { bus, rung, stop, stopListening, toggle };
}

/** Lets the memory bus deliver what was published (it delivers on a later turn). */
const delivered = () => new Promise((resolve) => setImmediate(resolve));

describe('bells rung by likes', () => {
  it('rings each member once for the likes and unlikes of a window, none for oneself or no change', async () => {
    const { bus, rung, stop, stopListening, toggle } = setup(60_000);
    toggle('bob', 'alice');
    toggle('carol', 'alice');
    toggle('bob', 'alice'); // an unlike: alice's bell reads again, finds bob's like gone
    toggle('dave', 'erin');
    toggle('alice', 'alice'); // her own post: no notification
    toggle('frank', null); // changed nothing
    await delivered();
    expect(rung).toEqual([]); // the window is still open
    stop(); // rings what waits
    await delivered();
    await delivered();
    expect(rung.sort()).toEqual(['alice', 'erin']);
    stopListening();
    await bus.close();
  });

  it('rings at the end of the window, and again for the next one', async () => {
    const { bus, stop, stopListening, toggle } = setup(20);
    const bells = bus.subscribe('notifications', { key: 'alice' });
    const next = async () =>
      ((await bells[Symbol.asyncIterator]().next()).value as EventTopics['notifications']).recipientId;
    toggle('bob', 'alice');
    toggle('carol', 'alice');
    expect(await next()).toBe('alice');
    toggle('dave', 'alice');
    expect(await next()).toBe('alice');
    stop();
    stopListening();
    await bus.close();
  });
});
