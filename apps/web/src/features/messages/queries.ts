/**
 * The Chat page's queries (loaded with the page): the conversations, one thread and its peer, and
 * marking a thread read and saying one is typing. Polling runs only while the socket is down; the
 * live events and the unread badge are in messages-live.tsx and chat-unread-badge.tsx, with the
 * header.
 */
import { useCallback } from 'react';
import { trpc } from '../../lib/trpc';
import type { CachedThread } from './messages-live';

/** The member's conversations, newest first; polled every `pollMs` while `connected` is false. */
export function useConversationsQuery(connected: boolean, pollMs: number) {
  return trpc.messages.conversations.useQuery(undefined, { refetchInterval: connected ? false : pollMs });
}

/** Who the thread is with. */
export function usePeerQuery(peerId: string) {
  return trpc.messages.peer.useQuery({ userId: peerId });
}

/** The thread with `peerId`, newest page first; polled every `pollMs` while `connected` is false. */
export function useThreadQuery(peerId: string, connected: boolean, pollMs: number) {
  return trpc.messages.thread.useInfiniteQuery(
    { userId: peerId },
    { getNextPageParam: (last) => last.nextCursor, refetchInterval: connected ? false : pollMs },
  );
}

/**
 * Marks the peer's messages in the thread read: at once in the cache, then on the server (which
 * tells the sender); the conversations read again once it has.
 */
export function useMarkThreadRead(peerId: string): () => void {
  const utils = trpc.useUtils();
  const { mutate } = trpc.messages.markRead.useMutation({
    onSuccess: () => void utils.messages.conversations.invalidate(),
  });
  return useCallback(() => {
    const now = new Date();
    utils.messages.thread.setInfiniteData({ userId: peerId }, (old): CachedThread | undefined =>
      old
        ? {
            ...old,
            pages: old.pages.map((p) => ({
              ...p,
              items: p.items.map((m) =>
                m.senderId === peerId && m.readAt === null ? { ...m, readAt: now } : m,
              ),
            })),
          }
        : old,
    );
    mutate({ userId: peerId });
  }, [utils, mutate, peerId]);
}

/** Tells the peer whether the member is typing. */
export function useTypingMutation() {
  return trpc.messages.typing.useMutation();
}
