import { createTRPCRouter, protectedProcedure } from '../../trpc.js';
import { sessionIdInput } from './sessions.schema.js';
import * as sessions from './sessions.service.js';

export const sessionsRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => sessions.listSessions(ctx)),
  end: protectedProcedure.input(sessionIdInput).mutation(({ ctx, input }) => sessions.endSession(ctx, input)),
  endOthers: protectedProcedure.mutation(({ ctx }) => sessions.endOtherSessions(ctx)),
});
