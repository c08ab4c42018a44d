import { output } from '../../output.js';
import { createTRPCRouter, protectedProcedure, publicProcedure } from '../../trpc.js';
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
  // register, login and me answer `sessionResult` (users/user.schema.ts) but with a Date for
  // `user.createdAt`: see auth.serializer.ts.
  register: publicProcedure.input(registerInput).mutation(({ ctx, input }) => auth.register(ctx, input)),
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => auth.login(ctx, input)),
  me: protectedProcedure.query(({ ctx }) => auth.me(ctx)),
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
