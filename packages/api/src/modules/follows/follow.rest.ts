/**
 * The follows REST rows: each maps a method and path under /api to one of this module's procedures
 * (follow.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const followsRest = [
  {
    method: 'POST',
    path: '/api/users/:id/follow',
    procedure: 'follows.follow',
    summary: 'Follow a user (idempotent)',
    auth: true,
    params: { id: 'userId' },
  },
  {
    method: 'DELETE',
    path: '/api/users/:id/follow',
    procedure: 'follows.unfollow',
    summary: 'Stop following a user (idempotent)',
    auth: true,
    params: { id: 'userId' },
  },
  {
    method: 'GET',
    path: '/api/users/:id/followers',
    procedure: 'follows.followers',
    summary:
      'Who follows a user, most recent first, each with whether you follow them; leaves out anyone blocked either way with you or suspended (404 for a user hidden from you, as their stats)',
    params: { id: 'userId' },
    query: ['cursor', 'limit'],
    paged: true,
  },
  {
    method: 'GET',
    path: '/api/users/:id/following',
    procedure: 'follows.following',
    summary:
      'Whom a user follows, most recent first, each with whether you follow them; leaves out anyone blocked either way with you or suspended (404 for a user hidden from you, as their stats)',
    params: { id: 'userId' },
    query: ['cursor', 'limit'],
    paged: true,
  },
] as const satisfies readonly RestRowOf<'follows'>[];
