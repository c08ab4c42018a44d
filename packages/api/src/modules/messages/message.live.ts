/**
 * The live stream of a member's direct messages: sent and received messages (from all their
 * tabs), read receipts, the unread count and typing. A reconnecting client sends back the last
 * event id and catches up from the database before following the bus again.
 */
import type { AuthedContext } from '../../context.types.js';
import { isUuid } from '../../errors.js';
import { type KeysetKey, keyset } from '../../paging.js';
import {
  databaseNow,
  findLastRead,
  findMessagesAfter,
  findOwnMessage,
  findReceiptsSince,
  type MessageRow,
  unreadState,
} from './message.repository.js';
import type { DirectMessage } from './message.schema.js';
import { toDirectMessage } from './message.service.js';

/** What the live subscription yields. */
export type MessageEvent =
  | { type: 'message'; message: DirectMessage }
  /** `peerId` has read my messages to them up to `lastReadId` (created at `lastReadAt`). */
  | { type: 'read'; peerId: string; lastReadId: string; lastReadCreatedAt: Date }
  | { type: 'unread'; count: number }
  | { type: 'typing'; userId: string; active: boolean };

/**
 * A live event's id: the position of the newest message the client has (created_at, id) and the
 * time of the newest receipt it has. A reconnecting client sends it back and gets, from the
 * database, the messages after that position and the receipts after that time.
 */
export const liveKeyset = keyset({
  name: 'dm-live',
  order: 'asc',
  key: { createdAt: 'timestamp', id: 'uuid', readAt: 'timestamp' },
});
type LivePosition = KeysetKey<typeof liveKeyset>;

export const CATCH_UP_BATCH = 200;
const SEEN_LIMIT = 2_000;

/**
 * The caller's direct messages, live: sent and received messages (from all their tabs), read
 * receipts, the unread count and typing. Subscribes to the bus first, then catches up from
 * `lastEventId` (or, on a first connection, starts now: the client has just loaded the lists),
 * then follows the bus. Every event is loaded through a fresh fork, so it shows committed rows.
 */
export async function* liveMessages(
  ctx: AuthedContext,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ id: string; event: MessageEvent }> {
  const me = ctx.session.user.id;
  const events = ctx.bus.subscribe('messages', { signal, key: me });
  const since = liveKeyset.decode(lastEventId);
  let pos: LivePosition;
  // Ids delivered lately: a message the catch-up returned may also come through the bus.
  const seen = new Set<string>();
  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as string);
  };
  const message = (row: MessageRow) => {
    remember(row.id);
    if (row.created_at > pos.createdAt || (row.created_at === pos.createdAt && row.id > pos.id)) {
      pos = { ...pos, createdAt: row.created_at, id: row.id };
    }
    return {
      id: liveKeyset.encode(pos),
      event: { type: 'message', message: toDirectMessage(row, me) } as const,
    };
  };
  // The unread count is counted when the stream starts and whenever messages are read; a new
  // message carries it forward by one instead of counting again (`counted`: unread messages the
  // last count already had, which the bus may still bring).
  let unreadCount = 0;
  let counted = new Set<string>();
  const unreadEvent = () => ({
    id: liveKeyset.encode(pos),
    event: { type: 'unread', count: unreadCount } as const,
  });
  const unread = async () => {
    const state = await unreadState(ctx.fork(), me);
    unreadCount = state.count;
    counted = new Set(state.recent);
    return unreadEvent();
  };

  if (since) {
    pos = since;
    for (;;) {
      const rows = await findMessagesAfter(ctx.fork(), me, pos, CATCH_UP_BATCH);
      for (const row of rows) yield message(row);
      if (rows.length < CATCH_UP_BATCH) break;
    }
    const receipts = await findReceiptsSince(ctx.fork(), me, pos.readAt);
    for (const r of receipts) {
      if (r.read_at > pos.readAt) pos = { ...pos, readAt: r.read_at };
    }
    for (const r of receipts) {
      yield {
        id: liveKeyset.encode(pos),
        event: {
          type: 'read',
          peerId: r.peer_id,
          lastReadId: r.id,
          lastReadCreatedAt: new Date(r.created_at),
        },
      };
    }
  } else {
    const now = await databaseNow(ctx.fork());
    pos = { createdAt: now, id: 'ffffffff-ffff-ffff-ffff-ffffffffffff', readAt: now };
  }
  // The count is state: a (re)connected client always gets it, and with it an event id.
  yield await unread();

  for await (const e of events) {
    if (e.kind === 'typing') {
      yield { id: liveKeyset.encode(pos), event: { type: 'typing', userId: e.fromId, active: e.active } };
    } else if (e.kind === 'unread') {
      yield await unread();
    } else if (e.kind === 'message') {
      if (!isUuid(e.messageId) || seen.has(e.messageId)) continue;
      const row = await findOwnMessage(ctx.fork(), me, e.messageId);
      if (!row) continue;
      yield message(row);
      // Read already (another tab): the 'unread' event of that read recounts.
      if (row.receiver_id === me && row.read_at === null && !counted.has(row.id)) {
        unreadCount += 1;
        yield unreadEvent();
      }
    } else if (e.kind === 'read') {
      if (!isUuid(e.peerId)) continue;
      const r = await findLastRead(ctx.fork(), me, e.peerId);
      // Receipts only move forward: one the catch-up already gave is not news.
      if (!r || r.read_at <= pos.readAt) continue;
      pos = { ...pos, readAt: r.read_at };
      yield {
        id: liveKeyset.encode(pos),
        event: {
          type: 'read',
          peerId: e.peerId,
          lastReadId: r.id,
          lastReadCreatedAt: new Date(r.created_at),
        },
      };
    }
  }
}
