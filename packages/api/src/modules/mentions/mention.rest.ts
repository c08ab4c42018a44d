/**
 * The mentions REST rows: each maps a method and path under /api to one of this module's procedures
 * (mention.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const mentionsRest = [
  {
    method: 'GET',
    path: '/api/mentions/suggest',
    procedure: 'mentions.suggest',
    summary: 'Members to offer after @: usernames starting with q, members you follow first',
    auth: true,
    query: ['q', 'limit'],
  },
] as const satisfies readonly RestRowOf<'mentions'>[];
