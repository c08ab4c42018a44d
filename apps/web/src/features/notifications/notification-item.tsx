/**
 * One notification as the bell's popover and the notifications page show it: the actor's avatar
 * and name, what they did, a snippet of what was said (so two "mentioned you" lines can be told
 * apart), the time, and an unread mark. Opening it marks it read and goes where it leads
 * (useOpenNotification in list-queries.ts).
 */
import { RelativeTime } from '../../components/relative-time';
import { UserAvatar } from '../../components/user-avatar';
import { cn } from '../../lib/cn';
import type { NotificationItem } from './queries';

export { type NotificationItem, notificationTarget } from './queries';

export function NotificationRow({
  item,
  onOpen,
  className,
}: {
  item: NotificationItem;
  onOpen: (item: NotificationItem) => void;
  className?: string;
}) {
  return (
    <button
      type="button"
      onClick={() => onOpen(item)}
      data-unread={!item.isRead || undefined}
      className={cn(
        'flex w-full items-start gap-3 px-4 py-3 text-left transition-colors hover:bg-accent focus-visible:bg-accent focus-visible:outline-none',
        !item.isRead && 'bg-primary/[0.07] dark:bg-primary/[0.12]',
        className,
      )}
    >
      <UserAvatar
        user={{ username: item.username, displayName: item.username, avatarUrl: item.userAvatar }}
        size={36}
        decorative
      />
      <span className="grid min-w-0 flex-1 gap-0.5 text-sm">
        {item.type === 'poll_ended' ? (
          // The whole line: 'Your poll has ended' or 'A poll you voted in has ended'.
          <span className="user-text font-semibold">{item.message}</span>
        ) : (
          <span className="user-text">
            <span className="font-semibold">
              {item.type === 'mention' ? `@${item.username}` : item.username}
            </span>{' '}
            {item.message}
          </span>
        )}
        {item.snippet ? (
          <span data-testid="notification-snippet" className="user-text line-clamp-2 text-muted-foreground">
            <span className="sr-only">: </span>“{item.snippet}”
          </span>
        ) : null}
        <RelativeTime date={item.timestamp} className="text-xs text-muted-foreground" />
      </span>
      {!item.isRead ? (
        <span className="mt-1.5 flex shrink-0 items-center">
          <span aria-hidden="true" className="size-2.5 rounded-full bg-primary" />
          <span className="sr-only">Unread</span>
        </span>
      ) : null}
    </button>
  );
}
