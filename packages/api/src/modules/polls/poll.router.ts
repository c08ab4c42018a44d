/**
 * The polls procedures: a vote. A poll is written with its post (posts.create's `poll`) and read
 * with it (every post answer's `poll`). The service holds the rules; a REST row (poll.rest.ts)
 * reaches it over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure } from '../../trpc.js';
import { voteInput, voteResult } from './poll.schema.js';
import * as polls from './poll.service.js';

export const pollsRouter = createTRPCRouter({
  /** POST /api/posts/:id/poll/votes {choices} → {poll}, with the results the voter now sees. */
  vote: limitedProcedure('react')
    .input(voteInput)
    .output(output(voteResult))
    .mutation(({ ctx, input }) => polls.vote(ctx, input)),
});
