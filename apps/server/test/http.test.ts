import { Writable } from 'node:stream';
import { appRouter, type RestRow, restRows } from '@cubes/api';
import pino from 'pino';
import { describe, expect } from 'vitest';
import { JSON_BODY_LIMIT } from '../src/app.js';
import { procedureExists } from '../src/rest/adapter.js';
import { itWith } from './fixtures.js';
import { newUserInput, registerUser } from './harness.js';

let logs = '';
const sink = new Writable({
  write(chunk, _enc, done) {
    logs += chunk.toString();
    done();
  },
});
const it = itWith({ logger: pino({ level: 'info' }, sink) });

describe('the REST table', () => {
  it('names an existing procedure in every row, each path once', () => {
    const seen = new Set<string>();
    for (const route of restRows) {
      expect(procedureExists(appRouter, route.procedure), route.procedure).toBe(true);
      const key = `${route.method} ${route.path}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it('reaches its procedure from every row', async ({ t }) => {
    for (const route of restRows as readonly RestRow[]) {
      const url = route.path.replace(/:([A-Za-z]+)/g, '00000000-0000-4000-8000-000000000000');
      const res = await t.app.inject({
        method: route.method,
        url,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
      expect(res.body, `${route.method} ${url}`).not.toMatch(/Unknown API path/);
    }
  });

  it('answers unknown /api paths with 404 JSON', async ({ t }) => {
    for (const [method, url] of [
      ['GET', '/api/nothing-here'],
      ['POST', '/api/auth/nope'],
      ['PUT', '/api/nothing-here'],
      ['TRACE', '/api/nowhere'],
      ['OPTIONS', '/api/posts/feed/more'],
      ['DELETE', '/api/health/'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ message: `Unknown API path: ${method} ${url}`, code: 'NOT_FOUND' });
    }
  });

  it('answers a method a row’s path does not have with 405 and Allow, for every row (issue #45)', async ({
    t,
  }) => {
    const ALL = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const;
    const rows = [...restRows, { method: 'GET', path: '/api/openapi.json' }] as {
      method: string;
      path: string;
    }[];
    const matches = (path: string, url: string) =>
      new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(url);
    const urls = new Set(
      rows.map((r) => r.path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000')),
    );
    let checked = 0;
    for (const url of urls) {
      // What the router takes at this URL: every row whose path matches it (a literal segment
      // such as /api/posts/feed also matches /api/posts/:id); GET brings HEAD.
      const has = new Set(rows.filter((r) => matches(r.path, url)).map((r) => r.method));
      if (has.has('GET')) has.add('HEAD');
      const allow = ALL.filter((m) => has.has(m)).join(', ');
      for (const method of ALL.filter((m) => !has.has(m))) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(405);
        expect(res.headers.allow, `${method} ${url}`).toBe(allow);
        if (method !== 'HEAD') {
          expect(res.json()).toEqual({
            message: `${method} is not allowed on ${url}; it takes ${allow}`,
            code: 'METHOD_NOT_SUPPORTED',
          });
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(300);
    // A query string changes nothing; a cross-origin write is still refused first (403).
    const query = await t.app.inject({ method: 'DELETE', url: '/api/auth/me?x=1' });
    expect([query.statusCode, query.headers.allow]).toEqual([405, 'GET, HEAD']);
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/me',
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(foreign.statusCode).toBe(403);
  });
});

describe('HTTP protections', () => {
  it('reports health', async ({ t }) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('reports readiness: every check passes', async ({ t }) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ready: true,
      checks: { database: true, bus: true, migrations: true, running: true },
      failed: [],
    });
  });

  it('sets helmet’s security headers on every kind of answer', async ({ t }) => {
    for (const url of ['/api/health', '/trpc/auth.me', '/api/nowhere']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers, url).toMatchObject({
        'content-security-policy': expect.stringContaining("default-src 'self'"),
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-frame-options': 'SAMEORIGIN',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      });
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('refuses state-changing requests from another origin with 403', async ({ t }) => {
    const payload = newUserInput();
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { origin: 'https://evil.example' },
      payload,
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({
      message: 'Cross-origin request refused',
      code: 'FORBIDDEN',
      reason: 'CROSS_ORIGIN_REFUSED',
    });
    const trpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.logout',
      headers: { origin: 'null' },
    });
    expect(trpc.statusCode).toBe(403);
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
      payload,
    });
    expect(own.statusCode).toBe(201);
    // Reads are never refused for their Origin.
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example' },
    });
    expect(read.statusCode).toBe(200);
  });

  it('answers 413 for JSON bodies over 64 KB', async ({ t }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a'.repeat(JSON_BODY_LIMIT), password: 'x' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'Request body is too large (limit 64 KB)',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('answers malformed JSON with 400 JSON', async ({ t }) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('BAD_REQUEST');
  });

  it('logs one line per request without passwords, tokens or cookies', async ({ t }) => {
    logs = '';
    const { input, cookie } = await registerUser(t.app);
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: input.email, password: input.password },
    });
    await t.app.inject({ method: 'GET', url: '/api/auth/me?token=abc', headers: { cookie } });
    const lines = logs
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.msg === 'request')).toHaveLength(3);
    expect(logs).not.toContain(input.password);
    expect(logs).not.toContain(cookie.split('=')[1]);
    expect(logs).not.toContain('token=abc');
    expect(lines.at(-1)).toMatchObject({ method: 'GET', url: '/api/auth/me', status: 200 });
  });
});
