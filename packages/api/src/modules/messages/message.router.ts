/**
 * The messages procedures: direct messages: conversations, threads, sending, read receipts, typing, and the live stream. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (message.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { tracked } from '@trpc/server';
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure, protectedProcedure } from '../../trpc.js';
import { unreadCountResult } from '../notifications/notification.schema.js';
import { liveMessages } from './message.live.js';
import {
  conversationSchema,
  directMessageSchema,
  markReadResult,
  messagesLiveInput,
  peerInput,
  peerSchema,
  sendMessageInput,
  threadInput,
  threadPage,
  typingInput,
  typingResult,
} from './message.schema.js';
import * as messages from './message.service.js';

export const messagesRouter = createTRPCRouter({
  /** GET /api/messages/conversations. */
  conversations: protectedProcedure
    .output(output(conversationSchema.array()))
    .query(({ ctx }) => messages.listConversations(ctx)),
  /** GET /api/messages/:userId: the thread, oldest first; only reads (markRead marks it read). */
  thread: protectedProcedure
    .input(threadInput)
    .output(output(threadPage))
    .query(({ ctx, input }) => messages.getThread(ctx, input)),
  /** POST /api/messages → 201 message; a repeated clientId returns the first message. */
  send: limitedProcedure('directMessage')
    .input(sendMessageInput)
    .output(output(directMessageSchema))
    .mutation(({ ctx, input }) => messages.sendMessage(ctx, input)),
  /** POST /api/messages/:userId/read: the open thread is read (tells the sender: a receipt). */
  markRead: protectedProcedure
    .input(peerInput)
    .output(output(markReadResult))
    .mutation(({ ctx, input }) => messages.markRead(ctx, input)),
  /** The member a thread is with, and whether the caller may write to them. */
  peer: protectedProcedure
    .input(peerInput)
    .output(output(peerSchema))
    .query(({ ctx, input }) => messages.getPeer(ctx, input)),
  /** GET /api/messages/unread-count: the Chat link's badge. */
  unreadCount: protectedProcedure
    .output(output(unreadCountResult))
    .query(({ ctx }) => messages.countUnread(ctx)),
  /** "I am typing to userId" (re-sent while typing; expires by itself); never stored. */
  typing: protectedProcedure
    .input(typingInput)
    .output(output(typingResult))
    .mutation(({ ctx, input }) => messages.typing(ctx, input)),
  /** Messages, receipts, the unread count and typing, live (WebSocket), with catch-up by event id. */
  live: protectedProcedure.input(messagesLiveInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const { id, event } of liveMessages(ctx, input.lastEventId, signal)) {
      yield tracked(id, event);
    }
  }),
});
