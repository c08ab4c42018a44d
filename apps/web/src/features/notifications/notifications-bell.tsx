/**
 * The header's notifications bell: unread badge (pushed live over the socket, polled every 30 s as
 * the fallback), a popover list of likes, comments and follows, and 'Mark all as read'. Rendered
 * for logged-in users only.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { Bell, CheckCheck } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { RelativeTime } from '../../components/relative-time';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/use-toast';
import { UserAvatar } from '../../components/user-avatar';
import { cn } from '../../lib/cn';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';

export const NOTIFICATIONS_POLL_MS = 30_000;

type NotificationItem = RouterOutputs['notifications']['list'][number];

/** Where an item leads: the post for likes and comments, the follower's profile for follows. */
export function notificationTarget(item: Pick<NotificationItem, 'type' | 'postId' | 'username'>): string {
  if (item.type !== 'follow' && item.postId) return `/?post=${encodeURIComponent(item.postId)}`;
  // From the moderators, about a removed message: there is no post or profile to open.
  if (item.type === 'removal') return '/';
  return `/profile/${encodeURIComponent(item.username)}`;
}

function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

export function NotificationsBell() {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const countId = useId();
  const titleId = useId();

  const unread = trpc.notifications.unreadCount.useQuery(undefined, {
    refetchInterval: NOTIFICATIONS_POLL_MS,
  });
  const list = trpc.notifications.list.useQuery(undefined, {
    enabled: open,
    refetchInterval: open ? NOTIFICATIONS_POLL_MS : false,
  });
  // Live: the server pushes the count whenever it changes (polling above stays as the fallback).
  trpc.notifications.onChange.useSubscription(
    {},
    {
      onData: ({ data }) => {
        utils.notifications.unreadCount.setData(undefined, { count: data.unreadCount });
        if (open) void utils.notifications.list.invalidate();
      },
    },
  );

  const markAll = trpc.notifications.markAllRead.useMutation({
    onSuccess: () => {
      utils.notifications.unreadCount.setData(undefined, { count: 0 });
      utils.notifications.list.setData(undefined, (items) => items?.map((n) => ({ ...n, isRead: true })));
      toast({ title: 'All notifications marked as read' });
    },
    onError: (error) => {
      errorToast('Failed to mark notifications as read', error);
    },
  });

  const count = unread.data?.count ?? 0;
  const items = list.data ?? [];
  const anyUnread = count > 0 || items.some((n) => !n.isRead);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      // Opening shows the current state: the list and the badge are fetched fresh.
      void list.refetch();
      void unread.refetch();
    }
  };

  const openItem = (item: NotificationItem) => {
    setOpen(false);
    navigate(notificationTarget(item));
  };

  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Notifications"
          aria-describedby={countId}
          className="relative size-9 rounded-full data-[state=open]:bg-accent"
        >
          <Bell aria-hidden="true" className="size-5" />
          {count > 0 ? (
            <span
              aria-hidden="true"
              data-testid="notifications-badge"
              className="absolute -top-0.5 -right-0.5 flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-destructive px-1 dark:bg-red-700 text-[10px] leading-none font-semibold text-destructive-foreground ring-2 ring-background"
            >
              {badgeText(count)}
            </span>
          ) : null}
          <span id={countId} className="sr-only">
            {count === 0 ? 'No unread notifications' : `${count} unread`}
          </span>
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          collisionPadding={12}
          aria-label="Notifications list"
          className="menu-content z-50 flex max-h-[min(32rem,calc(100dvh-6rem))] w-[22rem] max-w-[calc(100vw-1.5rem)] flex-col overflow-hidden rounded-xl border bg-popover text-popover-foreground shadow-xl"
        >
          <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
            <h2 id={titleId} className="font-semibold">
              Notifications
            </h2>
            <Button
              variant="ghost"
              size="sm"
              className="h-8 px-2 text-xs"
              disabled={!anyUnread || markAll.isPending}
              onClick={() => markAll.mutate()}
            >
              {markAll.isPending ? <Spinner /> : <CheckCheck aria-hidden="true" />}
              Mark all as read
            </Button>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto">
            {list.isPending ? (
              <p
                role="status"
                className="flex items-center justify-center gap-2 px-4 py-10 text-sm text-muted-foreground"
              >
                <Spinner /> Loading notifications...
              </p>
            ) : list.isError ? (
              <div className="grid justify-items-center gap-2 px-4 py-10 text-sm">
                <p className="text-muted-foreground">Could not load notifications.</p>
                <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
                  Retry
                </Button>
              </div>
            ) : items.length === 0 ? (
              <div className="grid justify-items-center gap-2 px-4 py-10 text-center text-sm text-muted-foreground">
                <Bell aria-hidden="true" className="size-6 opacity-60" />
                No notifications yet
              </div>
            ) : (
              <ul aria-labelledby={titleId} className="divide-y">
                {items.map((item) => (
                  <li key={item.id}>
                    <button
                      type="button"
                      onClick={() => openItem(item)}
                      className={cn(
                        'flex w-full items-start gap-3 px-4 py-3 text-left transition-colors hover:bg-accent focus-visible:bg-accent focus-visible:outline-none',
                        !item.isRead && 'bg-primary/[0.07] dark:bg-primary/[0.12]',
                      )}
                    >
                      <UserAvatar
                        user={{
                          username: item.username,
                          displayName: item.username,
                          avatarUrl: item.userAvatar,
                        }}
                        size={36}
                        decorative
                      />
                      <span className="grid min-w-0 flex-1 gap-0.5 text-sm">
                        <span className="user-text">
                          <span className="font-semibold">
                            {item.type === 'mention' ? `@${item.username}` : item.username}
                          </span>{' '}
                          {item.message}
                        </span>
                        <RelativeTime date={item.timestamp} className="text-xs text-muted-foreground" />
                      </span>
                      {!item.isRead ? (
                        <span className="mt-1.5 flex shrink-0 items-center">
                          <span aria-hidden="true" className="size-2.5 rounded-full bg-primary" />
                          <span className="sr-only">Unread</span>
                        </span>
                      ) : null}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
