/**
 * Direct message forms and answers: one definition for the procedures, the REST rows and the
 * Chat page. Imports only zod and our own schema helpers (the web bundles it).
 */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { liveInput } from '../../events/live.schema.js';
import { timestamp } from '../../output.js';
import { pageInputWith, pageOf } from '../../paging.js';
import { text } from '../../text.js';
import { entityIdSchema } from '../posts/post.schema.js';

export const MESSAGE_MAX_LENGTH = 2000;
export const CLIENT_ID_MAX_LENGTH = 64;
/** A thread page: the newest messages first, older ones through the cursor. */
export const THREAD_PAGE_DEFAULT = 50;

export { TYPING_EXPIRES_MS, TYPING_REFRESH_MS } from '../../rules.js';

export const MESSAGES_FROM_VALUES = ['everyone', 'following', 'nobody'] as const;
export const messagesFromSchema = z.enum(MESSAGES_FROM_VALUES, {
  error: ERROR_REASONS.MESSAGES_FROM_INVALID,
});
export type MessagesFromSetting = z.infer<typeof messagesFromSchema>;

export const messageContentSchema = text('Message', { error: ERROR_REASONS.MESSAGE_EMPTY })
  .trim()
  .min(1, ERROR_REASONS.MESSAGE_EMPTY)
  .max(MESSAGE_MAX_LENGTH, ERROR_REASONS.MESSAGE_TOO_LONG);

/** The sender's own id for a send: a retry with the same one returns the first message. */
export const clientIdSchema = text('Client id', { error: ERROR_REASONS.CLIENT_ID_NOT_TEXT })
  .min(1, ERROR_REASONS.CLIENT_ID_INVALID_LENGTH)
  .max(CLIENT_ID_MAX_LENGTH, ERROR_REASONS.CLIENT_ID_INVALID_LENGTH);

export const sendMessageInput = z.object({
  receiverId: entityIdSchema,
  content: messageContentSchema,
  clientId: clientIdSchema.nullish(),
});
export type SendMessageInput = z.infer<typeof sendMessageInput>;

/** The other member of a conversation; an id that names no one is 404, checked by the service. */
export const peerInput = z.object({ userId: entityIdSchema });
export type PeerInput = z.infer<typeof peerInput>;

export const threadInput = pageInputWith(THREAD_PAGE_DEFAULT).extend({ userId: entityIdSchema });
export type ThreadInput = z.infer<typeof threadInput>;

export const typingInput = z.object({
  userId: entityIdSchema,
  active: z.boolean({ error: ERROR_REASONS.ACTIVE_NOT_BOOLEAN }).default(true),
});
export type TypingInput = z.infer<typeof typingInput>;

export const messagesLiveInput = liveInput;

// Answers. Times are `timestamp()` (output.ts): Dates in the service and over tRPC, ISO text in
// REST JSON and the OpenAPI document.

export const directMessageSchema = z.strictObject({
  id: z.uuid(),
  senderId: z.uuid(),
  receiverId: z.uuid(),
  content: z.string(),
  createdAt: timestamp(),
  /** When the receiver read it; null while unread. */
  readAt: timestamp().nullable(),
  /** The sender's own id of the send (null for the receiver and for sends without one). */
  clientId: z.string().nullable(),
});

export type DirectMessage = z.infer<typeof directMessageSchema>;

/** A page of a thread, oldest first; the cursor reaches older messages. */
export const threadPage = pageOf(directMessageSchema);

/** One conversation of the caller: the other member, the newest message, and how many are unread. */
export const conversationSchema = z.strictObject({
  userId: z.uuid(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
  lastMessage: z.string(),
  lastMessageTime: timestamp(),
  /** whether the newest message is the caller's own */
  lastMessageMine: z.boolean(),
  unread: z.int().nonnegative(),
});

export type Conversation = z.infer<typeof conversationSchema>;

/** The member a thread is with, and whether the caller may write to them. */
export const peerSchema = z.strictObject({
  userId: z.uuid(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
  /** whether the caller may write to them (their messagesFrom, or they wrote to the caller) */
  canMessage: z.boolean(),
});
export type Peer = z.infer<typeof peerSchema>;

export const markReadResult = z.strictObject({ ok: z.literal(true), updated: z.int().nonnegative() });
export type MarkReadResult = z.infer<typeof markReadResult>;
export const typingResult = z.strictObject({ ok: z.literal(true) });
export type TypingResult = z.infer<typeof typingResult>;
