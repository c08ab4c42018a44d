/**
 * Link cards over HTTP: a post with a link to a page on a local HTTP server (the app allows this
 * machine's network, as LINK_PREVIEW_ALLOW_PRIVATE=1 does) answers at once without its card; the
 * card follows live on posts.onChange, and the post's answers carry it, its image served from
 * /objects/. DELETE /api/posts/{id}/link-card is the author's; everyone else gets 404.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { it as withApp } from './fixtures.js';
import { call, registerUser } from './harness.js';
import { Events } from './live-client.js';

// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none).
const it = withApp.extend('page', { scope: 'file' }, async ({}, { onCleanup }) => {
  const png = await sharp({ create: { width: 32, height: 16, channels: 3, background: '#ff8800' } })
    .png()
    .toBuffer();
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/og.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(png);
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><head><title>fallback</title>
      <meta property="og:title" content="Cube &lt;World&gt; ${path}">
      <meta property="og:site_name" content="Cubes Weekly">
      <meta property="og:image" content="/og.png"></head></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
});
it.override('appOptions', { config: { linkPreviews: { allowPrivate: true } } });

describe('REST link cards', () => {
  it('a card follows a new post live, carried by its answers; the author removes it', async ({
    t,
    live,
    page,
  }) => {
    const author = await registerUser(t.app);
    const other = await registerUser(t.app);
    const socket = live({ cookie: other.cookie });
    const changes = new Events<{ postId: string; kind: string }>();
    socket.client.posts.onChange.subscribe(undefined, {
      onStarted: changes.start,
      onData: changes.push,
      onError: changes.fail,
    });
    await changes.started;

    const created = await call(t, 'POST', '/api/posts', author.cookie, { content: `read ${page.url}/story` });
    expect(created.statusCode, created.body).toBe(201);
    const postId = created.json().post.id as string;
    expect(created.json().post.linkCard).toBeNull();
    expect(await changes.next()).toEqual({ postId, kind: 'linkCard' });

    const seen = await call(t, 'GET', `/api/posts/${postId}`);
    expect(seen.statusCode).toBe(200);
    const card = seen.json().post.linkCard;
    expect(card).toMatchObject({
      url: `${page.url}/story`,
      title: 'Cube <World> /story',
      description: null,
      siteName: 'Cubes Weekly',
    });
    expect(card.imageUrl).toMatch(/^\/objects\/uploads\//);
    const image = await call(t, 'GET', card.imageUrl);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect((await sharp(image.rawPayload).metadata()).width).toBe(32);
    // The feed carries it too (its kept first page was dropped by the change).
    const feed = await call(t, 'GET', '/api/posts/feed?limit=50');
    expect(feed.json().find((p: { id: string }) => p.id === postId).linkCard.title).toBe(
      'Cube <World> /story',
    );

    // A second post of the same link has the card at once: the page is not fetched again.
    const again = await call(t, 'POST', '/api/posts', other.cookie, { content: `${page.url}/story also` });
    expect(again.json().post.linkCard.title).toBe('Cube <World> /story');
    expect(page.hits.get('/story')).toBe(1);

    // Removal: another member's is 404, the author's is 200 and every viewer hears it.
    for (const [cookie, status] of [
      [other.cookie, 404],
      [undefined, 401],
    ] as const) {
      const refused = await call(t, 'DELETE', `/api/posts/${postId}/link-card`, cookie);
      expect(refused.statusCode).toBe(status);
      expect(refused.json()).toMatchObject({ code: status === 404 ? 'NOT_FOUND' : 'UNAUTHORIZED' });
    }
    const removed = await call(t, 'DELETE', `/api/posts/${postId}/link-card`, author.cookie);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ ok: true });
    expect(await changes.next()).toEqual({ postId, kind: 'linkCard' });
    expect((await call(t, 'GET', `/api/posts/${postId}`)).json().post.linkCard).toBeNull();
  });

  it('no card when the author asks for none; bad input is a 400 or 404 in the JSON shape, never 500', async ({
    t,
    page,
  }) => {
    const author = await registerUser(t.app);
    const none = await call(t, 'POST', '/api/posts', author.cookie, {
      content: `${page.url}/none`,
      linkCard: false,
    });
    expect(none.statusCode).toBe(201);
    expect(none.json().post.linkCard).toBeNull();
    expect(page.hits.get('/none')).toBeUndefined();

    const bad = await call(t, 'POST', '/api/posts', author.cookie, { content: 'x', linkCard: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'BAD_REQUEST', message: 'linkCard must be true or false' });
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', '%00', 'x'.repeat(2_000)]) {
      const res = await call(t, 'DELETE', `/api/posts/${id}/link-card`, author.cookie);
      expect([400, 404]).toContain(res.statusCode);
      expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    const hostile = await call(t, 'POST', '/api/posts', author.cookie, {
      content: 'javascript:alert(1) https:// http://[::1 data:text/html,x',
    });
    expect(hostile.statusCode).toBe(201);
    expect(hostile.json().post.linkCard).toBeNull();
  });

  it('the OpenAPI document has the row and the field', async ({ t }) => {
    const doc = (await call(t, 'GET', '/api/openapi.json')).json();
    expect(doc.paths['/api/posts/{id}/link-card'].delete).toBeDefined();
    expect(JSON.stringify(doc.components.schemas)).toContain('linkCard');
  });
});
