/**
 * Notification answers. Times are `timestamp()` (output.ts): Dates in the service and over tRPC,
 * ISO text in REST JSON and the OpenAPI document.
 */
import { z } from 'zod';
import { timestamp } from '../../output.js';

/**
 * `username` and `userAvatar` are the actor's ('Moderators' for a removal); `postId` is null for
 * follows and for a removed message.
 */
export const notificationSchema = z.strictObject({
  id: z.uuid(),
  type: z.enum(['like', 'comment', 'follow', 'removal', 'mention']),
  username: z.string(),
  userAvatar: z.string().nullable(),
  message: z.string(),
  timestamp: timestamp(),
  isRead: z.boolean(),
  postId: z.uuid().nullable(),
});

export type Notification = z.infer<typeof notificationSchema>;
/** The name clients import (client.ts). */
export type NotificationDto = Notification;

export const unreadCountResult = z.strictObject({ count: z.int().nonnegative() });
export type UnreadCount = z.infer<typeof unreadCountResult>;

export const markAllReadResult = z.strictObject({ ok: z.literal(true), updated: z.int().nonnegative() });
export type MarkAllReadResult = z.infer<typeof markAllReadResult>;
