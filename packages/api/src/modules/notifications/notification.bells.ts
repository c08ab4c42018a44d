/**
 * The bells that likes ring, batched. A like or unlike is one statement (the like, its count and
 * the author's notification: post.repository.ts), publishes one event (`likes`, with the post's
 * author when it changed something) and answers. The author's bell follows from that event here:
 * the first like for a member opens a window of BELL_WINDOW_MS, and when it ends one
 * `notifications` event per member goes out, all of them in one statement of the bus
 * (pg-event-bus.ts). Their bell hears it on whichever instance it is open (notification.service.ts's
 * liveNotifications), and this instance's push fan-out claims what is due for them
 * (push.dispatch.ts). Many likes of one member's posts in a second ring their bell once; a NOTIFY
 * per like, and the fan-out each one started, cost the like toggle half its speed (bench/README.md).
 *
 * Waiting loses nothing: the notification row is the like's own, committed before it answered;
 * the event only says "read again". A like taken back before its window ends leaves nothing to
 * read: the bell's state is what it was (a bell yields only a changed state) and no push goes out.
 * The author's own lists kept in this process drop at the like itself (member-reads.ts).
 */
import { type Context, publishEvent } from '../../context.js';
import type { EventBus } from '../../events/event-bus.js';

/** How long a member's bell waits for more likes before it rings: the bell is live within this. */
export const BELL_WINDOW_MS = 1_000;

export interface BellDeps {
  /** Context.cacheScope: this process's caches hear the bell's event too */
  cacheScope: object;
  logError?: (message: string, error: unknown) => void;
  /** Tests: a window other than BELL_WINDOW_MS. */
  windowMs?: number;
}

/**
 * Rings, once per window, the bell of each member whose post was liked or unliked in this process.
 * Returns the function that stops it, ringing what still waits.
 */
export function followLikesForBells(bus: EventBus, deps: BellDeps): () => void {
  const ctx: Pick<Context, 'bus' | 'cacheScope' | 'logError'> = {
    bus,
    cacheScope: deps.cacheScope,
    ...(deps.logError ? { logError: deps.logError } : {}),
  };
  const waiting = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const ring = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const recipients = [...waiting];
    waiting.clear();
    for (const recipientId of recipients) publishEvent(ctx, 'notifications', { recipientId });
  };
  const stop = bus.on('likes', ({ local, payload: { userId, authorId } }) => {
    // Never for liking one's own post (the statement writes no notification then).
    if (!local || !authorId || authorId === userId) return;
    waiting.add(authorId);
    if (timer) return;
    timer = setTimeout(ring, deps.windowMs ?? BELL_WINDOW_MS);
    timer.unref(); // the host stops it on close, ringing what waits
  });
  return () => {
    stop();
    ring();
  };
}
