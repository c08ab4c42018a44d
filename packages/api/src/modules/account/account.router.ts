/**
 * The account procedures: the data export (request, status) and deleting the account. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (account.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, protectedProcedure } from '../../trpc.js';
import { okResult } from '../auth/auth.schema.js';
import { accountExportResult, accountExportSchema, deleteAccountInput } from './account.schema.js';
import * as account from './account.service.js';

export const accountRouter = createTRPCRouter({
  /** The newest data export and its progress (null before the first). */
  export: protectedProcedure.output(output(accountExportResult)).query(({ ctx }) => account.getExport(ctx)),
  /** Starts building "Download my data" in the background. */
  requestExport: protectedProcedure
    .output(output(accountExportSchema))
    .mutation(({ ctx }) => account.requestExport(ctx)),
  /** Deletes the caller's account (needs the password) and ends every session. */
  delete: protectedProcedure
    .input(deleteAccountInput)
    .output(output(okResult))
    .mutation(({ ctx, input }) => account.deleteAccount(ctx, input)),
});
