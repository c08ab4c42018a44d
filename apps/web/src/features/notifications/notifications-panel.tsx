/**
 * The bell's popover body (notifications-bell.tsx), loaded with its first opening: the newest
 * notifications, 'Mark all as read', and a link to the notifications page.
 */
import { Trans } from '@lingui/react/macro';
import { Bell, CheckCheck } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import {
  useMarkAllRead,
  useNotificationsListQuery,
  useOpenNotification,
  useReadNotification,
} from './list-queries';
import { NotificationRow } from './notification-item';

export function NotificationsPanel({ count, close }: { count: number; close: () => void }) {
  const titleId = useId();
  // Mounted when the popover opens: the list is asked for fresh each time.
  const list = useNotificationsListQuery();
  const markAll = useMarkAllRead();
  const openItem = useOpenNotification(close);
  const readItem = useReadNotification();
  const items = list.data ?? [];
  const anyUnread = count > 0 || items.some((n) => !n.isRead);
  return (
    <>
      <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
        <h2 id={titleId} className="font-semibold">
          <Trans>Notifications</Trans>
        </h2>
        <Button
          variant="ghost"
          size="sm"
          className="h-8 px-2 text-xs"
          disabled={!anyUnread || markAll.isPending}
          onClick={() => markAll.mutate()}
        >
          {markAll.isPending ? <Spinner /> : <CheckCheck aria-hidden="true" />}
          <Trans>Mark all as read</Trans>
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {list.isPending ? (
          <p
            role="status"
            className="flex items-center justify-center gap-2 px-4 py-10 text-sm text-muted-foreground"
          >
            <Spinner /> <Trans>Loading notifications...</Trans>
          </p>
        ) : list.isError ? (
          <div className="grid justify-items-center gap-2 px-4 py-10 text-sm">
            <p className="text-muted-foreground">
              <Trans>Could not load notifications.</Trans>
            </p>
            <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
              <Trans>Retry</Trans>
            </Button>
          </div>
        ) : items.length === 0 ? (
          <div className="grid justify-items-center gap-2 px-4 py-10 text-center text-sm text-muted-foreground">
            <Bell aria-hidden="true" className="size-6 opacity-60" />
            <Trans>No notifications yet</Trans>
          </div>
        ) : (
          <ul aria-labelledby={titleId} className="divide-y">
            {items.map((item) => (
              // Keyed by group: a like joining a group updates its row in place.
              <li key={item.groupKey}>
                <NotificationRow item={item} onOpen={openItem} onRead={readItem} onLeave={close} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="border-t p-2">
        <Button asChild variant="ghost" size="sm" className="w-full">
          <Link to="/notifications" onClick={close}>
            <Trans>See all notifications</Trans>
          </Link>
        </Button>
      </div>
    </>
  );
}
