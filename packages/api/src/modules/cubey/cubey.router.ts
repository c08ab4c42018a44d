/**
 * The cubey procedures: Cubey, the AI assistant: chat sessions, their messages, sending, regenerating and stopping an answer, and the live streams of answers. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (apps/server/src/rest/routes.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { tracked } from '@trpc/server';
import { liveInput } from '../../events/live.schema.js';
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure, protectedProcedure } from '../../trpc.js';
import { usageOf } from './cubey.fair-use.js';
import {
  chatMessageList,
  chatSessionList,
  cubeyAnswerInput,
  cubeyChatInput,
  cubeyChatResult,
  cubeyMessageIdInput,
  cubeySessionIdInput,
  cubeyStartedResult,
  cubeyStopResult,
  cubeyUsageResult,
} from './cubey.schema.js';
import * as cubey from './cubey.service.js';

export const cubeyRouter = createTRPCRouter({
  sessions: protectedProcedure.output(output(chatSessionList)).query(({ ctx }) => cubey.listSessions(ctx)),
  messages: protectedProcedure
    .input(cubeySessionIdInput)
    .output(output(chatMessageList))
    .query(({ ctx, input }) => cubey.listMessages(ctx, input.sessionId)),
  /** REST's chat: answers once the whole reply is there (502 when the provider fails). */
  chat: limitedProcedure('cubeyChat')
    .input(cubeyChatInput)
    .output(output(cubeyChatResult))
    .mutation(({ ctx, input }) => cubey.chat(ctx, input)),
  /** The web's chat: answers at once; the reply streams through `onAnswer`. */
  send: limitedProcedure('cubeyChat')
    .input(cubeyChatInput)
    .output(output(cubeyStartedResult))
    .mutation(({ ctx, input }) => cubey.sendMessage(ctx, input)),
  regenerate: limitedProcedure('cubeyChat')
    .input(cubeySessionIdInput)
    .output(output(cubeyStartedResult))
    .mutation(({ ctx, input }) => cubey.regenerate(ctx, input.sessionId)),
  /** The member's Cubey tokens today and what is left of the daily limit. */
  usage: protectedProcedure.output(output(cubeyUsageResult)).query(({ ctx }) => usageOf(ctx)),
  stop: protectedProcedure
    .input(cubeyMessageIdInput)
    .output(output(cubeyStopResult))
    .mutation(({ ctx, input }) => cubey.stopAnswer(ctx, input.messageId)),
  /** An answer, live (WebSocket): the text so far, then each piece; tracked ids let a client resume. */
  onAnswer: protectedProcedure.input(cubeyAnswerInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const { id, event } of cubey.liveAnswer(ctx, input.messageId, input.lastEventId, signal)) {
      yield tracked(id, event);
    }
  }),
  /** The member's chats, live (WebSocket): a session created, an answer started or ended, from any tab. */
  onSessions: protectedProcedure.input(liveInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const { id, event } of cubey.liveSessions(ctx, input.lastEventId, signal)) {
      yield tracked(id, event);
    }
  }),
});
