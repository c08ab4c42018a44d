/** The reposts procedures. Each declares its input and its `.output()` schema once; no logic. */
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure } from '../../trpc.js';
import { postIdInput } from '../posts/post.schema.js';
import { repostResult } from './repost.schema.js';
import * as reposts from './repost.service.js';

export const repostsRouter = createTRPCRouter({
  /** POST /api/posts/:postId/repost → {reposted: true, repostsCount}. */
  add: limitedProcedure('react')
    .input(postIdInput)
    .output(output(repostResult))
    .mutation(({ ctx, input }) => reposts.repostPost(ctx, input.postId)),
  /** DELETE /api/posts/:postId/repost → {reposted: false, repostsCount}. */
  remove: limitedProcedure('react')
    .input(postIdInput)
    .output(output(repostResult))
    .mutation(({ ctx, input }) => reposts.unrepostPost(ctx, input.postId)),
});
