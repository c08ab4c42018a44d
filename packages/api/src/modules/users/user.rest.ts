/**
 * The users REST rows: each maps a method and path under /api to one of this module's procedures
 * (user.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const usersRest = [
  {
    method: 'GET',
    path: '/api/users/by-username/:username',
    procedure: 'users.byUsername',
    summary: 'A profile: the user, their counts and whether the caller follows them',
    params: { username: 'username' },
  },
  {
    method: 'GET',
    path: '/api/users/:id/stats',
    procedure: 'users.stats',
    summary: 'A user’s follower, following and post counts',
    params: { id: 'userId' },
  },
  {
    method: 'GET',
    path: '/api/users/:id/posts',
    procedure: 'users.posts',
    summary: 'A user’s posts, newest first',
    params: { id: 'userId' },
    query: ['cursor', 'limit'],
    paged: true,
  },
  {
    method: 'GET',
    path: '/api/users/suggestions',
    procedure: 'users.suggestions',
    summary:
      'Who to follow: members followed by people you follow, then members who posted lately; never you, whom you follow, anyone blocked either way, muted or suspended',
    query: ['limit'],
  },
  {
    method: 'PUT',
    path: '/api/users/profile-image',
    procedure: 'users.setProfileImage',
    summary: 'Make one of the caller’s public uploads their avatar',
    auth: true,
    body: true,
    errors: [404],
  },
  {
    method: 'PUT',
    path: '/api/users/banner-image',
    procedure: 'users.setBannerImage',
    summary: 'Make one of the caller’s public uploads their profile banner',
    auth: true,
    body: true,
    errors: [404],
  },
] as const satisfies readonly RestRowOf<'users'>[];
