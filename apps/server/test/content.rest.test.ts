/** Your content over REST and the WebSocket: delete and edit posts, delete comments, the feed's scope. */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { call, createPost, registerUser, UNKNOWN_ID } from './harness.js';
import { Events } from './live-client.js';

describe('DELETE /api/posts/{id}', () => {
  it('deletes your own post with its likes and comments: {ok:true}; 404 for others, 401 logged out', async ({
    t,
  }) => {
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const post = await createPost(t.app, author.cookie, 'short-lived');
    expect((await call(t, 'POST', `/api/posts/${post.id}/like`, fan.cookie)).statusCode).toBe(200);
    const comment = await call(t, 'POST', `/api/posts/${post.id}/comments`, fan.cookie, { content: 'hi' });
    expect(comment.statusCode).toBe(201);

    const refused = await call(t, 'DELETE', `/api/posts/${post.id}`, fan.cookie);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({
      message: 'Post not found',
      code: 'NOT_FOUND',
      reason: 'POST_NOT_FOUND',
    });
    expect((await call(t, 'DELETE', `/api/posts/${post.id}`)).statusCode).toBe(401);
    expect((await call(t, 'DELETE', `/api/posts/${UNKNOWN_ID}`, author.cookie)).statusCode).toBe(404);
    expect((await call(t, 'DELETE', '/api/posts/%00', author.cookie)).statusCode).toBe(400);

    const done = await call(t, 'DELETE', `/api/posts/${post.id}`, author.cookie);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ ok: true });
    expect((await call(t, 'GET', `/api/posts/${post.id}/comments`)).statusCode).toBe(404);
    const stats = await call(t, 'GET', `/api/users/${author.user.id}/stats`);
    expect(stats.json().postsCount).toBe(0);
    const notes = await call(t, 'GET', '/api/notifications', author.cookie);
    expect(notes.json()).toEqual([]);
  });
});

describe('PATCH /api/posts/{id} and GET /api/posts/{id}/revisions', () => {
  it('edits your own post: {post} with editedAt, and the old text in revisions', async ({ t }) => {
    const author = await registerUser(t.app);
    const other = await registerUser(t.app);
    const post = await createPost(t.app, author.cookie, 'typo here');
    const edited = await call(t, 'PATCH', `/api/posts/${post.id}`, author.cookie, {
      content: 'no typo here',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().post).toMatchObject({
      id: post.id,
      content: 'no typo here',
      createdAt: post.createdAt,
    });
    expect(edited.json().post.editedAt).toEqual(expect.any(String));

    const history = await call(t, 'GET', `/api/posts/${post.id}/revisions`);
    expect(history.statusCode).toBe(200);
    expect(history.json().revisions).toHaveLength(1);
    expect(history.json().revisions[0]).toMatchObject({ content: 'typo here', writtenAt: post.createdAt });

    expect((await call(t, 'PATCH', `/api/posts/${post.id}`, other.cookie, { content: 'x' })).statusCode).toBe(
      404,
    );
    expect((await call(t, 'PATCH', `/api/posts/${post.id}`, undefined, { content: 'x' })).statusCode).toBe(
      401,
    );
    const empty = await call(t, 'PATCH', `/api/posts/${post.id}`, author.cookie, { content: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      message: 'Post cannot be empty',
      code: 'BAD_REQUEST',
      reason: 'POST_EMPTY',
    });
    const long = await call(t, 'PATCH', `/api/posts/${post.id}`, author.cookie, {
      content: 'x'.repeat(2001),
    });
    expect(long.json()).toMatchObject({
      message: 'Post must be at most 2000 characters',
      code: 'BAD_REQUEST',
      reason: 'POST_TOO_LONG',
    });
  });

  it('answers 403 for your own post after 15 minutes', async ({ t }) => {
    const author = await registerUser(t.app);
    const post = await createPost(t.app, author.cookie, 'old news');
    await t.orm.em
      .fork()
      .execute(`update posts set created_at = now() - interval '16 minutes' where id = ?`, [post.id]);
    const late = await call(t, 'PATCH', `/api/posts/${post.id}`, author.cookie, { content: 'new news' });
    expect(late.statusCode).toBe(403);
    expect(late.json()).toEqual({
      message: 'Posts can only be edited in the first 15 minutes',
      code: 'FORBIDDEN',
      reason: 'EDIT_WINDOW_PASSED',
    });
  });
});

describe('DELETE /api/comments/{id}', () => {
  it('lets the commenter or the post’s author delete; 404 for anyone else', async ({ t }) => {
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const post = await createPost(t.app, author.cookie);
    const first = (
      await call(t, 'POST', `/api/posts/${post.id}/comments`, fan.cookie, { content: 'a' })
    ).json();
    const second = (
      await call(t, 'POST', `/api/posts/${post.id}/comments`, fan.cookie, { content: 'b' })
    ).json();
    expect((await call(t, 'DELETE', `/api/comments/${first.id}`, stranger.cookie)).json()).toEqual({
      message: 'Comment not found',
      code: 'NOT_FOUND',
      reason: 'COMMENT_NOT_FOUND',
    });
    expect((await call(t, 'DELETE', `/api/comments/${first.id}`)).statusCode).toBe(401);
    expect((await call(t, 'DELETE', `/api/comments/${first.id}`, fan.cookie)).json()).toEqual({ ok: true });
    expect((await call(t, 'DELETE', `/api/comments/${second.id}`, author.cookie)).json()).toEqual({
      ok: true,
    });
    expect((await call(t, 'GET', `/api/posts/${post.id}/comments`)).json()).toEqual([]);
    const feed = (await call(t, 'GET', '/api/posts/feed?limit=50')).json() as {
      id: string;
      commentsCount: number;
    }[];
    expect(feed.find((p) => p.id === post.id)?.commentsCount).toBe(0);
  });
});

describe('GET /api/posts/feed?scope=', () => {
  it('following: people you follow and you; everyone by default; 401 logged out; 400 on an unknown scope', async ({
    t,
  }) => {
    const reader = await registerUser(t.app);
    const followed = await registerUser(t.app);
    const other = await registerUser(t.app);
    expect((await call(t, 'POST', `/api/users/${followed.user.id}/follow`, reader.cookie)).statusCode).toBe(
      200,
    );
    const mine = await createPost(t.app, reader.cookie, 'mine');
    const theirs = await createPost(t.app, followed.cookie, 'theirs');
    const stranger = await createPost(t.app, other.cookie, 'stranger');

    const first = await call(t, 'GET', '/api/posts/feed?scope=following&limit=1', reader.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json().map((p: { id: string }) => p.id)).toEqual([theirs.id]);
    const cursor = first.headers['x-next-cursor'] as string;
    const next = await call(
      t,
      'GET',
      `/api/posts/feed?scope=following&limit=50&cursor=${encodeURIComponent(cursor)}`,
      reader.cookie,
    );
    expect(next.json().map((p: { id: string }) => p.id)).toEqual([mine.id]);
    expect(next.headers['x-next-cursor']).toBeUndefined();

    const everyone = (await call(t, 'GET', '/api/posts/feed?limit=3', reader.cookie)).json();
    expect(everyone.map((p: { id: string }) => p.id)).toEqual([stranger.id, theirs.id, mine.id]);
    const anonymous = await call(t, 'GET', '/api/posts/feed?scope=following');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHORIZED');
    const bad = await call(t, 'GET', '/api/posts/feed?scope=friends', reader.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Scope must be everyone or following');
  });
});

describe('live deletions and edits', () => {
  it('tells an open feed, over the WebSocket, and the author’s bell loses the post’s notifications', async ({
    t,
    live,
  }) => {
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const post = await createPost(t.app, author.cookie, 'watch me');
    expect((await call(t, 'POST', `/api/posts/${post.id}/like`, fan.cookie)).statusCode).toBe(200);

    const viewer = live({ cookie: fan.cookie });
    const bellSocket = live({ cookie: author.cookie });
    const changes = new Events<{ postId: string; kind: string }>();
    viewer.client.posts.onChange.subscribe(undefined, {
      onStarted: changes.start,
      onData: changes.push,
      onError: changes.fail,
    });
    const bell = new Events<{ id: string; data: { unreadCount: number } }>();
    bellSocket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    expect((await bell.next()).data.unreadCount).toBe(1);
    await changes.started;

    await call(t, 'PATCH', `/api/posts/${post.id}`, author.cookie, { content: 'watch me, edited' });
    expect(await changes.next()).toEqual({ postId: post.id, kind: 'edited' });
    await call(t, 'DELETE', `/api/posts/${post.id}`, author.cookie);
    expect(await changes.next()).toEqual({ postId: post.id, kind: 'deleted' });
    expect((await bell.next()).data.unreadCount).toBe(0);
  });
});
