/**
 * The posts procedures: posts and the feed: write, edit, delete, like, pin, revisions, and the live stream of new posts. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (post.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { tracked } from '@trpc/server';
import { liveInput } from '../../events/live.schema.js';
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure, publicProcedure } from '../../trpc.js';
import { okResult } from '../auth/auth.schema.js';
import {
  createPostInput,
  editPostInput,
  feedInput,
  likeResult,
  pinResult,
  postIdInput,
  postPage,
  postResult,
  postRevisionsResult,
} from './post.schema.js';
import * as posts from './post.service.js';
import * as changes from './post-changes.service.js';
import * as pins from './post-pins.service.js';

export const postsRouter = createTRPCRouter({
  create: limitedProcedure('write')
    .input(createPostInput)
    .output(output(postResult))
    .mutation(({ ctx, input }) => posts.createPost(ctx, input)),
  feed: publicProcedure
    .input(feedInput)
    .output(output(postPage))
    .query(({ ctx, input }) => posts.feed(ctx, input)),
  byId: publicProcedure
    .input(postIdInput)
    .output(output(postResult))
    .query(({ ctx, input }) => posts.getPost(ctx, input.postId)),
  /** Your own post, with its likes, comments and notifications; 404 for anyone else's. */
  delete: limitedProcedure('write')
    .input(postIdInput)
    .output(output(okResult))
    .mutation(({ ctx, input }) => changes.deletePost(ctx, input.postId)),
  /** Your own post, in its first 15 minutes; the text it replaces is kept (revisions). */
  edit: limitedProcedure('write')
    .input(editPostInput)
    .output(output(postResult))
    .mutation(({ ctx, input }) => changes.editPost(ctx, input)),
  /** Your own post, to the top of your profile (at most 3); 404 for anyone else's. */
  pin: limitedProcedure('write')
    .input(postIdInput)
    .output(output(pinResult))
    .mutation(({ ctx, input }) => pins.pinPost(ctx, input.postId)),
  unpin: limitedProcedure('write')
    .input(postIdInput)
    .output(output(pinResult))
    .mutation(({ ctx, input }) => pins.unpinPost(ctx, input.postId)),
  revisions: publicProcedure
    .input(postIdInput)
    .output(output(postRevisionsResult))
    .query(({ ctx, input }) => changes.listRevisions(ctx, input.postId)),
  like: limitedProcedure('react')
    .input(postIdInput)
    .output(output(likeResult))
    .mutation(({ ctx, input }) => posts.likePost(ctx, input.postId)),
  unlike: limitedProcedure('react')
    .input(postIdInput)
    .output(output(likeResult))
    .mutation(({ ctx, input }) => posts.unlikePost(ctx, input.postId)),
  /** New posts as they are published (WebSocket); ids are post cursors for catching up. */
  onNew: publicProcedure.input(liveInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const { id, post } of posts.liveNewPosts(ctx, input.lastEventId, signal))
      yield tracked(id, post);
  }),
  /** Posts deleted or edited, and comments deleted, as it happens (WebSocket). */
  onChange: publicProcedure.subscription(async function* ({ ctx, signal }) {
    yield* changes.livePostChanges(ctx, signal);
  }),
});
