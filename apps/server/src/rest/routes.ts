/** DESIGN.md's REST contract: one row per path, each naming the procedure it calls. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RestRoute } from './adapter.js';

function param(req: FastifyRequest, name: string): string | undefined {
  return (req.params as Record<string, string | undefined>)[name];
}

/** ?cursor&limit → the page input; a limit that is not a number fails the procedure's validation. */
function pageQuery(req: FastifyRequest) {
  const { cursor, limit } = req.query as Record<string, unknown>;
  return { cursor, limit: limit === undefined ? undefined : Number(limit) };
}

/** A page is the plain array; the next cursor travels in X-Next-Cursor. */
function pageBody<T>(result: { items: T[]; nextCursor: string | null }, reply: FastifyReply) {
  if (result.nextCursor) reply.header('x-next-cursor', result.nextCursor);
  return result.items;
}

function bodyField(req: FastifyRequest, name: string): unknown {
  const body = req.body as Record<string, unknown> | null | undefined;
  return body && typeof body === 'object' ? body[name] : undefined;
}

export const restRoutes = [
  { method: 'POST', path: '/api/auth/register', procedure: 'auth.register', status: 201 },
  { method: 'POST', path: '/api/auth/login', procedure: 'auth.login' },
  { method: 'GET', path: '/api/auth/me', procedure: 'auth.me' },
  { method: 'POST', path: '/api/auth/logout', procedure: 'auth.logout' },
  { method: 'POST', path: '/api/auth/forgot-password', procedure: 'auth.forgotPassword' },
  { method: 'POST', path: '/api/auth/reset-password', procedure: 'auth.resetPassword' },

  { method: 'GET', path: '/api/settings', procedure: 'settings.get' },
  { method: 'PUT', path: '/api/settings', procedure: 'settings.update' },
  { method: 'POST', path: '/api/settings/password', procedure: 'settings.changePassword' },
  { method: 'POST', path: '/api/settings/email', procedure: 'settings.changeEmail' },

  { method: 'POST', path: '/api/posts', procedure: 'posts.create', status: 201 },
  { method: 'GET', path: '/api/posts/feed', procedure: 'posts.feed', input: pageQuery, output: pageBody },
  {
    method: 'POST',
    path: '/api/posts/:id/like',
    procedure: 'posts.like',
    input: (req) => ({ postId: param(req, 'id') }),
  },
  {
    method: 'DELETE',
    path: '/api/posts/:id/like',
    procedure: 'posts.unlike',
    input: (req) => ({ postId: param(req, 'id') }),
  },
  {
    method: 'GET',
    path: '/api/posts/:id/comments',
    procedure: 'comments.list',
    input: (req) => ({ postId: param(req, 'id'), ...pageQuery(req) }),
    output: pageBody,
  },
  {
    method: 'POST',
    path: '/api/posts/:id/comments',
    procedure: 'comments.create',
    status: 201,
    input: (req) => ({ postId: param(req, 'id'), content: bodyField(req, 'content') }),
  },

  {
    method: 'GET',
    path: '/api/users/by-username/:username',
    procedure: 'users.byUsername',
    input: (req) => ({ username: param(req, 'username') }),
  },
  {
    method: 'GET',
    path: '/api/users/:id/stats',
    procedure: 'users.stats',
    input: (req) => ({ userId: param(req, 'id') }),
  },
  {
    method: 'GET',
    path: '/api/users/:id/posts',
    procedure: 'users.posts',
    input: (req) => ({ ...pageQuery(req), userId: param(req, 'id') }),
    output: pageBody,
  },
  {
    method: 'POST',
    path: '/api/users/:id/follow',
    procedure: 'follows.follow',
    input: (req) => ({ userId: param(req, 'id') }),
  },
  {
    method: 'DELETE',
    path: '/api/users/:id/follow',
    procedure: 'follows.unfollow',
    input: (req) => ({ userId: param(req, 'id') }),
  },

  { method: 'PUT', path: '/api/users/profile-image', procedure: 'users.setProfileImage' },
  { method: 'PUT', path: '/api/users/banner-image', procedure: 'users.setBannerImage' },

  { method: 'POST', path: '/api/objects/upload', procedure: 'objects.createUploadUrl' },
  { method: 'PUT', path: '/api/objects/set-acl', procedure: 'objects.setAcl' },

  { method: 'GET', path: '/api/notifications', procedure: 'notifications.list' },
  { method: 'GET', path: '/api/notifications/unread-count', procedure: 'notifications.unreadCount' },
  { method: 'POST', path: '/api/notifications/mark-all-read', procedure: 'notifications.markAllRead' },

  {
    method: 'GET',
    path: '/api/health',
    procedure: 'health.check',
    output: (result: { ok: boolean; db: boolean }, reply) => {
      if (!result.ok) reply.status(503);
      return result;
    },
  },
] as const satisfies readonly RestRoute[];
