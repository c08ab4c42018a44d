/**
 * Which notifications show as one item (issue #49). Likes of one post, reposts of one post, and
 * follows, made on the same UTC calendar day, share a group key: "Alice and 3 others liked your
 * post". A group is a calendar day, not 24 hours from its first event, so the key depends only on
 * the event itself and two writers racing can never open two groups of the same day. The key is
 * written with the row (notification.repository.ts and the like and repost statements) and
 * filled in for older rows by Migration20261129040000NotificationGroups with the same formula.
 * Every other kind (comments, mentions, quotes, removals, poll ends) has none and shows one item
 * each.
 */
import type { NotificationType } from '@cubes/db';

export const GROUPED_TYPES = ['like', 'repost', 'follow'] as const satisfies readonly NotificationType[];

/** The UTC calendar day of `at`, as yyyy-mm-dd. */
export function dayBucket(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The group key of a notification of `type` about `postId` made at `at`; null when it is not grouped. */
export function notificationGroupKey(type: NotificationType, postId: string | null, at: Date): string | null {
  if ((type === 'like' || type === 'repost') && postId) return `${type}:${postId}:${dayBucket(at)}`;
  if (type === 'follow') return `follow:${dayBucket(at)}`;
  return null;
}
