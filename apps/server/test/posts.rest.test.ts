/**
 * GET /api/posts/{id}: one post in the feed's shape, for visitors and members alike, and the one
 * 404 (the unknown id's body) for every post a reader may not see: deleted, removed by a
 * moderator, by a suspended member, or hidden by a block either way. Every answer is checked
 * against the OpenAPI document by the harness.
 */
import { setRole } from '@cubes/api';
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { call, createPost, registerUser, type TestApp, UNKNOWN_ID } from './harness.js';

function trpc(t: TestApp, cookie: string, path: string, input: unknown) {
  return t.app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { cookie },
    payload: { json: input },
  });
}

describe('GET /api/posts/{id}', () => {
  it("answers the post in the feed's shape, to a visitor and to a member", async ({ t }) => {
    const author = await registerUser(t.app);
    const reader = await registerUser(t.app);
    const post = await createPost(t.app, author.cookie, 'a post with a home of its own #permalinks');
    await call(t, 'POST', `/api/posts/${post.id}/like`, reader.cookie);

    const asVisitor = await call(t, 'GET', `/api/posts/${post.id}`);
    expect(asVisitor.statusCode, asVisitor.body).toBe(200);
    const feed = (await call(t, 'GET', '/api/posts/feed?limit=50')).json();
    const inFeed = feed.find((p: { id: string }) => p.id === post.id);
    expect(asVisitor.json()).toEqual({ post: inFeed });
    expect(asVisitor.json().post).toMatchObject({
      content: 'a post with a home of its own #permalinks',
      likesCount: 1,
    });

    const asReader = await call(t, 'GET', `/api/posts/${post.id}`, reader.cookie);
    expect(asReader.json().post).toMatchObject({ id: post.id, isLiked: true, likesCount: 1 });
  });

  it('is 404 with the unknown id’s body for a deleted, removed, suspended or blocked post', async ({ t }) => {
    const unknown = await call(t, 'GET', `/api/posts/${UNKNOWN_ID}`);
    expect(unknown.statusCode).toBe(404);
    const notFound = unknown.json();
    expect(notFound).toEqual({ message: 'Post not found', code: 'NOT_FOUND', reason: 'POST_NOT_FOUND' });
    const expectHidden = async (postId: string, cookie?: string) => {
      const res = await call(t, 'GET', `/api/posts/${postId}`, cookie);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(notFound);
    };

    // Not a uuid, emoji: the same 404, never a 500. A control character and a 5,000-character id
    // get the 400 every id field gives them, saying why.
    for (const id of ['not-a-uuid', encodeURIComponent('🧊'.repeat(20))]) await expectHidden(id);
    for (const [id, message] of [
      ['%00', 'Id contains characters that are not allowed'],
      [`${UNKNOWN_ID}%00`, 'Id contains characters that are not allowed'],
      ['x'.repeat(5000), 'Id is too long'],
    ]) {
      const res = await call(t, 'GET', `/api/posts/${id}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ message, code: 'BAD_REQUEST' });
    }

    const author = await registerUser(t.app);
    const deleted = await createPost(t.app, author.cookie, 'soon gone');
    expect((await call(t, 'DELETE', `/api/posts/${deleted.id}`, author.cookie)).statusCode).toBe(200);
    await expectHidden(deleted.id);
    await expectHidden(deleted.id, author.cookie);

    // A block hides the pair's posts from each other, and from no one else.
    const blocker = await registerUser(t.app);
    const blocked = await registerUser(t.app);
    const byBlocker = await createPost(t.app, blocker.cookie, 'by the blocker');
    const byBlocked = await createPost(t.app, blocked.cookie, 'by the blocked');
    expect((await call(t, 'POST', `/api/users/${blocked.user.id}/block`, blocker.cookie)).statusCode).toBe(
      200,
    );
    await expectHidden(byBlocker.id, blocked.cookie);
    await expectHidden(byBlocked.id, blocker.cookie);
    expect((await call(t, 'GET', `/api/posts/${byBlocker.id}`)).statusCode).toBe(200);
    expect((await call(t, 'GET', `/api/posts/${byBlocked.id}`, author.cookie)).statusCode).toBe(200);
    // A mute only quiets feeds: a link still opens.
    const muter = await registerUser(t.app);
    expect((await call(t, 'POST', `/api/users/${author.user.id}/mute`, muter.cookie)).statusCode).toBe(200);
    const muted = await createPost(t.app, author.cookie, 'muted, still linkable');
    expect((await call(t, 'GET', `/api/posts/${muted.id}`, muter.cookie)).statusCode).toBe(200);

    // A moderator removes one post, then suspends another's author.
    const mod = await registerUser(t.app);
    await setRole(t.orm.em.fork(), mod.user.username, 'moderator');
    const reporter = await registerUser(t.app);
    const removed = await createPost(t.app, author.cookie, 'to be removed');
    const report = await call(t, 'POST', '/api/reports', reporter.cookie, {
      targetType: 'post',
      targetId: removed.id,
      reason: 'Offensive',
    });
    expect(report.statusCode, report.body).toBe(201);
    const removal = await trpc(t, mod.cookie, 'moderation.remove', {
      reportId: report.json().id,
      reason: 'Offensive',
    });
    expect(removal.statusCode, removal.body).toBe(200);
    await expectHidden(removed.id);
    await expectHidden(removed.id, author.cookie);

    const spammer = await registerUser(t.app);
    const bySpammer = await createPost(t.app, spammer.cookie, 'by someone about to be suspended');
    expect((await call(t, 'GET', `/api/posts/${bySpammer.id}`)).statusCode).toBe(200);
    const suspension = await trpc(t, mod.cookie, 'moderation.suspend', {
      userId: spammer.user.id,
      days: 3,
      reason: 'Spam',
    });
    expect(suspension.statusCode, suspension.body).toBe(200);
    await expectHidden(bySpammer.id);
    await expectHidden(bySpammer.id, reporter.cookie);
  });
});
