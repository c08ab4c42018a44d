import { createTRPCRouter, limitedProcedure, publicProcedure } from '../../trpc.js';
import { createPostInput, feedInput, postIdInput } from './post.schema.js';
import * as posts from './post.service.js';

export const postsRouter = createTRPCRouter({
  create: limitedProcedure('write')
    .input(createPostInput)
    .mutation(({ ctx, input }) => posts.createPost(ctx, input)),
  feed: publicProcedure.input(feedInput).query(({ ctx, input }) => posts.feed(ctx, input)),
  byId: publicProcedure.input(postIdInput).query(({ ctx, input }) => posts.getPost(ctx, input.postId)),
  like: limitedProcedure('react')
    .input(postIdInput)
    .mutation(({ ctx, input }) => posts.likePost(ctx, input.postId)),
  unlike: limitedProcedure('react')
    .input(postIdInput)
    .mutation(({ ctx, input }) => posts.unlikePost(ctx, input.postId)),
});
