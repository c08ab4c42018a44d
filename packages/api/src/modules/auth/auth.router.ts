/**
 * The auth procedures: register, login, the current member, logout and the password reset. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (auth.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, protectedProcedure, publicProcedure } from '../../trpc.js';
import { sessionResult } from '../users/user.schema.js';
import {
  forgotPasswordInput,
  loginInput,
  messageResult,
  okResult,
  registerInput,
  resetPasswordInput,
} from './auth.schema.js';
import * as auth from './auth.service.js';
import * as reset from './password-reset.service.js';

export const authRouter = createTRPCRouter({
  register: publicProcedure
    .input(registerInput)
    .output(output(sessionResult))
    .mutation(({ ctx, input }) => auth.register(ctx, input)),
  login: publicProcedure
    .input(loginInput)
    .output(output(sessionResult))
    .mutation(({ ctx, input }) => auth.login(ctx, input)),
  me: protectedProcedure.output(output(sessionResult)).query(({ ctx }) => auth.me(ctx)),
  // The web app's question "who is here?": null for a visitor, where `me` answers 401 (which a
  // browser logs as an error on every visitor's page).
  session: publicProcedure.output(output(sessionResult.nullable())).query(({ ctx }) => auth.session(ctx)),
  logout: publicProcedure.output(output(okResult)).mutation(({ ctx }) => auth.logout(ctx)),
  forgotPassword: publicProcedure
    .input(forgotPasswordInput)
    .output(output(messageResult))
    .mutation(({ ctx, input }) => reset.forgotPassword(ctx, input)),
  resetPassword: publicProcedure
    .input(resetPasswordInput)
    .output(output(messageResult))
    .mutation(({ ctx, input }) => reset.resetPassword(ctx, input)),
});
