/**
 * The settings procedures: the settings page: profile fields, password, e-mail change. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (settings.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, protectedProcedure } from '../../trpc.js';
import { messageResult } from '../auth/auth.schema.js';
import { userResult } from '../users/user.schema.js';
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
  update: protectedProcedure
    .input(updateSettingsInput)
    .output(output(userResult))
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
    .output(output(userResult))
    .mutation(({ ctx, input }) => settings.confirmEmailChange(ctx, input)),
});
