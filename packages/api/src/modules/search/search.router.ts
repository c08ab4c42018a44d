/**
 * The search procedures: search and the suggestions under the search box. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (search.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, searchProcedure } from '../../trpc.js';
import { searchInput, searchResult } from './search.schema.js';
import * as searchService from './search.service.js';

// Search costs far more than a plain read: searchProcedure counts it in the `search` bucket.
export const searchRouter = createTRPCRouter({
  /** GET /api/search?q= → {users, posts, aiMedia}; an empty query gives empty lists. */
  query: searchProcedure
    .input(searchInput)
    .output(output(searchResult))
    .query(({ ctx, input }) => searchService.search(ctx, input)),
  /** GET /api/search/suggestions → the same shape: users to follow, trending posts, popular media. */
  suggestions: searchProcedure
    .output(output(searchResult))
    .query(({ ctx }) => searchService.suggestions(ctx)),
});
