/**
 * REST reposts and pins: POST · DELETE /api/posts/{id}/repost ({reposted, repostsCount}, idempotent)
 * bring a post into the reposter's followers' Following feed with `repostedBy`; POST · DELETE
 * /api/posts/{id}/pin lead the author's profile with up to 3 posts (409 past).
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { call, createPost, registerUser, UNKNOWN_ID } from './harness.js';

describe('REST reposts', () => {
  it("reposts idempotently and brings the post to the reposter's followers", async ({ t }) => {
    const author = await registerUser(t.app);
    const reposter = await registerUser(t.app);
    const reader = await registerUser(t.app);
    expect((await call(t, 'POST', `/api/users/${reposter.user.id}/follow`, reader.cookie)).statusCode).toBe(
      200,
    );
    const p = await createPost(t.app, author.cookie, 'worth passing on');
    for (let i = 0; i < 2; i += 1) {
      const res = await call(t, 'POST', `/api/posts/${p.id}/repost`, reposter.cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ reposted: true, repostsCount: 1 });
    }
    const feed = await call(t, 'GET', '/api/posts/feed?scope=following', reader.cookie);
    expect(feed.statusCode).toBe(200);
    expect(feed.json()[0]).toMatchObject({
      id: p.id,
      content: 'worth passing on',
      userId: author.user.id,
      repostsCount: 1,
      isReposted: false,
      repostedBy: { id: reposter.user.id, username: reposter.user.username },
    });
    const own = (await call(t, 'GET', `/api/posts/${p.id}`, reposter.cookie)).json().post;
    expect(own).toMatchObject({ isReposted: true, repostsCount: 1, repostedBy: null });
    for (let i = 0; i < 2; i += 1) {
      const res = await call(t, 'DELETE', `/api/posts/${p.id}/repost`, reposter.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ reposted: false, repostsCount: 0 });
    }
    expect((await call(t, 'GET', '/api/posts/feed?scope=following', reader.cookie)).json()).toEqual([]);
  });

  it('401 logged out, 404 for unknown, hostile or hidden posts', async ({ t }) => {
    const me = await registerUser(t.app);
    const blocker = await registerUser(t.app);
    const p = await createPost(t.app, blocker.cookie, 'mine');
    expect((await call(t, 'POST', `/api/posts/${p.id}/repost`)).statusCode).toBe(401);
    expect((await call(t, 'DELETE', `/api/posts/${p.id}/repost`)).statusCode).toBe(401);
    for (const id of [UNKNOWN_ID, 'not-a-uuid', 'x'.repeat(90)]) {
      const res = await call(t, 'POST', `/api/posts/${id}/repost`, me.cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Post not found' });
    }
    expect((await call(t, 'POST', `/api/users/${me.user.id}/block`, blocker.cookie)).statusCode).toBe(200);
    expect((await call(t, 'POST', `/api/posts/${p.id}/repost`, me.cookie)).statusCode).toBe(404);
  });

  it('pins up to three of your own posts to your profile', async ({ t }) => {
    const me = await registerUser(t.app);
    const other = await registerUser(t.app);
    const posts = [];
    for (const content of ['a', 'b', 'c', 'd']) posts.push(await createPost(t.app, me.cookie, content));
    for (const p of posts.slice(0, 3)) {
      const res = await call(t, 'POST', `/api/posts/${p.id}/pin`, me.cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ pinned: true });
    }
    const fourth = await call(t, 'POST', `/api/posts/${posts[3]!.id}/pin`, me.cookie);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({ message: 'You can pin up to 3 posts' });
    expect((await call(t, 'POST', `/api/posts/${posts[0]!.id}/pin`, other.cookie)).statusCode).toBe(404);
    expect((await call(t, 'POST', `/api/posts/${posts[0]!.id}/pin`)).statusCode).toBe(401);
    const profile = (await call(t, 'GET', `/api/users/${me.user.id}/posts`)).json();
    expect(
      profile.map((p: { content: string; pinned: boolean }) => `${p.pinned ? '*' : ''}${p.content}`),
    ).toEqual(['*c', '*b', '*a', 'd']);
    expect((await call(t, 'DELETE', `/api/posts/${posts[2]!.id}/pin`, me.cookie)).json()).toEqual({
      pinned: false,
    });
    expect((await call(t, 'POST', `/api/posts/${posts[3]!.id}/pin`, me.cookie)).statusCode).toBe(200);
  });

  it('is in the OpenAPI document', async ({ t }) => {
    const doc = (await call(t, 'GET', '/api/openapi.json')).json();
    expect(Object.keys(doc.paths['/api/posts/{id}/repost'])).toEqual(['post', 'delete']);
    expect(Object.keys(doc.paths['/api/posts/{id}/pin'])).toEqual(['post', 'delete']);
    const postShape = doc.components.schemas.Post;
    expect(Object.keys(postShape.properties)).toEqual(
      expect.arrayContaining(['repostsCount', 'isReposted', 'repostedBy', 'pinned']),
    );
  });
});
