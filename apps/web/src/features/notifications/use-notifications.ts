/**
 * What the bell and the notifications page share: opening a notification (it is read from then
 * on: the badge drops at once, the server is told, and the member's other tabs hear it through
 * the bell's live count), marking all read, and the live count itself, which also refreshes the
 * lists on screen when something new arrives.
 */
import { useNavigate } from 'react-router-dom';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { trpc } from '../../lib/trpc';
import { type NotificationItem, notificationTarget } from './notification-item';

export const NOTIFICATIONS_POLL_MS = 30_000;

/** The badge's number: the server's unread count, polled as the socket's fallback. */
export function useUnreadNotifications() {
  return trpc.notifications.unreadCount.useQuery(undefined, { refetchInterval: NOTIFICATIONS_POLL_MS });
}

/**
 * The bell, live: the server pushes the count whenever it changes (a new notification, one read
 * on another tab or instance); the lists on screen read again. Mounted once, by the header's bell.
 */
export function useNotificationsLive(): void {
  const utils = trpc.useUtils();
  trpc.notifications.onChange.useSubscription(
    {},
    {
      onData: ({ data }) => {
        utils.notifications.unreadCount.setData(undefined, { count: data.unreadCount });
        void utils.notifications.list.invalidate();
        void utils.notifications.page.invalidate();
      },
    },
  );
}

/** Shows `id` read in the lists kept here, and the badge one lower. */
function useShowRead() {
  const utils = trpc.useUtils();
  return (id: string) => {
    utils.notifications.unreadCount.setData(undefined, (old) =>
      old ? { count: Math.max(0, old.count - 1) } : old,
    );
    utils.notifications.list.setData(undefined, (items) =>
      items?.map((n) => (n.id === id ? { ...n, isRead: true } : n)),
    );
  };
}

/** Opens a notification: marks it read if it was not, then goes where it leads. */
export function useOpenNotification(onOpened?: () => void): (item: NotificationItem) => void {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const showRead = useShowRead();
  const markRead = trpc.notifications.markRead.useMutation({
    // What the server now says wins (another tab may have read more meanwhile).
    onSettled: () => {
      void utils.notifications.unreadCount.invalidate();
      void utils.notifications.page.invalidate();
    },
  });
  return (item) => {
    if (!item.isRead) {
      showRead(item.id);
      markRead.mutate({ id: item.id });
    }
    onOpened?.();
    navigate(notificationTarget(item));
  };
}

/** 'Mark all as read', with SPEC's toast. */
export function useMarkAllRead() {
  const utils = trpc.useUtils();
  return trpc.notifications.markAllRead.useMutation({
    onSuccess: () => {
      utils.notifications.unreadCount.setData(undefined, { count: 0 });
      utils.notifications.list.setData(undefined, (items) => items?.map((n) => ({ ...n, isRead: true })));
      void utils.notifications.page.invalidate();
      toast({ title: 'All notifications marked as read' });
    },
    onError: (error) => {
      errorToast('Failed to mark notifications as read', error);
    },
  });
}
