/**
 * The header's notifications bell (SPEC.md §2: unread count, list, 'Mark all as read').
 * An empty slot for now: the notifications feature fills it in.
 */
export function NotificationsBell() {
  return null;
}
