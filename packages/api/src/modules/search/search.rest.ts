/**
 * The search REST rows: each maps a method and path under /api to one of this module's procedures
 * (search.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const searchRest = [
  {
    method: 'GET',
    path: '/api/search',
    procedure: 'search.query',
    summary: 'Search users, posts and AI media; typos, accents and word endings are forgiven',
    query: ['q'],
  },
  {
    method: 'GET',
    path: '/api/search/suggestions',
    procedure: 'search.suggestions',
    summary: 'Users to follow, trending posts and popular media',
  },
] as const satisfies readonly RestRowOf<'search'>[];
