/**
 * The tags REST rows: each maps a method and path under /api to one of this module's procedures
 * (tag.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const tagsRest = [
  {
    method: 'GET',
    path: '/api/tags/trending',
    procedure: 'tags.trending',
    summary:
      'Trending tags: those used by the most distinct people in the last 24 hours, at most 10, with their counts (without what the caller blocks or mutes)',
  },
  {
    method: 'GET',
    path: '/api/tags/search',
    procedure: 'tags.search',
    summary:
      'Tags starting with q (with or without #, case-insensitive), most people first, at most 5, with their counts',
    query: ['q'],
  },
  {
    method: 'GET',
    path: '/api/tags/:tag',
    procedure: 'tags.summary',
    summary: 'A tag (folded), with how many posts carry it and how many people wrote them',
    params: { tag: 'tag' },
  },
  {
    method: 'GET',
    path: '/api/tags/:tag/posts',
    procedure: 'tags.posts',
    summary: 'The posts carrying a tag, newest first, keyset-paged like the feed',
    params: { tag: 'tag' },
    query: ['cursor', 'limit'],
    paged: true,
  },
] as const satisfies readonly RestRowOf<'tags'>[];
