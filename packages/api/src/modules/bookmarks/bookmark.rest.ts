/**
 * The bookmarks REST rows: each maps a method and path under /api to one of this module's procedures
 * (bookmark.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const bookmarksRest = [
  {
    method: 'POST',
    path: '/api/posts/:id/bookmark',
    procedure: 'bookmarks.add',
    summary: 'Bookmark a post (idempotent); bookmarks are private and nobody is notified',
    auth: true,
    params: { id: 'postId' },
  },
  {
    method: 'DELETE',
    path: '/api/posts/:id/bookmark',
    procedure: 'bookmarks.remove',
    summary: 'Take a bookmark back (idempotent)',
    auth: true,
    params: { id: 'postId' },
  },
  {
    method: 'GET',
    path: '/api/bookmarks',
    procedure: 'bookmarks.list',
    summary: 'Your bookmarked posts, newest bookmark first; posts hidden from you since are left out',
    auth: true,
    query: ['cursor', 'limit'],
    paged: true,
  },
] as const satisfies readonly RestRowOf<'bookmarks'>[];
