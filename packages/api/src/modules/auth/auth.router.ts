import { createTRPCRouter, protectedProcedure, publicProcedure } from '../../trpc.js';
import { loginInput, registerInput } from './auth.schema.js';
import * as auth from './auth.service.js';

export const authRouter = createTRPCRouter({
  register: publicProcedure.input(registerInput).mutation(({ ctx, input }) => auth.register(ctx, input)),
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => auth.login(ctx, input)),
  me: protectedProcedure.query(({ ctx }) => auth.me(ctx)),
  logout: publicProcedure.mutation(({ ctx }) => auth.logout(ctx)),
});
