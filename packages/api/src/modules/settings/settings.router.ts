import { createTRPCRouter, protectedProcedure } from '../../trpc.js';
import {
  changeEmailInput,
  changePasswordInput,
  confirmEmailChangeInput,
  updateSettingsInput,
} from './settings.schema.js';
import * as settings from './settings.service.js';

export const settingsRouter = createTRPCRouter({
  get: protectedProcedure.query(({ ctx }) => settings.getSettings(ctx)),
  update: protectedProcedure
    .input(updateSettingsInput)
    .mutation(({ ctx, input }) => settings.updateSettings(ctx, input)),
  changePassword: protectedProcedure
    .input(changePasswordInput)
    .mutation(({ ctx, input }) => settings.changePassword(ctx, input)),
  /** Mails a code to the new address; the address changes at confirmEmailChange. */
  changeEmail: protectedProcedure
    .input(changeEmailInput)
    .mutation(({ ctx, input }) => settings.changeEmail(ctx, input)),
  confirmEmailChange: protectedProcedure
    .input(confirmEmailChangeInput)
    .mutation(({ ctx, input }) => settings.confirmEmailChange(ctx, input)),
});
