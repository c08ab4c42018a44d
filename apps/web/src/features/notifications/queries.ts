/**
 * The notifications' queries the header's bell needs (in the first chunk): where a notification
 * leads, the unread count, and the live count itself, which also refreshes the lists on screen
 * when something new arrives. The lists' queries, opening one and marking all read are in
 * list-queries.ts, loaded later with the lists.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { trpc } from '../../lib/trpc';
import { postPath } from '../posts/post-path';

export type NotificationItem = RouterOutputs['notifications']['list'][number];

/** Where an item leads: the post for likes, comments and mentions, the follower's profile for follows. */
export function notificationTarget(item: Pick<NotificationItem, 'type' | 'postId' | 'username'>): string {
  if (item.type !== 'follow' && item.postId) return postPath(item.postId);
  // From the moderators, about a removed message: there is no post or profile to open.
  if (item.type === 'removal') return '/';
  return `/profile/${encodeURIComponent(item.username)}`;
}

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
        // An opened group shows a newcomer too.
        void utils.notifications.groupActors.invalidate();
      },
    },
  );
}
