/** Notification responses, as JSON (see post.schema.ts on response schemas). Imports only zod. */
import { z } from 'zod';

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

export const unreadCountResult = z.strictObject({ count: z.int().nonnegative() });
export type UnreadCount = z.infer<typeof unreadCountResult>;

export const markAllReadResult = z.strictObject({ ok: z.literal(true), updated: z.int().nonnegative() });
