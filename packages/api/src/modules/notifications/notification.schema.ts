/** Notification responses, as JSON (see post.schema.ts on response schemas). Imports only zod. */
import { z } from 'zod';

/** `username` and `userAvatar` are the actor's; `postId` is null for follows. */
export const notificationSchema = z.strictObject({
  id: z.uuid(),
  type: z.enum(['like', 'comment', 'follow']),
  username: z.string(),
  userAvatar: z.string().nullable(),
  message: z.string(),
  timestamp: z.iso.datetime(),
  isRead: z.boolean(),
  postId: z.uuid().nullable(),
});

export const unreadCountResult = z.strictObject({ count: z.int().nonnegative() });

export const markAllReadResult = z.strictObject({ ok: z.literal(true), updated: z.int().nonnegative() });
