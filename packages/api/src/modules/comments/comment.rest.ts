/**
 * The comments REST rows: each maps a method and path under /api to one of this module's procedures
 * (comment.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const commentsRest = [
  {
    method: 'GET',
    path: '/api/posts/:id/comments',
    procedure: 'comments.list',
    summary: 'A post’s comments, oldest first',
    params: { id: 'postId' },
    query: ['cursor', 'limit'],
    paged: true,
  },
  {
    method: 'POST',
    path: '/api/posts/:id/comments',
    procedure: 'comments.create',
    summary: 'Comment on a post',
    auth: true,
    params: { id: 'postId' },
    body: ['content'],
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/api/comments/:id',
    procedure: 'comments.delete',
    summary: 'Delete your own comment, or any comment on your own post',
    auth: true,
    params: { id: 'commentId' },
  },
] as const satisfies readonly RestRowOf<'comments'>[];
