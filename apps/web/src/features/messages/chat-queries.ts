/**
 * The Chat page's queries (loaded with the page): the conversations, one thread and its peer,
 * sending a message (it joins its thread once), marking a thread read, saying one is typing, and
 * finding a member to write to. Polling runs only while the socket is down; the live feed and the
 * unread count are in queries.ts, with the header.
 */
import { useCallback } from 'react';
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { type CachedThread, withMessage } from './queries';

/** The member's conversations, newest first; polled every `pollMs` while `connected` is false. */
export function useConversationsQuery(connected: boolean, pollMs: number) {
  return trpc.messages.conversations.useQuery(undefined, { refetchInterval: connected ? false : pollMs });
}

/**
 * The Chat page's first reads, for its loader: the conversations and, for `/chat?user=`, that
 * thread and its peer, under the keys the hooks here use. They leave with the session's own
 * request (one batch), where the page used to ask only once the session had answered.
 */
export async function prefetchChat(utils: QueryUtils, peerId: string | null): Promise<void> {
  await Promise.all([
    utils.messages.conversations.prefetch(),
    peerId ? utils.messages.peer.prefetch({ userId: peerId }) : null,
    peerId ? utils.messages.thread.prefetchInfinite({ userId: peerId }) : null,
  ]);
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

/**
 * Sends a message to `peerId`: once the server has it, it joins the cached thread (once: the live
 * event may have brought it first) and the conversations read again.
 */
export function useSendMessageMutation(peerId: string) {
  const utils = trpc.useUtils();
  return trpc.messages.send.useMutation({
    onSuccess: (message) => {
      utils.messages.thread.setInfiniteData({ userId: peerId }, (old) => withMessage(old, message));
      void utils.messages.conversations.invalidate();
    },
  });
}

/** Members whose username starts with `q` (a new conversation's picker); the last answer stays while the next loads. */
export function useMemberSearchQuery(q: string) {
  return trpc.mentions.suggest.useQuery({ q }, { placeholderData: (previous) => previous });
}
