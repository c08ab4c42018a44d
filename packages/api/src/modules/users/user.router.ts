import { createTRPCRouter, protectedProcedure, publicProcedure } from '../../trpc.js';
import { objectPathInput } from '../objects/objects.schema.js';
import { byUsernameInput, userIdInput, userPostsInput } from './user.schema.js';
import * as users from './user.service.js';

export const usersRouter = createTRPCRouter({
  byUsername: publicProcedure
    .input(byUsernameInput)
    .query(({ ctx, input }) => users.getProfile(ctx, input.username)),
  stats: publicProcedure.input(userIdInput).query(({ ctx, input }) => users.getStats(ctx, input.userId)),
  posts: publicProcedure.input(userPostsInput).query(({ ctx, input }) => users.listUserPosts(ctx, input)),
  /** PUT /api/users/profile-image {objectPath} → {user}: the caller's own public upload. */
  setProfileImage: protectedProcedure
    .input(objectPathInput)
    .mutation(({ ctx, input }) => users.setProfileImage(ctx, 'avatarUrl', input.objectPath)),
  /** PUT /api/users/banner-image {objectPath} → {user}. */
  setBannerImage: protectedProcedure
    .input(objectPathInput)
    .mutation(({ ctx, input }) => users.setProfileImage(ctx, 'headerUrl', input.objectPath)),
});
