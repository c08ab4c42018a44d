/**
 * Reports over REST (POST /api/reports, checked against the OpenAPI document like every /api
 * answer here) and the moderators' procedures over /trpc: 404 to everyone but moderators, and a
 * removal that the REST reads then no longer show.
 */
import { setRole } from '@cubes/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, newUserInput, registerUser, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function report(cookie: string | undefined, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/reports',
    headers: cookie ? { cookie } : {},
    payload: payload as object,
  });
}

async function trpc(cookie: string, path: string, input: unknown, method: 'GET' | 'POST' = 'POST') {
  return method === 'GET'
    ? t.app.inject({
        method,
        url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
        headers: { cookie },
      })
    : t.app.inject({ method, url: `/trpc/${path}`, headers: { cookie }, payload: { json: input } });
}

describe('POST /api/reports', () => {
  it('201 {id}; 409 on a repeat; 404 unknown; 400 with the field; 401 logged out', async () => {
    const author = await registerUser(t.app);
    const reporter = await registerUser(t.app);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie: author.cookie },
      payload: { content: 'reported over REST' },
    });
    const postId = made.json().post.id as string;

    const first = await report(reporter.cookie, { targetType: 'post', targetId: postId, reason: 'Spam' });
    expect(first.statusCode, first.body).toBe(201);
    expect(Object.keys(first.json())).toEqual(['id']);

    const again = await report(reporter.cookie, { targetType: 'post', targetId: postId, reason: 'Spam!' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'You have already reported this', code: 'CONFLICT' });

    const unknown = await report(reporter.cookie, {
      targetType: 'user',
      targetId: '00000000-0000-4000-8000-000000000000',
      reason: 'x',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('NOT_FOUND');

    const long = await report(reporter.cookie, {
      targetType: 'post',
      targetId: postId,
      reason: 'x'.repeat(1_001),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'reason' }] });
    // A body far over what any row takes is refused before it is parsed.
    const huge = await report(reporter.cookie, {
      targetType: 'post',
      targetId: postId,
      reason: 'x'.repeat(70_000),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('PAYLOAD_TOO_LARGE');

    const wrongType = await report(reporter.cookie, { targetType: 'post', targetId: 42, reason: 'x' });
    expect(wrongType.statusCode).toBe(400);

    expect((await report(undefined, { targetType: 'post', targetId: postId, reason: 'x' })).statusCode).toBe(
      401,
    );
  });
});

describe('/trpc moderation', () => {
  it('is 404 for members; a moderator removes a reported post and suspends its author', async () => {
    const authorInput = newUserInput();
    const author = await registerUser(t.app, authorInput);
    const reporter = await registerUser(t.app);
    const mod = await registerUser(t.app);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie: author.cookie },
      payload: { content: 'to be removed' },
    });
    const postId = made.json().post.id as string;
    const { id: reportId } = (
      await report(reporter.cookie, { targetType: 'post', targetId: postId, reason: 'Offensive' })
    ).json();

    const denied = await trpc(mod.cookie, 'moderation.reports', {}, 'GET');
    expect(denied.statusCode).toBe(404);
    expect(denied.json().error.json.message).toBe('Not found');

    const me = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: mod.cookie } })).json();
    expect((await me()).isModerator).toBe(false);

    await setRole(t.orm.em.fork(), mod.user.username, 'moderator');
    expect((await me()).isModerator).toBe(true);
    const modLogin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: mod.input.email, password: mod.input.password },
    });
    expect(modLogin.json()).toMatchObject({ user: { id: mod.user.id }, isModerator: true });
    const queue = await trpc(mod.cookie, 'moderation.reports', {}, 'GET');
    expect(queue.statusCode).toBe(200);
    expect(queue.json().result.data.json.items.map((r: { id: string }) => r.id)).toContain(reportId);

    const removed = await trpc(mod.cookie, 'moderation.remove', { reportId, reason: 'Offensive' });
    expect(removed.statusCode, removed.body).toBe(200);
    const feed = await t.app.inject({ method: 'GET', url: '/api/posts/feed?limit=50' });
    expect(feed.json().map((p: { id: string }) => p.id)).not.toContain(postId);
    const comments = await t.app.inject({ method: 'GET', url: `/api/posts/${postId}/comments` });
    expect(comments.statusCode).toBe(404);

    const suspended = await trpc(mod.cookie, 'moderation.suspend', {
      userId: author.user.id,
      days: 3,
      reason: 'Repeated abuse',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: author.cookie } }))
        .statusCode,
    ).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: authorInput.email, password: authorInput.password },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual({
      message: expect.stringMatching(/^This account is suspended until \d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
      code: 'FORBIDDEN',
    });
  });
});
