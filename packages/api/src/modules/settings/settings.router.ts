import { output } from '../../output.js';
import { createTRPCRouter, protectedProcedure } from '../../trpc.js';
import { messageResult } from '../auth/auth.schema.js';
import {
  changeEmailInput,
  changePasswordInput,
  confirmEmailChangeInput,
  emailChangeRequestResult,
  settingsSchema,
  updateSettingsInput,
} from './settings.schema.js';
import * as settings from './settings.service.js';

export const settingsRouter = createTRPCRouter({
  get: protectedProcedure.output(output(settingsSchema)).query(({ ctx }) => settings.getSettings(ctx)),
  // update and confirmEmailChange answer `userResult` but with a Date for `user.createdAt`: see
  // auth/auth.serializer.ts.
  update: protectedProcedure
    .input(updateSettingsInput)
    .mutation(({ ctx, input }) => settings.updateSettings(ctx, input)),
  changePassword: protectedProcedure
    .input(changePasswordInput)
    .output(output(messageResult))
    .mutation(({ ctx, input }) => settings.changePassword(ctx, input)),
  /** Mails a code to the new address; the address changes at confirmEmailChange. */
  changeEmail: protectedProcedure
    .input(changeEmailInput)
    .output(output(emailChangeRequestResult))
    .mutation(({ ctx, input }) => settings.changeEmail(ctx, input)),
  confirmEmailChange: protectedProcedure
    .input(confirmEmailChangeInput)
    .mutation(({ ctx, input }) => settings.confirmEmailChange(ctx, input)),
});
