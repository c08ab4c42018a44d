/**
 * The member's follows, live: each of their tabs (on any instance) hears at once that they
 * followed or unfollowed someone, so an open Following feed loads again. The event is the bus's
 * `relations` topic, addressed to the member who acted; the id a client resumes from is the
 * fingerprint of whom they follow, so a client that was away learns on reconnect whether it missed
 * a change (and nothing when it did not).
 */
import type { AuthedContext } from '../../context.types.js';
import { followeesFingerprint } from './follow.repository.js';

export async function* liveFollows(
  ctx: AuthedContext,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ id: string }> {
  const memberId = ctx.session.user.id;
  // Listen before reading, so a follow between the read and the loop is not lost.
  const changes = ctx.bus.subscribe('relations', { signal, key: memberId });
  let last = lastEventId ?? null;
  const current = async () => {
    const id = `f${await followeesFingerprint(ctx.fork(), memberId)}`;
    if (id === last) return null;
    last = id;
    return { id };
  };
  const first = await current();
  if (first) yield first;
  for await (const change of changes) {
    if (change.kind !== 'follow' && change.kind !== 'unfollow') continue;
    const next = await current();
    if (next) yield next;
  }
}
