/**
 * The reposts REST rows: each maps a method and path under /api to one of this module's
 * procedures (repost.router.ts); src/rest.ts collects them. docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const repostsRest = [
  {
    method: 'POST',
    path: '/api/posts/:id/repost',
    procedure: 'reposts.add',
    summary:
      "Repost a post to your followers' Following feeds (idempotent); its author is told. 404 for a post hidden from you",
    auth: true,
    params: { id: 'postId' },
  },
  {
    method: 'DELETE',
    path: '/api/posts/:id/repost',
    procedure: 'reposts.remove',
    summary: 'Take a repost back (idempotent)',
    auth: true,
    params: { id: 'postId' },
  },
] as const satisfies readonly RestRowOf<'reposts'>[];
