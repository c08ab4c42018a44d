/**
 * The notifications' lists' queries (the bell's panel and the notifications page, both loaded
 * later, so not in queries.ts, which the header loads): the newest list, the paged list, opening
 * a notification (it is read from then on: the badge drops at once, the server is
 * told, and the member's other tabs hear it through the bell's live count), and marking all read.
 * The badge's count and its live feed are in queries.ts, with the header.
 */
import type { NotificationFilter } from '@cubes/api/schemas';
import { msg } from '@lingui/core/macro';
import { useNavigate } from 'react-router-dom';
import { toast } from '../../components/ui/use-toast';
import { errorToast } from '../../lib/error-toast';
import { i18n } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { NOTIFICATIONS_POLL_MS, type NotificationItem, notificationTarget } from './queries';

/** The newest notifications (the bell's popover), asked afresh each time it mounts; polled. */
export function useNotificationsListQuery() {
  return trpc.notifications.list.useQuery(undefined, {
    refetchOnMount: 'always',
    refetchInterval: NOTIFICATIONS_POLL_MS,
  });
}

/** Every notification, or mentions only, newest first, paged (the notifications page). */
export function useNotificationsPageQuery(filter: NotificationFilter, limit: number) {
  return trpc.notifications.page.useInfiniteQuery(
    { filter, limit },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
}

/** The notifications page's first page (its loader: routes/notifications.tsx). */
export function prefetchNotificationsPage(
  utils: QueryUtils,
  filter: NotificationFilter,
  limit: number,
): Promise<void> {
  return utils.notifications.page.prefetchInfinite({ filter, limit });
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

/**
 * Reads a notification without leaving (a group opened in place): the server reads every
 * notification of its group, and the badge, which counts groups, drops by one.
 */
export function useReadNotification(): (item: NotificationItem) => void {
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
    if (item.isRead) return;
    showRead(item.id);
    markRead.mutate({ id: item.id });
  };
}

/** Opens a notification: marks it (its group) read if it was not, then goes where it leads. */
export function useOpenNotification(onOpened?: () => void): (item: NotificationItem) => void {
  const navigate = useNavigate();
  const read = useReadNotification();
  return (item) => {
    read(item);
    onOpened?.();
    navigate(notificationTarget(item));
  };
}

export const GROUP_ACTORS_PAGE_SIZE = 20;

/** Everyone in the group of notification `id` (an opened grouped row), newest first, paged. */
export function useGroupActorsQuery(id: string) {
  return trpc.notifications.groupActors.useInfiniteQuery(
    { id, limit: GROUP_ACTORS_PAGE_SIZE },
    {
      getNextPageParam: (last) => last.nextCursor ?? undefined,
      // A like joining the group gives the item a newer id: the open list stays until it is read again.
      placeholderData: (previous) => previous,
    },
  );
}

/** 'Mark all as read', with SPEC's toast. */
export function useMarkAllRead() {
  const utils = trpc.useUtils();
  return trpc.notifications.markAllRead.useMutation({
    onSuccess: () => {
      utils.notifications.unreadCount.setData(undefined, { count: 0 });
      utils.notifications.list.setData(undefined, (items) => items?.map((n) => ({ ...n, isRead: true })));
      void utils.notifications.page.invalidate();
      toast({ title: i18n._(msg`All notifications marked as read`) });
    },
    onError: (error) => {
      errorToast(i18n._(msg`Failed to mark notifications as read`), error, i18n._(msg`Please try again`));
    },
  });
}
