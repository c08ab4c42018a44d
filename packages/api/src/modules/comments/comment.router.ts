import { createTRPCRouter, limitedProcedure, publicProcedure } from '../../trpc.js';
import { commentIdInput, createCommentInput, listCommentsInput } from './comment.schema.js';
import * as comments from './comment.service.js';

export const commentsRouter = createTRPCRouter({
  list: publicProcedure.input(listCommentsInput).query(({ ctx, input }) => comments.listComments(ctx, input)),
  create: limitedProcedure('write')
    .input(createCommentInput)
    .mutation(({ ctx, input }) => comments.createComment(ctx, input)),
  delete: limitedProcedure('write')
    .input(commentIdInput)
    .mutation(({ ctx, input }) => comments.deleteComment(ctx, input)),
});
