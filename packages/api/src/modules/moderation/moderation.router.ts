/**
 * The moderation procedures: the moderators' tools: the report queue, an item's context, the actions and the audit log (moderators only; 404 to everyone else). Each declares its input and its `.output()` schema once; the
 * service holds the rules. None has a REST row: docs/api.md's tRPC-only list says why.
 */
import { output } from '../../output.js';
import { createTRPCRouter, publicProcedure } from '../../trpc.js';
import { requireModerator } from './moderation.access.js';
import * as actions from './moderation.actions.js';
import { listLog } from './moderation.audit.js';
import { listOpenReports } from './moderation.queue.js';
import {
  dismissReportInput,
  moderationActionResult,
  moderationLogPage,
  moderationPageInput,
  openReportPage,
  removeContentInput,
  suspendUserInput,
  unsuspendUserInput,
} from './moderation.schema.js';

/** Moderators only; to anyone else, logged in or not, every procedure here is 404 NOT_FOUND. */
const moderatorProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const session = await requireModerator(ctx);
  return next({ ctx: { ...ctx, session } });
});

export const moderationRouter = createTRPCRouter({
  /** Open reports, oldest first, each with the reported item in context. */
  reports: moderatorProcedure
    .input(moderationPageInput)
    .output(output(openReportPage))
    .query(({ ctx, input }) => listOpenReports(ctx, input)),
  /** The audit log, newest first. */
  log: moderatorProcedure
    .input(moderationPageInput)
    .output(output(moderationLogPage))
    .query(({ ctx, input }) => listLog(ctx, input)),
  dismiss: moderatorProcedure
    .input(dismissReportInput)
    .output(output(moderationActionResult))
    .mutation(({ ctx, input }) => actions.dismissReport(ctx, input)),
  remove: moderatorProcedure
    .input(removeContentInput)
    .output(output(moderationActionResult))
    .mutation(({ ctx, input }) => actions.removeContent(ctx, input)),
  suspend: moderatorProcedure
    .input(suspendUserInput)
    .output(output(moderationActionResult))
    .mutation(({ ctx, input }) => actions.suspendUser(ctx, input)),
  unsuspend: moderatorProcedure
    .input(unsuspendUserInput)
    .output(output(moderationActionResult))
    .mutation(({ ctx, input }) => actions.unsuspendUser(ctx, input)),
});
