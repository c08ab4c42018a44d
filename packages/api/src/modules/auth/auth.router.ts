import { createTRPCRouter, protectedProcedure, publicProcedure } from '../../trpc.js';
import { forgotPasswordInput, loginInput, registerInput, resetPasswordInput } from './auth.schema.js';
import * as auth from './auth.service.js';
import * as reset from './password-reset.service.js';

export const authRouter = createTRPCRouter({
  register: publicProcedure.input(registerInput).mutation(({ ctx, input }) => auth.register(ctx, input)),
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => auth.login(ctx, input)),
  me: protectedProcedure.query(({ ctx }) => auth.me(ctx)),
  logout: publicProcedure.mutation(({ ctx }) => auth.logout(ctx)),
  forgotPassword: publicProcedure
    .input(forgotPasswordInput)
    .mutation(({ ctx, input }) => reset.forgotPassword(ctx, input)),
  resetPassword: publicProcedure
    .input(resetPasswordInput)
    .mutation(({ ctx, input }) => reset.resetPassword(ctx, input)),
});
