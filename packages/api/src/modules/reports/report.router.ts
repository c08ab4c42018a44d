/**
 * The reports procedures: reporting a post, comment, message or member to the moderators. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (report.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure } from '../../trpc.js';
import { createReportInput, reportResult } from './report.schema.js';
import * as reports from './report.service.js';

export const reportsRouter = createTRPCRouter({
  /** POST /api/reports → 201 {id}; 409 when the caller already reported the item. */
  create: limitedProcedure('report')
    .input(createReportInput)
    .output(output(reportResult))
    .mutation(({ ctx, input }) => reports.createReport(ctx, input)),
});
