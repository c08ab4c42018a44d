/**
 * The auth REST rows: each maps a method and path under /api to one of this module's procedures
 * (auth.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const authRest = [
  {
    method: 'POST',
    path: '/api/auth/register',
    procedure: 'auth.register',
    summary: 'Create an account and log in (sets the session cookie)',
    body: true,
    status: 201,
    errors: [409],
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    procedure: 'auth.login',
    summary: 'Log in (sets the session cookie)',
    body: true,
    errors: [401, 403],
  },
  {
    method: 'GET',
    path: '/api/auth/me',
    procedure: 'auth.me',
    summary: 'The logged-in user',
    auth: true,
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    procedure: 'auth.logout',
    summary: 'Log out: deletes the session and clears the cookie',
  },
  {
    method: 'POST',
    path: '/api/auth/forgot-password',
    procedure: 'auth.forgotPassword',
    summary: 'Send a 6-digit reset code by mail; the same answer whether or not the account exists',
    body: true,
  },
  {
    method: 'POST',
    path: '/api/auth/reset-password',
    procedure: 'auth.resetPassword',
    summary: 'Set a new password with a reset code; logs out every session of the account',
    body: true,
  },
] as const satisfies readonly RestRowOf<'auth'>[];
