/**
 * The cubey procedures: Cubey, the AI assistant: chat sessions, their messages, sending, regenerating and stopping an answer, and the live streams of answers. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (cubey.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { tracked } from '@trpc/server';
import { liveInput } from '../../events/live.schema.js';
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure, protectedProcedure, publicProcedure } from '../../trpc.js';
import { editMessage } from './cubey.edit.js';
import { usageOf } from './cubey.fair-use.js';
import { regenerate } from './cubey.regenerate.js';
import {
  chatMessageList,
  chatSearchResult,
  chatSessionList,
  cubeyAnswerInput,
  cubeyChatInput,
  cubeyChatResult,
  cubeyDeleteResult,
  cubeyEditInput,
  cubeyMessageIdInput,
  cubeyRenameInput,
  cubeySearchInput,
  cubeySessionIdInput,
  cubeySessionResult,
  cubeySetupResult,
  cubeyStartedResult,
  cubeyStopResult,
  cubeyUsageResult,
  cubeyVersionResult,
} from './cubey.schema.js';
import { sendMessage } from './cubey.send.js';
import * as cubey from './cubey.service.js';
import * as chats from './cubey-chats.service.js';

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
    .mutation(({ ctx, input }) => sendMessage(ctx, input)),
  regenerate: limitedProcedure('cubeyChat')
    .input(cubeySessionIdInput)
    .output(output(cubeyStartedResult))
    .mutation(({ ctx, input }) => regenerate(ctx, input.sessionId)),
  /** What the Cubes page's tools have on this server: a model or the offline assistant; media generation. */
  setup: publicProcedure.output(output(cubeySetupResult)).query(({ ctx }) => cubey.setupOf(ctx)),
  /** The member's Cubey tokens today and what is left of the daily limit. */
  usage: protectedProcedure.output(output(cubeyUsageResult)).query(({ ctx }) => usageOf(ctx)),
  stop: protectedProcedure
    .input(cubeyMessageIdInput)
    .output(output(cubeyStopResult))
    .mutation(({ ctx, input }) => cubey.stopAnswer(ctx, input.messageId)),
  /** Managing chats (cubey-chats.service.ts): each change reaches every tab through `onSessions`. */
  rename: protectedProcedure
    .input(cubeyRenameInput)
    .output(output(cubeySessionResult))
    .mutation(({ ctx, input }) => chats.renameChat(ctx, input.sessionId, input.title)),
  delete: protectedProcedure
    .input(cubeySessionIdInput)
    .output(output(cubeyDeleteResult))
    .mutation(({ ctx, input }) => chats.deleteChat(ctx, input.sessionId)),
  /** Undo of a delete. */
  restore: protectedProcedure
    .input(cubeySessionIdInput)
    .output(output(cubeySessionResult))
    .mutation(({ ctx, input }) => chats.restoreChat(ctx, input.sessionId)),
  search: protectedProcedure
    .input(cubeySearchInput)
    .output(output(chatSearchResult))
    .query(({ ctx, input }) => chats.searchChats(ctx, input.query)),
  /** Edit the last question and resend it; the earlier version stays, to switch back to. */
  edit: limitedProcedure('cubeyChat')
    .input(cubeyEditInput)
    .output(output(cubeyStartedResult))
    .mutation(({ ctx, input }) => editMessage(ctx, input.messageId, input.message)),
  switchVersion: protectedProcedure
    .input(cubeyMessageIdInput)
    .output(output(cubeyVersionResult))
    .mutation(({ ctx, input }) => chats.switchVersion(ctx, input.messageId)),
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
