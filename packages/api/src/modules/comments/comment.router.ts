/**
 * The comments procedures: a post's comments: list, write, delete. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (comment.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure, publicProcedure } from '../../trpc.js';
import { okResult } from '../auth/auth.schema.js';
import {
  commentIdInput,
  commentPage,
  commentSchema,
  createCommentInput,
  listCommentsInput,
} from './comment.schema.js';
import * as comments from './comment.service.js';

export const commentsRouter = createTRPCRouter({
  list: publicProcedure
    .input(listCommentsInput)
    .output(output(commentPage))
    .query(({ ctx, input }) => comments.listComments(ctx, input)),
  create: limitedProcedure('write')
    .input(createCommentInput)
    .output(output(commentSchema))
    .mutation(({ ctx, input }) => comments.createComment(ctx, input)),
  delete: limitedProcedure('write')
    .input(commentIdInput)
    .output(output(okResult))
    .mutation(({ ctx, input }) => comments.deleteComment(ctx, input)),
});
