import { createTRPCRouter, publicProcedure } from '../../trpc.js';
import {
  dismissReportInput,
  moderationPageInput,
  removeContentInput,
  suspendUserInput,
  unsuspendUserInput,
} from './moderation.schema.js';
import * as moderation from './moderation.service.js';

/** Moderators only; to anyone else, logged in or not, every procedure here is 404 NOT_FOUND. */
const moderatorProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const session = await moderation.requireModerator(ctx);
  return next({ ctx: { ...ctx, session } });
});

export const moderationRouter = createTRPCRouter({
  /** Open reports, oldest first, each with the reported item in context. */
  reports: moderatorProcedure
    .input(moderationPageInput)
    .query(({ ctx, input }) => moderation.listOpenReports(ctx, input)),
  /** The audit log, newest first. */
  log: moderatorProcedure
    .input(moderationPageInput)
    .query(({ ctx, input }) => moderation.listLog(ctx, input)),
  dismiss: moderatorProcedure
    .input(dismissReportInput)
    .mutation(({ ctx, input }) => moderation.dismissReport(ctx, input)),
  remove: moderatorProcedure
    .input(removeContentInput)
    .mutation(({ ctx, input }) => moderation.removeContent(ctx, input)),
  suspend: moderatorProcedure
    .input(suspendUserInput)
    .mutation(({ ctx, input }) => moderation.suspendUser(ctx, input)),
  unsuspend: moderatorProcedure
    .input(unsuspendUserInput)
    .mutation(({ ctx, input }) => moderation.unsuspendUser(ctx, input)),
});
