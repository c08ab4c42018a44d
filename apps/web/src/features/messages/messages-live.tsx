/**
 * Direct messages, live for the whole app: one subscription (mounted once, in the header, while
 * logged in) keeps the query cache current (threads, conversations, the unread count: queries.ts,
 * useMessagesLiveFeed) and a small store of what is not in the cache: whether the socket is up (the pages poll only while it is
 * down) and who is typing to me (each "typing" expires by itself).
 */
import { TYPING_EXPIRES_MS } from '@cubes/api/rules';
import { useEffect, useSyncExternalStore } from 'react';
import { useAuth } from '../auth/auth-provider';
import { useMessagesLiveFeed } from './queries';

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
  // A page rendered on the server is not connected (yet): the server's snapshot says so.
  return useSyncExternalStore(
    subscribe,
    () => state.connected,
    () => false,
  );
}

/** Whether `userId` is typing to me now; turns false by itself when their typing expires. */
export function useIsTyping(userId: string | null): boolean {
  const until = useSyncExternalStore(
    subscribe,
    () => (userId ? (state.typing[userId] ?? 0) : 0),
    () => 0,
  );
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

/** The subscription; renders nothing. */
export function MessagesLive() {
  const { user } = useAuth();
  const connected = useMessagesLiveFeed(user?.id ?? null, (userId, active) => {
    const { [userId]: _old, ...rest } = state.typing;
    setState({ typing: active ? { ...rest, [userId]: Date.now() + TYPING_EXPIRES_MS } : rest });
  });
  useEffect(() => {
    if (state.connected !== connected) setState({ connected });
  }, [connected]);
  return null;
}
