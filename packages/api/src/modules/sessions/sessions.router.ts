/**
 * The sessions procedures: a member's sessions (devices): list, end one, end all others. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (sessions.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, protectedProcedure } from '../../trpc.js';
import { endSessionsResult, sessionIdInput, sessionListResult } from './sessions.schema.js';
import * as sessions from './sessions.service.js';

export const sessionsRouter = createTRPCRouter({
  list: protectedProcedure.output(output(sessionListResult)).query(({ ctx }) => sessions.listSessions(ctx)),
  end: protectedProcedure
    .input(sessionIdInput)
    .output(output(endSessionsResult))
    .mutation(({ ctx, input }) => sessions.endSession(ctx, input)),
  endOthers: protectedProcedure
    .output(output(endSessionsResult))
    .mutation(({ ctx }) => sessions.endOtherSessions(ctx)),
});
