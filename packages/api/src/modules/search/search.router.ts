import { createTRPCRouter, publicProcedure } from '../../trpc.js';
import { searchInput } from './search.schema.js';
import * as searchService from './search.service.js';

export const searchRouter = createTRPCRouter({
  /** GET /api/search?q= → {users, posts, aiMedia}; an empty query gives empty lists. */
  query: publicProcedure.input(searchInput).query(({ ctx, input }) => searchService.search(ctx, input)),
  /** GET /api/search/suggestions → the same shape: users to follow, trending posts, popular media. */
  suggestions: publicProcedure.query(({ ctx }) => searchService.suggestions(ctx)),
});
