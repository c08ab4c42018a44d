import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it as withApp } from './fixtures.js';

// The built web app the server serves, written before the app starts and removed after it.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none).
const it = withApp.extend('dist', { scope: 'file' }, async ({}, { onCleanup }) => {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'cubes-web-dist-'));
  onCleanup(() => rm(dist, { recursive: true, force: true }));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(
    path.join(dist, 'index.html'),
    '<!doctype html><head><meta property="csp-nonce" nonce="__CSP_NONCE__"><title>Cubes AI</title></head><div id="root"></div>',
  );
  // As apps/web/build/page-preloads.ts writes it.
  await mkdir(path.join(dist, '.vite'));
  await writeFile(
    path.join(dist, '.vite', 'page-preloads.json'),
    JSON.stringify({
      pages: [
        { path: 'search', files: ['/assets/search-s1.js', '/assets/schemas-z1.js'] },
        { path: 'profile', files: ['/assets/profile-p1.js'] },
        { path: 'profile/:username', files: ['/assets/user-profile-u1.js'] },
        { path: 'tags/:tag', files: ['/assets/tag-t1.js'] },
      ],
      catalogs: {
        en: '/assets/messages-en1.js',
        de: '/assets/messages-de1.js',
        ar: '/assets/messages-ar1.js',
      },
    }),
  );
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');
  await writeFile(path.join(dist, 'theme-init.js'), '/* theme */');
  return dist;
});
it.override('appOptions', ({ dist }) => ({ config: { webDist: dist } }));

describe('serving the built web app (production)', () => {
  it('serves hashed assets with a year of immutable caching', async ({ t }) => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates files without a hash', async ({ t }) => {
    const res = await t.app.inject({ method: 'GET', url: '/theme-init.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers every client route with index.html', async ({ t }) => {
    for (const url of ['/', '/profile/alice', '/settings', '/no/such/page?x=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });

  it("gives each load of index.html a fresh style nonce, in the page and in that answer's CSP only", async ({
    t,
  }) => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ method: 'GET', url: '/' });
      const nonce = /<meta property="csp-nonce" nonce="([A-Za-z0-9+/=]{24})">/.exec(res.body)?.[1];
      expect(nonce, res.body).toBeDefined();
      const csp = String(res.headers['content-security-policy']);
      const styleSrc = csp.split(';').find((d) => d.startsWith('style-src'));
      expect(styleSrc).toBe(`style-src 'self' 'nonce-${nonce}'`);
      // Style attributes alone may be inline (a rendered page's React style props); never a
      // script, a <style> element or a stylesheet.
      const inline = csp.split(';').filter((d) => d.includes('unsafe-inline'));
      expect(inline).toEqual(["style-src-attr 'unsafe-inline'"]);
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(3);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(String(asset.headers['content-security-policy'])).toContain("style-src 'self';");
    const api = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(String(api.headers['content-security-policy'])).not.toContain('nonce-');
  });

  it('names the chunks of the lazy page a path lands on, before </head>, and none elsewhere', async ({
    t,
  }) => {
    const preloads = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toMatch(/nonce="[A-Za-z0-9+/=]{24}"/);
      const head = res.body.slice(0, res.body.indexOf('</head>'));
      return [...head.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)]
        .map((m) => m[1])
        .filter((href) => !href?.startsWith('/assets/messages-'));
    };
    expect(await preloads('/search')).toEqual(['/assets/search-s1.js', '/assets/schemas-z1.js']);
    expect(await preloads('/search?q=%3Cscript%3E&tab=users')).toEqual([
      '/assets/search-s1.js',
      '/assets/schemas-z1.js',
    ]);
    // react-router matches without regard to case, and ignores a trailing slash.
    expect(await preloads('/Search/')).toEqual(['/assets/search-s1.js', '/assets/schemas-z1.js']);
    expect(await preloads('/profile')).toEqual(['/assets/profile-p1.js']);
    expect(await preloads('/profile/alice')).toEqual(['/assets/user-profile-u1.js']);
    expect(await preloads('/tags/pixel_art')).toEqual(['/assets/tag-t1.js']);
    for (const url of ['/', '/tags', '/profile/alice/extra', '/searching', '/no/such/page']) {
      expect(await preloads(url), url).toEqual([]);
    }
  });

  it("names the page language's catalog, and no other, on every page", async ({ t }) => {
    const catalogs = async (url: string, headers: Record<string, string> = {}) => {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(200);
      const head = res.body.slice(0, res.body.indexOf('</head>'));
      return [
        ...head.matchAll(/<link rel="modulepreload" crossorigin href="(\/assets\/messages-[^"]+)">/g),
      ].map((m) => m[1]);
    };
    for (const url of ['/', '/search', '/profile/alice', '/no/such/page']) {
      expect(await catalogs(url), url).toEqual(['/assets/messages-en1.js']);
    }
    expect(await catalogs('/', { 'accept-language': 'de-AT,de;q=0.9' })).toEqual(['/assets/messages-de1.js']);
    expect(await catalogs('/search', { cookie: 'lang=ar' })).toEqual(['/assets/messages-ar1.js']);
    expect(await catalogs('/tags/x?lang=de', { cookie: 'lang=ar' })).toEqual(['/assets/messages-de1.js']);
    expect(await catalogs('/?lang=%00%3Cscript%3E', { 'accept-language': 'x'.repeat(70_000) })).toEqual([
      '/assets/messages-en1.js',
    ]);
  });

  it('never echoes the path it was asked for into the page, whatever the path holds', async ({ t }) => {
    const hostile = [
      '/profile/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      '/search%00',
      `/tags/${'\u{1F9CA}'.repeat(2_000)}`,
      `/${'a'.repeat(8_000)}`,
      '/profile/"><link rel=modulepreload href=//evil.example/x.js>',
      '/search/..%2F..%2Fassets',
    ];
    for (const url of hostile) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url.slice(0, 40)).toBe(200);
      expect(res.body).not.toMatch(/script%3E|<script>alert|evil\.example|aaaaaaaa|\u{1F9CA}/u);
    }
    // A profile page for any username gets the profile page's chunk, and only that.
    const odd = await t.app.inject({ method: 'GET', url: '/profile/%3Cscript%3E' });
    expect(odd.body).toContain('href="/assets/user-profile-u1.js"');
  });

  it('keeps unknown API paths as JSON 404s, also encoded or in absolute form', async ({ t }) => {
    for (const url of [
      '/api/nope',
      '/trpc/nope.nope',
      '/%61pi/nope',
      '/%74rpc/nope.nope',
      'http://x/api/nope',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
    }
    // A path the API has, asked with a method it does not: 405, the same however it is spelled.
    const plain = await t.app.inject({ method: 'PUT', url: '/api/posts/feed' });
    const encoded = await t.app.inject({ method: 'PUT', url: '/%61pi/posts/feed' });
    expect(plain.statusCode).toBe(405);
    expect([encoded.statusCode, encoded.headers.allow, encoded.json()]).toEqual([
      405,
      plain.headers.allow,
      plain.json(),
    ]);
  });
});
