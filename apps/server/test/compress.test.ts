/**
 * Compression end to end on the real app: the build's Brotli and gzip copies of assets, API
 * answers over 1 KB (REST, tRPC, a kept page), small answers and uploads left alone, the
 * per-request index.html, HEAD and ETags.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { it as withApp } from './fixtures.js';
import { createPost, registerUser, type TestApp } from './harness.js';

const ASSET = '/assets/index-abc123.js';
const script = `${'export const answer = () => "a module of the built app";\n'.repeat(80)}`;
const page = `<!doctype html><meta property="csp-nonce" nonce="__CSP_NONCE__"><title>Cubes AI</title>${'<link rel="modulepreload" href="/assets/chunk.js">'.repeat(30)}<div id="root"></div>`;

let cookie: string;
// The built web app the server serves, written before the app starts and removed after it.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none).
const it = withApp.extend('dist', { scope: 'file' }, async ({}, { onCleanup }) => {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'cubes-compress-dist-'));
  onCleanup(() => rm(dist, { recursive: true, force: true }));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), page);
  // What apps/web/build/precompress.ts writes beside each asset.
  const file = path.join(dist, ASSET);
  await writeFile(file, script);
  await writeFile(`${file}.br`, brotliCompressSync(script));
  await writeFile(`${file}.gz`, gzipSync(script));
  await writeFile(path.join(dist, 'assets', 'font-abc123.woff2'), Buffer.alloc(4096, 7));
  return dist;
});
it.override('appOptions', ({ dist }) => ({ config: { webDist: dist } }));

it.beforeAll(async ({ t }) => {
  ({ cookie } = await registerUser(t.app));
  for (let i = 0; i < 12; i += 1) {
    await createPost(t.app, cookie, `Post ${i}: long enough that a page of them passes a kilobyte.`);
  }
});

const get = (t: TestApp, url: string, encoding?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { ...headers, ...(encoding === undefined ? {} : { 'accept-encoding': encoding }) },
  });

/** The body as the browser reads it, after undoing its content-encoding. */
function decoded(res: LightMyRequestResponse): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.rawPayload).toString();
  if (coding === 'gzip') return gunzipSync(res.rawPayload).toString();
  expect(coding).toBeUndefined();
  return res.body;
}

describe('built assets: the build’s compressed copies', () => {
  it('sends Brotli, gzip or the file itself as the browser accepts, and varies on it', async ({ t }) => {
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['deflate', undefined],
      [undefined, undefined],
    ];
    for (const [accepted, coding] of cases) {
      const res = await get(t, ASSET, accepted);
      expect(res.statusCode, accepted).toBe(200);
      expect(res.headers['content-encoding'], accepted).toBe(coding);
      expect(res.headers.vary, accepted).toBe('accept-encoding');
      expect(res.headers['content-type'], accepted).toMatch(/javascript/);
      expect(res.headers['cache-control'], accepted).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length']), accepted).toBe(res.rawPayload.length);
      expect(decoded(res), accepted).toBe(script);
    }
    expect(Number((await get(t, ASSET, 'br')).headers['content-length'])).toBeLessThan(script.length / 5);
  });

  it('answers HEAD like GET, and gives each coding its own ETag', async ({ t }) => {
    const br = await get(t, ASSET, 'br');
    const plain = await get(t, ASSET);
    expect(br.headers.etag).toBeDefined();
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const head = await t.app.inject({ method: 'HEAD', url: ASSET, headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(br.headers['content-length']);
    expect(head.headers.etag).toBe(br.headers.etag);
    expect(head.rawPayload.length).toBe(0);
    const again = await get(t, ASSET, 'br', { 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('sends files that are compressed already (fonts) as they are', async ({ t }) => {
    const res = await get(t, '/assets/font-abc123.woff2', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBe(4096);
  });
});

describe('index.html: compressed per answer, with its own nonce', () => {
  it('carries a fresh nonce inside the compressed page and in the CSP', async ({ t }) => {
    for (const coding of ['br', 'gzip']) {
      const res = await get(t, '/settings', coding);
      expect(res.headers['content-encoding']).toBe(coding);
      // A visitor's page may be rendered on the server (pages/render.ts), a member's is not; either
      // is in the request's language (@cubes/api/languages).
      expect(res.headers.vary).toBe('cookie, accept-language, accept-encoding');
      expect(res.headers['cache-control']).toBe('no-cache');
      const html = decoded(res);
      const nonce = /nonce="([A-Za-z0-9+/=]{24})"/.exec(html)?.[1];
      expect(nonce).toBeDefined();
      expect(String(res.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);
      expect(html.length).toBe(page.length - '__CSP_NONCE__'.length + 24);
    }
    const plain = await get(t, '/settings');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<div id="root">');
  });
});

describe('API answers', () => {
  it('compresses a REST answer over 1 KB by Accept-Encoding; the JSON is the same', async ({ t }) => {
    const plain = await get(t, '/api/posts/feed', undefined, { cookie });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    for (const coding of ['br', 'gzip']) {
      const res = await get(t, '/api/posts/feed', coding, { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toContain('accept-encoding');
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(JSON.parse(decoded(res))).toEqual(plain.json());
    }
  });

  it('serves a kept page compressed the same, twice, and it decodes to the page’s JSON', async ({ t }) => {
    // The visitors' first page of the feed is one kept page for everyone (feed.cache.ts).
    const plain = await get(t, '/api/posts/feed');
    const first = await get(t, '/api/posts/feed', 'br');
    const second = await get(t, '/api/posts/feed', 'br');
    expect(first.headers['content-encoding']).toBe('br');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(decoded(second)).toBe(plain.body);
    // A write drops the page: the next answer is the new page, compressed anew.
    await createPost(t.app, cookie, 'A newer post, first on the next page.');
    const after = await get(t, '/api/posts/feed', 'br');
    expect(after.rawPayload.equals(first.rawPayload)).toBe(false);
    expect(decoded(after)).toContain('A newer post, first on the next page.');
    expect(decoded(after)).toBe((await get(t, '/api/posts/feed')).body);
  });

  it('compresses tRPC answers over 1 KB too', async ({ t }) => {
    const url = `/trpc/posts.feed?input=${encodeURIComponent(JSON.stringify({ json: { limit: 20 } }))}`;
    const plain = await get(t, url, undefined, { cookie });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const res = await get(t, url, 'gzip, br', { cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toContain('accept-encoding');
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(decoded(res))).toEqual(plain.json());
  });

  it('never compresses a small answer', async ({ t }) => {
    for (const url of ['/api/health', '/trpc/auth.me', '/api/nowhere']) {
      const res = await get(t, url, 'br, gzip', { cookie });
      expect(res.rawPayload.length, url).toBeLessThan(1024);
      expect(res.headers['content-encoding'], url).toBeUndefined();
    }
  });

  it('keeps revalidation working on an answer with an ETag (the OpenAPI document)', async ({ t }) => {
    const res = await get(t, '/api/openapi.json', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^W\/"/); // not the identity answer's bytes: a weak validator
    expect(JSON.parse(decoded(res)).openapi).toBeDefined();
    const again = await get(t, '/api/openapi.json', 'br', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    const plain = await get(t, '/api/openapi.json');
    expect(plain.headers.etag).toBe(etag.slice(2));
    expect((await get(t, '/api/openapi.json', undefined, { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('sends uploaded images as they are', async ({ t }) => {
    const upload = await t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie } });
    const { uploadURL } = upload.json() as { uploadURL: string };
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#e0457b' } })
      .png()
      .toBuffer();
    const put = await t.app.inject({
      method: 'PUT',
      url: uploadURL,
      payload: png,
      headers: { 'content-type': 'image/png' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const acl = await t.app.inject({
      method: 'PUT',
      url: '/api/objects/set-acl',
      headers: { cookie },
      payload: {
        imageURL: new URL(uploadURL, 'http://x').pathname.replace(
          '/api/objects/put/incoming/',
          '/objects/uploads/',
        ),
        visibility: 'public',
      },
    });
    expect(acl.statusCode, acl.body).toBe(200);
    const { objectPath } = acl.json() as { objectPath: string };
    const res = await get(t, objectPath, 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBeGreaterThan(1024);
  });
});
