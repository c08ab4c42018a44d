/**
 * Notification answers. Times are `timestamp()` (output.ts): Dates in the service and over tRPC,
 * ISO text in REST JSON and the OpenAPI document.
 */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { timestamp } from '../../output.js';
import { pageInputWith, pageOf } from '../../paging.js';
import { entityIdSchema } from '../posts/post.schema.js';

/** Longest snippet of what was said, in characters (an ellipsis ends a cut one). */
export const SNIPPET_MAX_LENGTH = 120;

/** One of a group's actors (issue #49). */
export const notificationActorSchema = z.strictObject({
  id: z.uuid(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
});
export type NotificationActor = z.infer<typeof notificationActorSchema>;

/** What a moderator removed: a post, a comment or a direct message. */
export const REMOVED_ITEMS = ['post', 'comment', 'message'] as const;
export type RemovedItem = (typeof REMOVED_ITEMS)[number];

export const notificationRemovalSchema = z.strictObject({
  item: z.enum(REMOVED_ITEMS),
  /** The moderator's reason, as they wrote it (user content: never translated). */
  reason: z.string(),
});
export type NotificationRemoval = z.infer<typeof notificationRemovalSchema>;

/**
 * One item is one group (issue #49): likes of one post, reposts of one post, or follows, made on
 * the same UTC day (notification.groups.ts); every other kind is an item of its own. The fields
 * older clients read describe the group's newest event (its id, actor, time); `isRead` is true
 * when every row of the group is read. `groupKey` names the group (the item's id for a kind that
 * is not grouped), `actors` its newest actors, newest first (up to 3; none for a removal, whose
 * actor is a moderator), `actorsCount` how many distinct actors it has that the recipient sees.
 *
 * `username` and `userAvatar` are the actor's ('Moderators' for a removal); `postId` is null for
 * follows and for a removed message. `snippet` is the start of what was said: the comment for a
 * comment or a mention in one, the post for a like or a mention in a post; null for follows and
 * removals, and once it is out of the recipient's sight (removed, its author suspended or blocked).
 *
 * `message` is the English line of older clients (issue #50: clients write the sentence in the
 * member's language from the kind and the names instead). A removal's and an ended poll's line
 * are written from `removal` and `poll`.
 */
export const notificationSchema = z.strictObject({
  id: z.uuid(),
  /** 'poll_ended': a poll the recipient wrote or voted in ended (`poll` says which) */
  type: z.enum(['like', 'comment', 'follow', 'removal', 'mention', 'repost', 'quote', 'poll_ended']),
  username: z.string(),
  userAvatar: z.string().nullable(),
  message: z.string(),
  timestamp: timestamp(),
  isRead: z.boolean(),
  postId: z.uuid().nullable(),
  snippet: z.string().nullable(),
  groupKey: z.string(),
  actors: z.array(notificationActorSchema).max(3),
  actorsCount: z.int().nonnegative(),
  /**
   * A removal's: what was removed and the moderator's reason, as they wrote it; null for other
   * kinds (and for a removal whose note cannot be read, from before this field).
   */
  removal: notificationRemovalSchema.nullable(),
  /** An ended poll's: whether it was the recipient's own poll (else one they voted in); null for other kinds. */
  poll: z.strictObject({ own: z.boolean() }).nullable(),
});

export type Notification = z.infer<typeof notificationSchema>;
/** The name clients import (client.ts). */
export type NotificationDto = Notification;

export const unreadCountResult = z.strictObject({ count: z.int().nonnegative() });
export type UnreadCount = z.infer<typeof unreadCountResult>;

export const markAllReadResult = z.strictObject({ ok: z.literal(true), updated: z.int().nonnegative() });
export type MarkAllReadResult = z.infer<typeof markAllReadResult>;

export const NOTIFICATION_FILTERS = ['all', 'mentions'] as const;
export const notificationFilterSchema = z.enum(NOTIFICATION_FILTERS, {
  error: ERROR_REASONS.NOTIFICATION_FILTER_INVALID,
});
export type NotificationFilter = z.infer<typeof notificationFilterSchema>;

/** The notifications page (/notifications): newest first, every kind or mentions only. */
export const NOTIFICATION_PAGE_DEFAULT = 20;
export const notificationPageInput = pageInputWith(NOTIFICATION_PAGE_DEFAULT).extend({
  filter: notificationFilterSchema.default('all'),
});
export type NotificationPageInput = z.infer<typeof notificationPageInput>;
export const notificationPage = pageOf(notificationSchema);

/** One notification, opened: it is read from then on. */
export const notificationIdInput = z.object({ id: entityIdSchema });
export type NotificationIdInput = z.infer<typeof notificationIdInput>;
/** A group's actors (GET /api/notifications/{id}/actors): everyone in the item's group, paged. */
export const GROUP_ACTORS_PAGE_DEFAULT = 20;
export const groupActorsInput = pageInputWith(GROUP_ACTORS_PAGE_DEFAULT).extend({ id: entityIdSchema });
export type GroupActorsInput = z.infer<typeof groupActorsInput>;
export const groupActorsPage = pageOf(notificationActorSchema);

export const notificationReadResult = z.strictObject({ ok: z.literal(true), updated: z.int().min(0).max(1) });
export type NotificationReadResult = z.infer<typeof notificationReadResult>;
