import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { call, createPost, registerUser, UNKNOWN_ID } from './harness.js';

/** A post as its bookmark's tests read it. */
type Bookmarkable = { id: string; isBookmarked: boolean };

describe('REST bookmarks', () => {
  it('POST and DELETE /api/posts/:id/bookmark are idempotent; GET /api/bookmarks pages newest first', async ({
    t,
  }) => {
    const me = await registerUser(t.app);
    const author = await registerUser(t.app);
    const a = await createPost<Bookmarkable>(t.app, author.cookie, 'first');
    const b = await createPost<Bookmarkable>(t.app, author.cookie, 'second');
    expect(a.isBookmarked).toBe(false);
    for (const id of [a.id, b.id, b.id]) {
      const res = await call(t, 'POST', `/api/posts/${id}/bookmark`, me.cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ bookmarked: true });
    }
    const first = await call(t, 'GET', '/api/bookmarks?limit=1', me.cookie);
    expect(first.statusCode).toBe(200);
    expect(first.json().map((p: { id: string }) => p.id)).toEqual([b.id]);
    expect(first.json()[0]).toMatchObject({ isBookmarked: true, content: 'second' });
    const cursor = String(first.headers['x-next-cursor']);
    const second = await call(
      t,
      'GET',
      `/api/bookmarks?limit=1&cursor=${encodeURIComponent(cursor)}`,
      me.cookie,
    );
    expect(second.json().map((p: { id: string }) => p.id)).toEqual([a.id]);
    expect(second.headers['x-next-cursor']).toBeUndefined();

    // The post answers mark it for me only.
    const marks = async (cookie: string) =>
      Object.fromEntries(
        (await call(t, 'GET', '/api/posts/feed?limit=50', cookie))
          .json()
          .map((p: { id: string; isBookmarked: boolean }) => [p.id, p.isBookmarked]),
      );
    expect(await marks(me.cookie)).toMatchObject({ [a.id]: true, [b.id]: true });
    expect(await marks(author.cookie)).toMatchObject({ [a.id]: false, [b.id]: false });
    expect((await call(t, 'GET', '/api/bookmarks', author.cookie)).json()).toEqual([]);

    for (let i = 0; i < 2; i += 1) {
      const res = await call(t, 'DELETE', `/api/posts/${a.id}/bookmark`, me.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ bookmarked: false });
    }
    expect(
      (await call(t, 'GET', '/api/bookmarks', me.cookie)).json().map((p: { id: string }) => p.id),
    ).toEqual([b.id]);
  });

  it('401 logged out, 404 for unknown or hidden posts, 400 for bad cursors and limits', async ({ t }) => {
    const me = await registerUser(t.app);
    const blocker = await registerUser(t.app);
    const p = await createPost<Bookmarkable>(t.app, blocker.cookie, 'blocker writes');
    expect((await call(t, 'POST', `/api/posts/${p.id}/bookmark`)).statusCode).toBe(401);
    expect((await call(t, 'DELETE', `/api/posts/${p.id}/bookmark`)).statusCode).toBe(401);
    expect((await call(t, 'GET', '/api/bookmarks')).statusCode).toBe(401);
    expect((await call(t, 'POST', `/api/posts/${UNKNOWN_ID}/bookmark`, me.cookie)).statusCode).toBe(404);
    expect((await call(t, 'POST', '/api/posts/not-a-uuid/bookmark', me.cookie)).statusCode).toBe(404);
    expect((await call(t, 'POST', `/api/posts/${'x'.repeat(90)}/bookmark`, me.cookie)).statusCode).toBe(404);
    expect((await call(t, 'GET', '/api/bookmarks?cursor=nope', me.cookie)).statusCode).toBe(400);
    expect((await call(t, 'GET', '/api/bookmarks?limit=0', me.cookie)).statusCode).toBe(400);
    expect((await call(t, 'GET', '/api/bookmarks?limit=abc', me.cookie)).statusCode).toBe(400);

    expect((await call(t, 'POST', `/api/posts/${p.id}/bookmark`, me.cookie)).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/users/${me.user.id}/block`,
          headers: { cookie: blocker.cookie },
        })
      ).statusCode,
    ).toBe(200);
    // Blocked: the post is gone from my list and cannot be bookmarked again, but the bookmark can go.
    expect((await call(t, 'GET', '/api/bookmarks', me.cookie)).json()).toEqual([]);
    expect((await call(t, 'POST', `/api/posts/${p.id}/bookmark`, me.cookie)).statusCode).toBe(404);
    expect((await call(t, 'DELETE', `/api/posts/${p.id}/bookmark`, me.cookie)).statusCode).toBe(200);
  });

  it('is in the OpenAPI document', async ({ t }) => {
    const doc = (await call(t, 'GET', '/api/openapi.json')).json();
    expect(Object.keys(doc.paths['/api/posts/{id}/bookmark'])).toEqual(['post', 'delete']);
    expect(doc.paths['/api/bookmarks'].get).toBeDefined();
  });
});
