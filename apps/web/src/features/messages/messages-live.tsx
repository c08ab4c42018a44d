/**
 * Direct messages, live for the whole app: one subscription (mounted once, in the header, while
 * logged in) keeps the query cache current (threads, conversations, the unread count) and a small
 * store of what is not in the cache: whether the socket is up (the pages poll only while it is
 * down) and who is typing to me (each "typing" expires by itself).
 */
import type { RouterOutputs } from '@cubes/api/client';
import { TYPING_EXPIRES_MS } from '@cubes/api/rules';
import type { InfiniteData } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { trpc } from '../../lib/trpc';
import { useAuth } from '../auth/auth-provider';

export type DirectMessage = RouterOutputs['messages']['send'];
type ThreadPage = RouterOutputs['messages']['thread'];
/** A thread as the cache holds it: newest page first. */
export type CachedThread = InfiniteData<ThreadPage, string | null>;

interface LiveState {
  connected: boolean;
  /** userId → when their "typing" runs out (ms since epoch) */
  typing: Readonly<Record<string, number>>;
}

let state: LiveState = { connected: false, typing: {} };
const listeners = new Set<() => void>();

function setState(next: Partial<LiveState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the live subscription is up: polling is the fallback while it is not. */
export function useMessagesConnected(): boolean {
  return useSyncExternalStore(subscribe, () => state.connected);
}

/** Whether `userId` is typing to me now; turns false by itself when their typing expires. */
export function useIsTyping(userId: string | null): boolean {
  const until = useSyncExternalStore(subscribe, () => (userId ? (state.typing[userId] ?? 0) : 0));
  const typing = until > Date.now();
  useEffect(() => {
    if (!userId || !typing) return;
    const timer = setTimeout(() => {
      const { [userId]: _gone, ...rest } = state.typing;
      setState({ typing: rest });
    }, until - Date.now());
    return () => clearTimeout(timer);
  }, [userId, until, typing]);
  return typing;
}

/** Whom a message is with, seen from `me`. */
export function peerOf(message: Pick<DirectMessage, 'senderId' | 'receiverId'>, me: string): string {
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

/** The subscription; renders nothing. */
export function MessagesLive() {
  const { user } = useAuth();
  const utils = trpc.useUtils();
  const me = user?.id ?? '';
  const live = trpc.messages.live.useSubscription(
    {},
    {
      enabled: Boolean(user),
      onData: ({ data }) => {
        if (data.type === 'unread') {
          utils.messages.unreadCount.setData(undefined, { count: data.count });
          void utils.messages.conversations.invalidate();
        } else if (data.type === 'message') {
          const peerId = peerOf(data.message, me);
          utils.messages.thread.setInfiniteData({ userId: peerId }, (old) => withMessage(old, data.message));
          if (data.message.senderId === peerId) {
            const { [peerId]: _stopped, ...rest } = state.typing;
            setState({ typing: rest });
          }
          void utils.messages.conversations.invalidate();
        } else if (data.type === 'read') {
          utils.messages.thread.setInfiniteData({ userId: data.peerId }, (old) =>
            withReceipt(old, me, data.lastReadCreatedAt),
          );
        } else if (data.type === 'typing') {
          const { [data.userId]: _old, ...rest } = state.typing;
          setState({
            typing: data.active ? { ...rest, [data.userId]: Date.now() + TYPING_EXPIRES_MS } : rest,
          });
        }
      },
    },
  );
  const connected = Boolean(user) && live.status === 'pending';
  useEffect(() => {
    if (state.connected !== connected) setState({ connected });
  }, [connected]);
  return null;
}
