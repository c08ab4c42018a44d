import { tracked } from '@trpc/server';
import { liveInput } from '../../events/live.schema.js';
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
  /** New posts as they are published (WebSocket); ids are post cursors for catching up. */
  onNew: publicProcedure.input(liveInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const { id, post } of posts.liveNewPosts(ctx, input.lastEventId, signal))
      yield tracked(id, post);
  }),
});
