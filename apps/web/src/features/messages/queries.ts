/**
 * The direct messages' queries the header needs (in the first chunk): the unread count on the
 * Chat link, and the live feed (messages.live, one subscription for the whole app) that keeps the
 * cache current: a new message joins its thread, a read receipt marks my messages read, and the
 * count and the conversations follow. Who is typing and whether the socket is up are not cached
 * data: messages-live.tsx keeps them. The Chat page's own queries are in chat-queries.ts, loaded
 * with the page.
 */
import type { RouterOutputs } from '@cubes/api/client';
import type { InfiniteData } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';

export type DirectMessage = RouterOutputs['messages']['send'];
type ThreadPage = RouterOutputs['messages']['thread'];
/** A thread as the cache holds it: newest page first. */
export type CachedThread = InfiniteData<ThreadPage, string | null>;

/** Whom a message is with, seen from `me`. */
function peerOf(message: Pick<DirectMessage, 'senderId' | 'receiverId'>, me: string): string {
  return message.senderId === me ? message.receiverId : message.senderId;
}

/** Adds a message to a cached thread once (a live event and a send's answer may both bring it). */
export function withMessage(
  data: CachedThread | undefined,
  message: DirectMessage,
): CachedThread | undefined {
  if (!data || data.pages.length === 0) return data;
  if (data.pages.some((page) => page.items.some((m) => m.id === message.id))) return data;
  const [newest, ...older] = data.pages;
  const items = [...newest!.items, message].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1),
  );
  return { ...data, pages: [{ ...newest!, items }, ...older] };
}

/** Marks my messages up to `upTo` read in a cached thread. */
function withReceipt(data: CachedThread | undefined, me: string, upTo: Date): CachedThread | undefined {
  if (!data) return data;
  const readAt = new Date();
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      items: page.items.map((m) =>
        m.senderId === me && m.readAt === null && m.createdAt.getTime() <= upTo.getTime()
          ? { ...m, readAt }
          : m,
      ),
    })),
  };
}

/** The member's unread count, while `enabled`; polled every `pollMs` unless false. */
export function useUnreadCountQuery(enabled: boolean, pollMs: number | false) {
  return trpc.messages.unreadCount.useQuery(undefined, { enabled, refetchInterval: pollMs });
}

/**
 * The live feed for member `me` (none while null). `onTyping` hears who starts or stops typing to
 * me (a message from them stops it). Returns whether the subscription is up.
 */
export function useMessagesLiveFeed(me: string | null, onTyping: (userId: string, active: boolean) => void) {
  const utils = trpc.useUtils();
  const live = trpc.messages.live.useSubscription(
    {},
    {
      enabled: me !== null,
      onData: ({ data }) => {
        if (data.type === 'unread') {
          utils.messages.unreadCount.setData(undefined, { count: data.count });
          void utils.messages.conversations.invalidate();
        } else if (data.type === 'message') {
          const peerId = peerOf(data.message, me!);
          utils.messages.thread.setInfiniteData({ userId: peerId }, (old) => withMessage(old, data.message));
          if (data.message.senderId === peerId) onTyping(peerId, false);
          void utils.messages.conversations.invalidate();
        } else if (data.type === 'read') {
          utils.messages.thread.setInfiniteData({ userId: data.peerId }, (old) =>
            withReceipt(old, me!, data.lastReadCreatedAt),
          );
        } else if (data.type === 'typing') {
          onTyping(data.userId, data.active);
        }
      },
    },
  );
  return me !== null && live.status === 'pending';
}
