/**
 * No URL a member gives is fetched, by the server or by viewers' browsers: avatars and banners
 * are our own uploads only (a URL of another site is refused, and the CSP's img-src allows no
 * other site), and links in text stay links. A member tries every URL field the API takes with a
 * local HTTP server that counts its hits, their profile and posts are shown everywhere the server
 * renders a member — and the counter stays at 0.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { registerUser } from './harness.js';
import { Events } from './live-client.js';

let target: Server;
let targetUrl: string;
const hits: string[] = [];

beforeAll(async () => {
  target = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', () => resolve()));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

describe('URL fields', () => {
  it('are refused for images, kept as text in posts and bios, and never requested', async ({ t, live }) => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const avatarUrl = `${targetUrl}/avatar.png`;
    const headerUrl = `${targetUrl}/banner.png`;
    const get = (url: string, cookie: string | null = bob.cookie) =>
      t.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });

    for (const payload of [{ avatarUrl }, { headerUrl }, { avatarUrl, headerUrl }]) {
      const refused = await t.app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: { cookie: alice.cookie },
        payload: { ...payload, bio: 'not saved' },
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({
        message: 'Must be an image you uploaded',
        code: 'BAD_REQUEST',
        reason: 'IMAGE_NOT_UPLOADED',
      });
    }
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: alice.cookie },
      payload: { bio: `My site: ${targetUrl}/about` },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().user).toMatchObject({ avatarUrl: null, headerUrl: null });

    // Things that show Alice to others: a post, a comment, a like notification, a message.
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie: alice.cookie },
      payload: { content: `Look ${targetUrl}/link` },
    });
    const postId = post.json().post.id as string;
    await t.app.inject({ method: 'POST', url: `/api/posts/${postId}/like`, headers: { cookie: bob.cookie } });
    await t.app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/comments`,
      headers: { cookie: alice.cookie },
      payload: { content: 'First!' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: { cookie: alice.cookie },
      payload: { receiverId: bob.user.id, content: 'hi' },
    });
    const socket = live({ cookie: bob.cookie });
    const feed = new Events<unknown>();
    socket.client.posts.onNew.subscribe({}, { onData: feed.push, onError: feed.fail });

    const shown = [
      await get('/api/settings', alice.cookie),
      await get(`/api/users/by-username/${alice.user.username}`, null),
      await get(`/api/users/by-username/${alice.user.username}`),
      await get(`/api/users/${alice.user.id}/posts`),
      await get('/api/posts/feed'),
      await get('/api/posts/feed', null),
      await get(`/api/posts/${postId}/comments`),
      await get('/api/notifications', alice.cookie),
      await get('/api/messages/conversations'),
      await get(`/api/messages/${alice.user.id}`),
      await get(`/api/search?q=${encodeURIComponent(alice.user.username)}`),
      await get('/api/auth/me', alice.cookie),
    ];
    for (const res of shown) expect(res.statusCode, res.body).toBe(200);
    expect(shown.some((res) => res.body.includes(`${targetUrl}/about`))).toBe(true);
    for (const res of shown) expect(res.body).not.toContain(avatarUrl);
    for (const res of shown) expect(res.body).not.toContain(headerUrl);
    const cubey = await t.app.inject({
      method: 'POST',
      url: '/api/cubey/chat',
      headers: { cookie: bob.cookie },
      payload: { message: `Who is @${alice.user.username}?` },
    });
    expect(cubey.statusCode, cubey.body).toBe(200);

    // Neither of the URL-taking upload endpoints reaches out either: they take our own uploads only.
    for (const [url, payload] of [
      ['/api/objects/set-acl', { imageURL: `${targetUrl}/upload.png`, visibility: 'public' }],
      ['/api/users/profile-image', { objectPath: `${targetUrl}/p.png` }],
      ['/api/users/banner-image', { objectPath: `${targetUrl}/b.png` }],
    ] as const) {
      const res = await t.app.inject({ method: 'PUT', url, headers: { cookie: alice.cookie }, payload });
      expect(res.statusCode, `${url} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const imagePost = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie: alice.cookie },
      payload: { content: 'pic', imageUrl: `${targetUrl}/post.png` },
    });
    expect(imagePost.statusCode).toBe(400);

    expect(hits).toEqual([]);

    // Nor may a page load an image from any other site: the policy allows our own origin only.
    const policy = String((await get('/api/health', null)).headers['content-security-policy']);
    expect(policy).toMatch(/(^|;)img-src 'self' data: blob:(;|$)/);

    // Nothing asynchronous (a background fetch, a thumbnailer) came later either: a request sent
    // from here after everything above is the counter's first, and only, hit. (It also shows
    // the counter counts.)
    await fetch(`${targetUrl}/probe`);
    expect(hits).toEqual(['GET /probe']);
  });
});
