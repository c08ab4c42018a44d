import { createTRPCRouter, limitedProcedure, publicProcedure } from '../../trpc.js';
import * as follows from '../follows/follow.service.js';
import { byUsernameInput, userIdInput, userPostsInput } from './user.schema.js';
import * as users from './user.service.js';

export const usersRouter = createTRPCRouter({
  byUsername: publicProcedure
    .input(byUsernameInput)
    .query(({ ctx, input }) => users.getProfile(ctx, input.username)),
  stats: publicProcedure.input(userIdInput).query(({ ctx, input }) => users.getStats(ctx, input.userId)),
  posts: publicProcedure.input(userPostsInput).query(({ ctx, input }) => users.listUserPosts(ctx, input)),
  follow: limitedProcedure('react')
    .input(userIdInput)
    .mutation(({ ctx, input }) => follows.follow(ctx, input.userId)),
  unfollow: limitedProcedure('react')
    .input(userIdInput)
    .mutation(({ ctx, input }) => follows.unfollow(ctx, input.userId)),
});
