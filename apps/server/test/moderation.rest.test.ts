/**
 * Reports over REST (POST /api/reports, checked against the OpenAPI document like every /api
 * answer here) and the moderators' procedures over /trpc: 404 to everyone but moderators, and a
 * removal that the REST reads then no longer show.
 */
import { randomUUID } from 'node:crypto';
import { setRole } from '@cubes/api';
import { afterAll, describe, expect, vi } from 'vitest';
import { it } from './fixtures.js';
import { newUserInput, registerUser, type TestApp } from './harness.js';

afterAll(async () => {
  vi.useRealTimers();
});

async function report(t: TestApp, cookie: string | undefined, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/reports',
    headers: cookie ? { cookie } : {},
    payload: payload as object,
  });
}

async function trpc(
  t: TestApp,
  cookie: string,
  path: string,
  input: unknown,
  method: 'GET' | 'POST' = 'POST',
) {
  return method === 'GET'
    ? t.app.inject({
        method,
        url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
        headers: { cookie },
      })
    : t.app.inject({ method, url: `/trpc/${path}`, headers: { cookie }, payload: { json: input } });
}

describe('POST /api/reports', () => {
  it('201 {id}; 409 on a repeat; 404 unknown; 400 with the field; 401 logged out', async ({ t }) => {
    const author = await registerUser(t.app);
    const reporter = await registerUser(t.app);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie: author.cookie },
      payload: { content: 'reported over REST' },
    });
    const postId = made.json().post.id as string;

    const first = await report(t, reporter.cookie, { targetType: 'post', targetId: postId, reason: 'Spam' });
    expect(first.statusCode, first.body).toBe(201);
    expect(Object.keys(first.json())).toEqual(['id']);

    const again = await report(t, reporter.cookie, { targetType: 'post', targetId: postId, reason: 'Spam!' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      message: 'You have already reported this',
      code: 'CONFLICT',
      reason: 'ALREADY_REPORTED',
    });

    const unknown = await report(t, reporter.cookie, {
      targetType: 'user',
      targetId: '00000000-0000-4000-8000-000000000000',
      reason: 'x',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('NOT_FOUND');

    const long = await report(t, reporter.cookie, {
      targetType: 'post',
      targetId: postId,
      reason: 'x'.repeat(1_001),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'BAD_REQUEST', issues: [{ path: 'reason' }] });
    // A body far over what any row takes is refused before it is parsed.
    const huge = await report(t, reporter.cookie, {
      targetType: 'post',
      targetId: postId,
      reason: 'x'.repeat(70_000),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('PAYLOAD_TOO_LARGE');

    const wrongType = await report(t, reporter.cookie, { targetType: 'post', targetId: 42, reason: 'x' });
    expect(wrongType.statusCode).toBe(400);

    expect(
      (await report(t, undefined, { targetType: 'post', targetId: postId, reason: 'x' })).statusCode,
    ).toBe(401);
  });
});

describe('/trpc moderation', () => {
  it('is 404 for members; a moderator removes a reported post and suspends its author', async ({ t }) => {
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
      await report(t, reporter.cookie, { targetType: 'post', targetId: postId, reason: 'Offensive' })
    ).json();

    const denied = await trpc(t, mod.cookie, 'moderation.reports', {}, 'GET');
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
    const queue = await trpc(t, mod.cookie, 'moderation.reports', {}, 'GET');
    expect(queue.statusCode).toBe(200);
    expect(queue.json().result.data.json.items.map((r: { id: string }) => r.id)).toContain(reportId);

    const removed = await trpc(t, mod.cookie, 'moderation.remove', { reportId, reason: 'Offensive' });
    expect(removed.statusCode, removed.body).toBe(200);
    const feed = await t.app.inject({ method: 'GET', url: '/api/posts/feed?limit=50' });
    expect(feed.json().map((p: { id: string }) => p.id)).not.toContain(postId);
    const comments = await t.app.inject({ method: 'GET', url: `/api/posts/${postId}/comments` });
    expect(comments.statusCode).toBe(404);

    const suspended = await trpc(t, mod.cookie, 'moderation.suspend', {
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

describe('a suspended member', () => {
  it('is out of sight until the suspension ends: posts, comments, media, name, notifications', async ({
    t,
  }) => {
    const word = `zyxspam${Date.now().toString(36)}`;
    const spammer = await registerUser(t.app, { ...newUserInput(), displayName: `Spammer ${word}` });
    const bystander = await registerUser(t.app);
    const viewer = await registerUser(t.app);
    const mod = await registerUser(t.app);
    await setRole(t.orm.em.fork(), mod.user.username, 'moderator');
    const as = (cookie: string | null, method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

    const own = (await as(bystander.cookie, 'POST', '/api/posts', { content: 'An honest post' })).json().post;
    const spam = (await as(spammer.cookie, 'POST', '/api/posts', { content: `Buy ${word} now` })).json().post;
    const comment = (
      await as(spammer.cookie, 'POST', `/api/posts/${own.id}/comments`, { content: `Cheap ${word}` })
    ).json();
    expect((await as(spammer.cookie, 'POST', `/api/posts/${own.id}/like`)).statusCode).toBe(200);
    const mediaId = randomUUID();
    await t.orm.em
      .fork()
      .execute(
        `insert into ai_media (id, type, title, image_url, width, height, creator_id) values (?, 'art', ?, '/objects/demo/x.png', 64, 64, ?)`,
        [mediaId, `Poster ${word}`, spammer.user.id],
      );

    /** What the viewer (or a visitor, or the bystander) sees of the spammer. */
    const seen = async () => {
      const feed = (await as(viewer.cookie, 'GET', '/api/posts/feed?limit=50')).json() as { id: string }[];
      const visitorFeed = (await as(null, 'GET', '/api/posts/feed?limit=50')).json() as { id: string }[];
      const search = (await as(viewer.cookie, 'GET', `/api/search?q=${word}`)).json();
      const gallery = (await as(viewer.cookie, 'GET', '/api/gallery?limit=50')).json();
      const comments = (await as(viewer.cookie, 'GET', `/api/posts/${own.id}/comments`)).json() as {
        id: string;
      }[];
      const bell = (await as(bystander.cookie, 'GET', '/api/notifications')).json() as { username: string }[];
      const profile = await as(viewer.cookie, 'GET', `/api/users/by-username/${spammer.user.username}`);
      const posts = (
        await as(viewer.cookie, 'GET', `/api/users/${spammer.user.id}/posts`)
      ).json() as unknown[];
      const cubey = (
        await as(viewer.cookie, 'POST', '/api/cubey/chat', { message: `Who posts about ${word}?` })
      ).json();
      return {
        feed: feed.some((p) => p.id === spam.id),
        visitorFeed: visitorFeed.some((p) => p.id === spam.id),
        post: (await trpc(t, viewer.cookie, 'posts.byId', { postId: spam.id }, 'GET')).statusCode,
        profilePosts: posts.length,
        comment: comments.some((c) => c.id === comment.id),
        searchUsers: search.users.length,
        searchPosts: search.posts.length,
        searchMedia: search.aiMedia.length,
        gallery: gallery.items.some((m: { id: string }) => m.id === mediaId),
        notification: bell.some((n) => n.username === spammer.user.username),
        suspended: profile.json().isSuspended,
        cubey: (cubey.reply.content as string).includes(`@${spammer.user.username}`),
      };
    };
    const shown = {
      feed: true,
      visitorFeed: true,
      post: 200,
      profilePosts: 1,
      comment: true,
      searchUsers: 1,
      searchPosts: 1,
      searchMedia: 1,
      gallery: true,
      notification: true,
      suspended: false,
      cubey: true,
    };
    expect(await seen()).toEqual(shown);

    const suspend = await trpc(t, mod.cookie, 'moderation.suspend', {
      userId: spammer.user.id,
      days: 3,
      reason: 'Spam',
    });
    expect(suspend.statusCode, suspend.body).toBe(200);
    // The suspension ends by its date in an hour (set here rather than waited for three days).
    await t.orm.em
      .fork()
      .execute(`update users set suspended_until = now() + interval '1 hour' where id = ?`, [
        spammer.user.id,
      ]);
    expect(await seen()).toEqual({
      feed: false,
      visitorFeed: false,
      post: 404,
      profilePosts: 0,
      comment: false,
      searchUsers: 0,
      searchPosts: 0,
      searchMedia: 0,
      gallery: false,
      notification: false,
      suspended: true,
      cubey: false,
    });
    // Nor can their posts be liked or commented on by id.
    expect((await as(viewer.cookie, 'POST', `/api/posts/${spam.id}/like`)).statusCode).toBe(404);
    expect(
      (await as(viewer.cookie, 'POST', `/api/posts/${spam.id}/comments`, { content: 'hm' })).statusCode,
    ).toBe(404);
    // Moderators still see what was reported of them.
    expect((await trpc(t, mod.cookie, 'moderation.reports', {}, 'GET')).statusCode).toBe(200);

    // A suspension that has ended shows them again, with nothing to undo; so does lifting one.
    // The hour passes: the database's clock cannot be moved, so the end comes to its now(); the
    // app's (Date) moves on an hour and a second, the test's to move from here on (timers stay
    // real): kept pages are at most a second old (FEED_CACHE_TTL_MS, the gallery's), and search
    // reads its people again when the next suspension ends.
    await t.orm.em.fork().execute(`update users set suspended_until = now() where id = ?`, [spammer.user.id]);
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, advanceTimeDelta: 1 });
    vi.advanceTimersByTime(60 * 60 * 1000 + 1_100);
    expect(await seen()).toEqual(shown);
    await t.orm.em.fork().execute(`update users set suspended_until = null where id = ?`, [spammer.user.id]);
    const lift = await trpc(t, mod.cookie, 'moderation.unsuspend', {
      userId: spammer.user.id,
      reason: 'Appeal',
    });
    expect(lift.statusCode, lift.body).toBe(200);
    expect(await seen()).toEqual(shown);
  });
});
