/**
 * The bookmarks procedures: bookmark a post, take it back, and list one's own bookmarks. Each
 * declares its input and its `.output()` schema once; the service holds the rules, and REST rows
 * (bookmark.rest.ts) reach them over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure, protectedProcedure } from '../../trpc.js';
import { postIdInput } from '../posts/post.schema.js';
import { bookmarkListInput, bookmarkPage, bookmarkResult } from './bookmark.schema.js';
import * as bookmarks from './bookmark.service.js';

export const bookmarksRouter = createTRPCRouter({
  /** POST /api/posts/:postId/bookmark → {bookmarked: true}. */
  add: limitedProcedure('react')
    .input(postIdInput)
    .output(output(bookmarkResult))
    .mutation(({ ctx, input }) => bookmarks.addBookmark(ctx, input.postId)),
  /** DELETE /api/posts/:postId/bookmark → {bookmarked: false}. */
  remove: limitedProcedure('react')
    .input(postIdInput)
    .output(output(bookmarkResult))
    .mutation(({ ctx, input }) => bookmarks.removeBookmark(ctx, input.postId)),
  /** GET /api/bookmarks: the caller's bookmarked posts, newest bookmark first. */
  list: protectedProcedure
    .input(bookmarkListInput)
    .output(output(bookmarkPage))
    .query(({ ctx, input }) => bookmarks.listBookmarks(ctx, input)),
});
