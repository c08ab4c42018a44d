/**
 * The unread direct messages count on the Chat nav link (header and mobile tab bar). The badge is
 * decoration; the link keeps the accessible name "Chat" and points at the count, announced apart
 * from it through aria-describedby.
 */

import { Plural, useLingui } from '@lingui/react/macro';
import { useAuth } from '../auth/auth-provider';
import { useMessagesConnected } from './messages-live';
import { useUnreadCountQuery } from './queries';

export const UNREAD_POLL_MS = 5_000;

/** The caller's unread count: pushed live, polled while the socket is down; 0 when logged out. */
export function useUnreadMessages(): number {
  const { user } = useAuth();
  const connected = useMessagesConnected();
  const unread = useUnreadCountQuery(Boolean(user), connected ? false : UNREAD_POLL_MS);
  return user ? (unread.data?.count ?? 0) : 0;
}

/** The dot with the count, inside the link; hidden from assistive technology. */
export function ChatUnreadBadge({ className }: { className?: string }) {
  const { i18n } = useLingui();
  const count = useUnreadMessages();
  if (count === 0) return null;
  return (
    <span
      aria-hidden="true"
      data-testid="chat-unread-badge"
      className={`flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-destructive px-1 dark:bg-red-700 text-[10px] leading-none font-semibold text-destructive-foreground ${className ?? ''}`}
    >
      {count > 99 ? `${i18n.number(99)}+` : i18n.number(count)}
    </span>
  );
}

/** The count in words, outside the link: the link points at it with aria-describedby. */
export function ChatUnreadText({ id }: { id: string }) {
  const count = useUnreadMessages();
  return (
    <span id={id} className="sr-only">
      {count === 0 ? '' : <Plural value={count} one="# unread message" other="# unread messages" />}
    </span>
  );
}
