/**
 * Errors carry the stable reason of their message (@cubes/api/error-reasons) beside the English
 * message, unchanged: `reason` in the REST body, top level and per issue, and `data.reason` in
 * tRPC's error shape. (Every error the fuzz and contract tests meet is checked for the right
 * reason by error-shape.ts.)
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { call, UNKNOWN_ID } from './harness.js';

describe('error reasons', () => {
  it('answers a known REST error with its reason and its English message', async ({ t }) => {
    const res = await call(t, 'GET', `/api/posts/${UNKNOWN_ID}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Post not found', code: 'NOT_FOUND', reason: 'POST_NOT_FOUND' });
    const anonymous = await call(t, 'GET', '/api/auth/me');
    expect(anonymous.json()).toEqual({
      message: 'You need to be logged in',
      code: 'UNAUTHORIZED',
      reason: 'LOGIN_REQUIRED',
    });
  });

  it('gives every validation issue its reason, the first one at the top', async ({ t }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'ok_name', email: 'not-an-email', password: '123', displayName: 'Ok' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Enter a valid email address', reason: 'EMAIL_INVALID' },
        { path: 'password', message: 'Must be at least 6 characters', reason: 'PASSWORD_TOO_SHORT' },
      ]),
    );
    expect(body.reason).toBe(body.issues[0].reason);
    expect(body.message).toBe(body.issues[0].message);
  });

  it("puts the reason in tRPC's error data, with the same message", async ({ t }) => {
    const input = encodeURIComponent(JSON.stringify({ json: { postId: UNKNOWN_ID } }));
    const res = await t.app.inject({ method: 'GET', url: `/trpc/posts.byId?input=${input}` });
    expect(res.statusCode).toBe(404);
    const shape = res.json().error.json;
    expect(shape.message).toBe('Post not found');
    expect(shape.data).toMatchObject({ code: 'NOT_FOUND', reason: 'POST_NOT_FOUND' });
  });

  it('leaves the reason out when a message varies per request', async ({ t }) => {
    const res = await call(t, 'GET', '/api/no-such-path');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Unknown API path: GET /api/no-such-path', code: 'NOT_FOUND' });
  });
});
