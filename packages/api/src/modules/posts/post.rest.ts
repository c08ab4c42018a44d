/**
 * The posts REST rows: each maps a method and path under /api to one of this module's procedures
 * (post.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const postsRest = [
  {
    method: 'POST',
    path: '/api/posts',
    procedure: 'posts.create',
    summary: 'Write a post',
    auth: true,
    body: true,
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/posts/feed',
    procedure: 'posts.feed',
    summary:
      'The feed, newest first: everyone’s posts, or (scope=following) those of people you follow and your own',
    query: ['cursor', 'limit', 'scope'],
    errors: [401],
    paged: true,
  },
  {
    method: 'GET',
    path: '/api/posts/:id',
    procedure: 'posts.byId',
    summary:
      "One post in the feed's shape (its permalink's data); 404, with the unknown id's body, for a post that is deleted, removed, by a suspended member or hidden from you by a block",
    params: { id: 'postId' },
  },
  {
    method: 'POST',
    path: '/api/posts/:id/like',
    procedure: 'posts.like',
    summary: 'Like a post (idempotent)',
    auth: true,
    params: { id: 'postId' },
  },
  {
    method: 'DELETE',
    path: '/api/posts/:id/like',
    procedure: 'posts.unlike',
    summary: 'Take a like back (idempotent)',
    auth: true,
    params: { id: 'postId' },
  },
  {
    method: 'PATCH',
    path: '/api/posts/:id',
    procedure: 'posts.edit',
    summary:
      "Edit your own post in its first 15 minutes (403 after); the replaced text is kept; `alts` rewrites its images' descriptions, `sensitive` their sensitive flags, and `contentWarning` its content warning (null or empty removes it)",
    auth: true,
    params: { id: 'postId' },
    body: ['content', 'alts', 'sensitive', 'contentWarning'],
  },
  {
    method: 'DELETE',
    path: '/api/posts/:id',
    procedure: 'posts.delete',
    summary: 'Delete your own post with its likes, comments and notifications',
    auth: true,
    params: { id: 'postId' },
  },
  {
    method: 'POST',
    path: '/api/posts/:id/pin',
    procedure: 'posts.pin',
    summary:
      'Pin your own post to the top of your profile’s Posts tab (idempotent); 409 past 3 pinned, 404 for anyone else’s',
    auth: true,
    params: { id: 'postId' },
    errors: [409],
  },
  {
    method: 'DELETE',
    path: '/api/posts/:id/pin',
    procedure: 'posts.unpin',
    summary: 'Unpin your own post (idempotent)',
    auth: true,
    params: { id: 'postId' },
  },
  {
    method: 'GET',
    path: '/api/posts/:id/revisions',
    procedure: 'posts.revisions',
    summary: 'The versions an edited post replaced, newest first',
    params: { id: 'postId' },
  },
] as const satisfies readonly RestRowOf<'posts'>[];
