import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure } from '../../trpc.js';
import { followInput, followResult } from './follow.schema.js';
import * as follows from './follow.service.js';

export const followsRouter = createTRPCRouter({
  /** POST /api/users/:id/follow → {following: true, followersCount}. */
  follow: limitedProcedure('react')
    .input(followInput)
    .output(output(followResult))
    .mutation(({ ctx, input }) => follows.follow(ctx, input.userId)),
  /** DELETE /api/users/:id/follow → {following: false, followersCount}. */
  unfollow: limitedProcedure('react')
    .input(followInput)
    .output(output(followResult))
    .mutation(({ ctx, input }) => follows.unfollow(ctx, input.userId)),
});
