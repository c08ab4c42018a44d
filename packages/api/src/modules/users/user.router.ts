/**
 * The users procedures: profiles: a member by username, their stats and posts, and setting the profile and banner images. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (user.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, protectedProcedure, publicProcedure } from '../../trpc.js';
import { objectPathInput } from '../objects/objects.schema.js';
import { postPage } from '../posts/post.schema.js';
import { suggestionsInput, suggestionsResult } from './suggestion.schema.js';
import * as suggestions from './suggestion.service.js';
import {
  byUsernameInput,
  userIdInput,
  userPostsInput,
  userProfileSchema,
  userResult,
  userStatsSchema,
} from './user.schema.js';
import * as users from './user.service.js';

export const usersRouter = createTRPCRouter({
  /** GET /api/users/suggestions: who to follow (the side column, Search's "Suggested for you"). */
  suggestions: publicProcedure
    .input(suggestionsInput)
    .output(output(suggestionsResult))
    .query(({ ctx, input }) => suggestions.suggestions(ctx, input)),
  byUsername: publicProcedure
    .input(byUsernameInput)
    .output(output(userProfileSchema))
    .query(({ ctx, input }) => users.getProfile(ctx, input.username)),
  stats: publicProcedure
    .input(userIdInput)
    .output(output(userStatsSchema))
    .query(({ ctx, input }) => users.getStats(ctx, input.userId)),
  posts: publicProcedure
    .input(userPostsInput)
    .output(output(postPage))
    .query(({ ctx, input }) => users.listUserPosts(ctx, input)),
  /** PUT /api/users/profile-image {objectPath} → {user}: the caller's own public upload. */
  setProfileImage: protectedProcedure
    .input(objectPathInput)
    .output(output(userResult))
    .mutation(({ ctx, input }) => users.setProfileImage(ctx, 'avatarUrl', input.objectPath)),
  /** PUT /api/users/banner-image {objectPath} → {user}. */
  setBannerImage: protectedProcedure
    .input(objectPathInput)
    .output(output(userResult))
    .mutation(({ ctx, input }) => users.setProfileImage(ctx, 'headerUrl', input.objectPath)),
});
