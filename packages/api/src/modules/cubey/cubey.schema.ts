/** Cubey, the AI assistant: inputs shared by the procedures, the REST rows and the chat box. Imports only zod. */
import { z } from 'zod';
import { text } from '../../text.js';
import { entityIdSchema } from '../posts/post.schema.js';

export const CUBEY_MESSAGE_MAX_LENGTH = 4000;

export const cubeyMessageSchema = text('Message', { error: 'Message cannot be empty' })
  .trim()
  .min(1, 'Message cannot be empty')
  .max(CUBEY_MESSAGE_MAX_LENGTH, 'Message must be at most 4000 characters');

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
  lastEventId: text('Event id').max(200, 'Invalid event id').nullish(),
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

/** `status` says how far an assistant answer got; `error` is the readable reason of a failure. */
export const chatMessageSchema = z.strictObject({
  id: z.uuid(),
  role: chatRoleSchema,
  content: z.string(),
  status: chatMessageStatusSchema,
  error: z.string().nullable(),
  createdAt: z.iso.datetime(),
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
