import { createTRPCRouter, protectedProcedure } from '../../trpc.js';
import { deleteAccountInput } from './account.schema.js';
import * as account from './account.service.js';

export const accountRouter = createTRPCRouter({
  /** The newest data export and its progress (null before the first). */
  export: protectedProcedure.query(({ ctx }) => account.getExport(ctx)),
  /** Starts building "Download my data" in the background. */
  requestExport: protectedProcedure.mutation(({ ctx }) => account.requestExport(ctx)),
  /** Deletes the caller's account (needs the password) and ends every session. */
  delete: protectedProcedure
    .input(deleteAccountInput)
    .mutation(({ ctx, input }) => account.deleteAccount(ctx, input)),
});
