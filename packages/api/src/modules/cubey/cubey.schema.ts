/** Cubey, the AI assistant: inputs shared by the procedures, the REST rows and the chat box. Imports only zod. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { text } from '../../text.js';
import { entityIdSchema } from '../posts/post.schema.js';

export const CUBEY_MESSAGE_MAX_LENGTH = 4000;

export const cubeyMessageSchema = text('Message', { error: ERROR_REASONS.MESSAGE_EMPTY })
  .trim()
  .min(1, ERROR_REASONS.MESSAGE_EMPTY)
  .max(CUBEY_MESSAGE_MAX_LENGTH, ERROR_REASONS.CUBEY_MESSAGE_TOO_LONG);

export const cubeyChatInput = z.object({
  message: cubeyMessageSchema,
  sessionId: entityIdSchema.nullish(),
});
export type CubeyChatInput = z.infer<typeof cubeyChatInput>;

export const cubeySessionIdInput = z.object({ sessionId: entityIdSchema });
export const cubeyMessageIdInput = z.object({ messageId: entityIdSchema });

/** The answer stream of one assistant message; `lastEventId` is what the client already has. */
export const cubeyAnswerInput = z.object({
  messageId: entityIdSchema,
  lastEventId: text('Event id').max(200, ERROR_REASONS.EVENT_ID_INVALID).nullish(),
});

export const chatRoleSchema = z.enum(['user', 'assistant']);
export const chatMessageStatusSchema = z.enum(['streaming', 'done', 'stopped', 'failed']);

// Responses, as JSON on the wire.

export const chatSessionSchema = z.strictObject({
  id: z.uuid(),
  title: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ChatSession = z.infer<typeof chatSessionSchema>;

/** Something an answer's look-up used: a post (shown on its author's profile), a member, a gallery item, a tag. */
export const cubeySourceSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('post'), id: z.uuid(), username: z.string(), label: z.string() }),
  z.strictObject({ kind: z.literal('member'), username: z.string(), label: z.string() }),
  z.strictObject({ kind: z.literal('media'), id: z.uuid(), label: z.string() }),
  z.strictObject({ kind: z.literal('tag'), tag: z.string(), label: z.string() }),
]);
export type CubeySource = z.infer<typeof cubeySourceSchema>;

/** One look-up an answer made with a tool: which, what it did in words, and what it used. */
export const cubeyLookupSchema = z.strictObject({
  tool: z.string(),
  label: z.string(),
  sources: z.array(cubeySourceSchema),
});
export type CubeyLookup = z.infer<typeof cubeyLookupSchema>;

/**
 * `status` says how far an assistant answer got; `error` is the readable reason of a failure;
 * `lookups` the tools it used (a model's answers only).
 */
export const chatMessageSchema = z.strictObject({
  id: z.uuid(),
  role: chatRoleSchema,
  content: z.string(),
  status: chatMessageStatusSchema,
  error: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lookups: z.array(cubeyLookupSchema),
  /** A question edited and resent: the ids of all its versions, oldest first (this one among them). */
  versions: z.array(z.uuid()).optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatSessionList = z.array(chatSessionSchema);
export const chatMessageList = z.array(chatMessageSchema);

/**
 * cubey.send and cubey.regenerate: the member's message (null on regenerate) and the answer as it
 * starts, empty and streaming (it goes on through cubey.onAnswer).
 */
export const cubeyStartedResult = z.strictObject({
  sessionId: z.uuid(),
  message: chatMessageSchema.nullable(),
  reply: chatMessageSchema,
});
export type CubeyStarted = z.infer<typeof cubeyStartedResult>;

export const cubeyChatResult = z.strictObject({
  sessionId: z.uuid(),
  reply: z.strictObject({ id: z.uuid(), role: z.literal('assistant'), content: z.string() }),
});
export type CubeyChatResult = z.infer<typeof cubeyChatResult>;

export const cubeyStopResult = z.strictObject({ stopped: z.boolean() });
export type CubeyStopResult = z.infer<typeof cubeyStopResult>;

/** cubey.usage: the member's Cubey tokens today; `limit` and `left` are null when unlimited. */
export const cubeyUsageResult = z.strictObject({
  used: z.int().nonnegative(),
  limit: z.int().positive().nullable(),
  left: z.int().nonnegative().nullable(),
  resetsAt: z.iso.datetime(),
});
export type CubeyUsage = z.infer<typeof cubeyUsageResult>;

/**
 * What this server has set up for the Cubes page's tools: whether Cubey answers with a language
 * model (`CUBEY_BASE_URL` is set) or as the offline assistant, and whether a media generation
 * service (images, music, video) is connected, which no Cubes server has yet.
 */
export const cubeySetupResult = z.strictObject({
  assistant: z.enum(['model', 'offline']),
  mediaGeneration: z.boolean(),
});
export type CubeySetup = z.infer<typeof cubeySetupResult>;
// Managing chats: rename, delete and restore, search, edit the last question, switch versions.

export const CHAT_TITLE_MAX_LENGTH = 120;

export const cubeyRenameInput = z.object({
  sessionId: entityIdSchema,
  title: text('Title', { error: ERROR_REASONS.TITLE_EMPTY })
    .trim()
    .min(1, ERROR_REASONS.TITLE_EMPTY)
    .max(CHAT_TITLE_MAX_LENGTH, ERROR_REASONS.TITLE_TOO_LONG),
});

export const cubeySearchInput = z.object({
  query: text('Query').max(200, ERROR_REASONS.QUERY_TOO_LONG),
});

/** Edit the last question of a session and resend it: its earlier version stays, to switch back to. */
export const cubeyEditInput = z.object({
  messageId: entityIdSchema,
  message: cubeyMessageSchema,
});

export const chatSearchHitSchema = z.strictObject({
  id: z.uuid(),
  title: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** A piece of the first message that matched (none when only the title did). */
  snippet: z.string().nullable(),
});
export type ChatSearchHit = z.infer<typeof chatSearchHitSchema>;
export const chatSearchResult = z.array(chatSearchHitSchema);

export const cubeySessionResult = z.strictObject({ session: chatSessionSchema });
export const cubeyDeleteResult = z.strictObject({ deleted: z.boolean() });
export const cubeyVersionResult = z.strictObject({ messages: z.array(chatMessageSchema) });
