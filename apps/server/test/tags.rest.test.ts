/**
 * Tags and mentions over REST: the tag page, its counts, trending, the tags Search finds, @
 * suggestions, and the post shape.
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';

async function get(t: TestApp, url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
}
async function send(t: TestApp, method: 'POST' | 'PATCH', url: string, cookie: string, payload: unknown) {
  return t.app.inject({ method, url, headers: { cookie }, payload: payload as Record<string, unknown> });
}

describe('tags over REST', () => {
  it('posts carry tags and mentions; the tag page pages by x-next-cursor; counts and trending answer', async ({
    t,
  }) => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const tag = `rest${Math.random().toString(36).slice(2, 7)}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await send(t, 'POST', '/api/posts', alice.cookie, {
        content: `#${tag.toUpperCase()} ${i} hi @${bob.user.username.toUpperCase()}`,
      });
      expect(res.statusCode, res.body).toBe(201);
      const { post } = res.json();
      expect(post.tags).toEqual([tag]);
      expect(post.mentions).toEqual([{ id: bob.user.id, username: bob.user.username }]);
      ids.push(post.id);
    }
    const first = await get(t, `/api/tags/${encodeURIComponent(`${tag.toUpperCase()}`)}/posts?limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    const cursor = first.headers['x-next-cursor'];
    expect(typeof cursor).toBe('string');
    const second = await get(
      t,
      `/api/tags/${tag}/posts?limit=2&cursor=${encodeURIComponent(String(cursor))}`,
    );
    expect(second.json().map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect(second.headers['x-next-cursor']).toBeUndefined();

    const summary = await get(t, `/api/tags/${tag}`);
    expect(summary.json()).toEqual({ tag, postsCount: 3, peopleCount: 1 });

    const trending = await get(t, '/api/tags/trending');
    expect(trending.statusCode).toBe(200);
    expect(trending.json()).toContainEqual({ tag, postsCount: 3, peopleCount: 1 });

    // Bob has one mention notification per post, reading "mentioned you".
    const notes = (await get(t, '/api/notifications', bob.cookie)).json();
    const mentions = notes.filter((n: { type: string }) => n.type === 'mention');
    expect(mentions).toHaveLength(3);
    expect(mentions[0]).toMatchObject({ username: alice.user.username, message: 'mentioned you' });
  });

  it('a tag in any script, and hostile input refused with a 400', async ({ t }) => {
    const ok = await get(t, `/api/tags/${encodeURIComponent('日本語')}/posts`);
    expect(ok.statusCode).toBe(200);
    for (const bad of ['123', 'a%20b', `${'x'.repeat(70_000)}`, 'a%00', '%F0%9F%A7%8A']) {
      const res = await get(t, `/api/tags/${bad}/posts`);
      expect([400, 414], `${bad.slice(0, 20)}: ${res.body.slice(0, 200)}`).toContain(res.statusCode);
    }
    expect((await get(t, '/api/tags/trending?x=1')).statusCode).toBe(200);
  });

  it('finds tags by their start: GET /api/tags/search?q=, not taken for the tag "search"', async ({ t }) => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const stem = `find${Math.random().toString(36).slice(2, 7)}`;
    await send(t, 'POST', '/api/posts', alice.cookie, { content: `#${stem}_cubes and #${stem}_art` });
    await send(t, 'POST', '/api/posts', bob.cookie, { content: `#${stem}_cubes too` });
    // A tag named "search" has its own page; the search path is not taken for it, nor it for the search.
    await send(t, 'POST', '/api/posts', bob.cookie, { content: '#search' });
    for (const q of [`%23${stem.toUpperCase()}`, stem, `${stem}_`]) {
      const res = await get(t, `/api/tags/search?q=${q}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([
        { tag: `${stem}_cubes`, postsCount: 2, peopleCount: 2 },
        { tag: `${stem}_art`, postsCount: 1, peopleCount: 1 },
      ]);
    }
    expect((await get(t, `/api/tags/search?q=${stem}_c`, alice.cookie)).json()).toEqual([
      { tag: `${stem}_cubes`, postsCount: 2, peopleCount: 2 },
    ]);
    expect((await get(t, '/api/tags/search')).statusCode).toBe(400);
    expect((await get(t, `/api/tags/search?q=${encodeURIComponent('🧊')}`)).json()).toEqual([]);
    expect((await get(t, '/api/tags/search?q=a%20b')).json()).toEqual([]);
    expect((await get(t, '/api/tags/search?q=a%00')).statusCode).toBe(400);
    const huge = await get(t, `/api/tags/search?q=${'x'.repeat(70_000)}`);
    expect([400, 414]).toContain(huge.statusCode);
    expect((await get(t, '/api/tags/search/posts')).statusCode).toBe(200);
    expect((await get(t, '/api/tags/search')).json()).toMatchObject({ message: expect.any(String) });
  });

  it('suggests members after @ to members only, followees first', async ({ t }) => {
    const me = await registerUser(t.app);
    const prefix = `sug${Math.random().toString(36).slice(2, 6)}`;
    const one = await registerUser(t.app, {
      username: `${prefix}a`,
      email: `${prefix}a@example.com`,
      password: 'secret12',
      displayName: 'One',
    });
    const two = await registerUser(t.app, {
      username: `${prefix}b`,
      email: `${prefix}b@example.com`,
      password: 'secret12',
      displayName: 'Two',
    });
    await send(t, 'POST', `/api/users/${two.user.id}/follow`, me.cookie, {});
    expect((await get(t, `/api/mentions/suggest?q=${prefix}`)).statusCode).toBe(401);
    const res = await get(t, `/api/mentions/suggest?q=${prefix}`, me.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().users.map((u: { id: string }) => u.id)).toEqual([two.user.id, one.user.id]);
    expect((await get(t, '/api/mentions/suggest?q=a%25', me.cookie)).statusCode).toBe(400);
    expect((await get(t, '/api/mentions/suggest?q=a&limit=999', me.cookie)).statusCode).toBe(400);
  });
});
