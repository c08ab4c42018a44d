/**
 * The tags procedures: a tag's page (its posts and counts, live), trending tags, and the tags
 * Search finds. Each declares its input and its `.output()` schema once; the service holds the
 * rules, and REST rows (tag.rest.ts) reach them over HTTP.
 */
import { tracked } from '@trpc/server';
import { output } from '../../output.js';
import { createTRPCRouter, publicProcedure, searchProcedure } from '../../trpc.js';
import { postPage } from '../posts/post.schema.js';
import {
  tagInput,
  tagLiveInput,
  tagPostsInput,
  tagSearchInput,
  tagSearchResult,
  tagSummarySchema,
  trendingResult,
} from './tag.schema.js';
import * as tags from './tag.service.js';

export const tagsRouter = createTRPCRouter({
  /** GET /api/tags/:tag/posts: newest first, keyset-paged like the feed. */
  posts: publicProcedure
    .input(tagPostsInput)
    .output(output(postPage))
    .query(({ ctx, input }) => tags.tagPosts(ctx, input)),
  /** GET /api/tags/:tag: the tag folded, with its counts of posts and people. */
  summary: publicProcedure
    .input(tagInput)
    .output(output(tagSummarySchema))
    .query(({ ctx, input }) => tags.tagSummary(ctx, input.tag)),
  /** GET /api/tags/trending: the last 24 hours' tags by distinct people, at most 10. */
  trending: publicProcedure.output(output(trendingResult)).query(({ ctx }) => tags.trending(ctx)),
  /** GET /api/tags/search?q=: the tags starting with q (`#` optional), most people first, at most 5. */
  search: searchProcedure
    .input(tagSearchInput)
    .output(output(tagSearchResult))
    .query(({ ctx, input }) => tags.searchTags(ctx, input)),
  /** New posts with the tag as they are published (WebSocket). */
  onNew: publicProcedure.input(tagLiveInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const { id, postId } of tags.liveTagPosts(ctx, input.tag, signal))
      yield tracked(id, { postId });
  }),
});
