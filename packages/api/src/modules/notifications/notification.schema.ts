/**
 * Notification responses, as JSON (see post.schema.ts on response schemas); an answer with times
 * has a second form for the procedure's `.output` (`*Output`), whose times are Dates.
 */
import { z } from 'zod';
import { timestamp } from '../../output.js';

/**
 * `username` and `userAvatar` are the actor's ('Moderators' for a removal); `postId` is null for
 * follows and for a removed message.
 */
export const notificationSchema = z.strictObject({
  id: z.uuid(),
  type: z.enum(['like', 'comment', 'follow', 'removal']),
  username: z.string(),
  userAvatar: z.string().nullable(),
  message: z.string(),
  timestamp: z.iso.datetime(),
  isRead: z.boolean(),
  postId: z.uuid().nullable(),
});

/** A notification as `notifications.list` answers it: `timestamp` a Date, ISO text in REST. */
export const notificationOutput = notificationSchema.extend({ timestamp: timestamp() });
export type Notification = z.infer<typeof notificationOutput>;
/** The name clients import (client.ts). */
export type NotificationDto = Notification;

export const unreadCountResult = z.strictObject({ count: z.int().nonnegative() });
export type UnreadCount = z.infer<typeof unreadCountResult>;

export const markAllReadResult = z.strictObject({ ok: z.literal(true), updated: z.int().nonnegative() });
export type MarkAllReadResult = z.infer<typeof markAllReadResult>;
