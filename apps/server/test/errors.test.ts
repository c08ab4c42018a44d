/**
 * Errors raised before a procedure runs — by Fastify (body parsing, routing) or by Node's HTTP
 * parser — answer in the contract's shape on /api, /trpc and /objects alike.
 */

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { restRows } from '@cubes/api';
import type { InjectOptions } from 'fastify';
import { describe, expect } from 'vitest';
import { JSON_BODY_LIMIT } from '../src/app.js';
import { contractError } from './error-shape.js';
import { it } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';

let cookie: string;
it.beforeAll(async ({ t }) => {
  ({ cookie } = await registerUser(t.app));
});

type Request = InjectOptions & { method: string; url: string };

async function expectError(t: TestApp, request: Request, status: number, code: string, message?: RegExp) {
  const res = await t.app.inject({ ...request, headers: { cookie, ...request.headers } });
  const error = contractError(res, request);
  expect({ status: error.status, code: error.code }, `${request.method} ${request.url}`).toEqual({
    status,
    code,
  });
  if (message) expect(error.message, `${request.method} ${request.url}`).toMatch(message);
  return error;
}

const JSON_TYPE = { 'content-type': 'application/json' };
/** A write on each side of the server: a REST row, its tRPC procedure. */
const WRITES = ['/api/posts', '/trpc/posts.create'];

describe('bodies Fastify refuses before any procedure runs', () => {
  it.for(WRITES)('%s: invalid JSON is 400', async (url, { t }) => {
    for (const payload of ['{bad json', '{"content":', '[1,', '\u0000']) {
      await expectError(
        t,
        { method: 'POST', url, headers: JSON_TYPE, payload },
        400,
        'BAD_REQUEST',
        /not valid JSON/,
      );
    }
    // A prototype key is refused by the REST body parser; tRPC parses it, and the input fails.
    await expectError(
      t,
      { method: 'POST', url, headers: JSON_TYPE, payload: '{"__proto__":{"x":1}}' },
      400,
      'BAD_REQUEST',
    );
  });

  it.for(WRITES)('%s: an empty body with a JSON content type is 400', async (url, { t }) => {
    await expectError(t, { method: 'POST', url, headers: JSON_TYPE, payload: '' }, 400, 'BAD_REQUEST');
  });

  it.for(WRITES)('%s: an unsupported content type is 415', async (url, { t }) => {
    for (const type of [
      'application/xml',
      'multipart/form-data; boundary=x',
      'Multipart/Form-Data',
      'image/png',
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
    ]) {
      await expectError(
        t,
        { method: 'POST', url, headers: { 'content-type': type }, payload: '<a/>' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
  });

  it('every REST write refuses a body that is not JSON with 415, text/plain holding JSON included (issue #45)', async ({
    t,
  }) => {
    const writes = restRows.filter((r) => r.method !== 'GET');
    for (const route of writes) {
      const url = route.path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      for (const headers of [
        { 'content-type': 'text/plain' },
        { 'content-type': 'text/plain;charset=UTF-8' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        { 'content-type': 'multipart/form-data; boundary=x' },
        {},
      ]) {
        await expectError(
          t,
          { method: route.method, url, headers, payload: '{"content":"a post"}' },
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          /send JSON/,
        );
      }
    }
    expect(writes.length).toBeGreaterThan(40);
  });

  it('/trpc: a mutation without a body or content type is 415, labelled JSON', async ({ t }) => {
    // tRPC's own answer, which it sends as text/plain.
    await expectError(t, { method: 'POST', url: '/trpc/posts.create' }, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it.for(WRITES)('%s: a body over the limit is 413', async (url, { t }) => {
    const payload = JSON.stringify({ json: { content: 'x'.repeat(JSON_BODY_LIMIT) } });
    await expectError(
      t,
      { method: 'POST', url, headers: JSON_TYPE, payload },
      413,
      'PAYLOAD_TOO_LARGE',
      /too large \(limit 64 KB\)/,
    );
  });

  it.for(WRITES)('%s: a body shorter than its Content-Length is 400', async (url, { t }) => {
    await expectError(
      t,
      { method: 'POST', url, headers: { ...JSON_TYPE, 'content-length': '3' }, payload: '{"json":{}}' },
      400,
      'BAD_REQUEST',
    );
  });
});

describe('URLs Fastify cannot route', () => {
  const malformed = ['%', '%zz', '%E0%A4%A', '%ED%A0%80', 'a%'];
  const places = [
    (s: string) => `/api/users/by-username/${s}`,
    (s: string) => `/api/posts/${s}/comments`,
    (s: string) => `/trpc/${s}`,
    (s: string) => `/objects/uploads/${s}`,
    (s: string) => `/api/objects/put/${s}`,
  ];

  it('answers a malformed %-encoding with 400 everywhere', async ({ t }) => {
    for (const place of places) {
      for (const bad of malformed) {
        const method = place('').startsWith('/api/objects/put/') ? 'PUT' : 'GET';
        await expectError(t, { method, url: place(bad) }, 400, 'BAD_REQUEST', /URL is malformed/);
      }
    }
  });

  it('answers an over-long path parameter with 400 (or 404 where it names no object)', async ({ t }) => {
    const long = 'a'.repeat(6000);
    await expectError(
      t,
      { method: 'GET', url: `/api/users/by-username/${long}` },
      400,
      'BAD_REQUEST',
      /too long/,
    );
    await expectError(
      t,
      { method: 'POST', url: `/api/users/${long}/follow` },
      400,
      'BAD_REQUEST',
      /too long/,
    );
    await expectError(t, { method: 'GET', url: `/trpc/${long}` }, 400, 'BAD_REQUEST', /too long/);
    // /objects/* is a wildcard, not a parameter: any length is looked up, and names nothing.
    await expectError(t, { method: 'GET', url: `/objects/uploads/${long}` }, 404, 'NOT_FOUND');
  });

  it('answers an unknown method on a known path in the contract shape', async ({ t }) => {
    // A REST row's path asked with a method it does not have: 405 (the Allow header: http.test.ts).
    await expectError(
      t,
      { method: 'PATCH', url: '/api/posts' },
      405,
      'METHOD_NOT_SUPPORTED',
      /it takes POST/,
    );
    await expectError(t, { method: 'OPTIONS', url: '/api/health' }, 405, 'METHOD_NOT_SUPPORTED');
    await expectError(t, { method: 'PUT', url: '/objects/uploads/x' }, 404, 'NOT_FOUND');
    await expectError(t, { method: 'DELETE', url: '/api/objects/put/x' }, 404, 'NOT_FOUND');
    // tRPC's own answers: a query over POST and a mutation over GET are 405.
    await expectError(t, { method: 'GET', url: '/trpc/posts.create' }, 405, 'METHOD_NOT_SUPPORTED');
    await expectError(
      t,
      { method: 'POST', url: '/trpc/posts.feed', headers: JSON_TYPE, payload: '{}' },
      405,
      'METHOD_NOT_SUPPORTED',
    );
    await expectError(t, { method: 'GET', url: '/trpc/no.such' }, 404, 'NOT_FOUND');
    // The WebSocket address, asked over plain HTTP.
    await expectError(t, { method: 'GET', url: '/trpc' }, 400, 'BAD_REQUEST', /WebSocket/);
  });

  it('answers NUL in a path parameter with 400 naming the field', async ({ t }) => {
    const error = await expectError(
      t,
      { method: 'GET', url: '/api/users/by-username/%00' },
      400,
      'BAD_REQUEST',
      /^Username contains characters that are not allowed$/,
    );
    expect(error.issues).toEqual([
      { path: 'username', message: error.message, reason: 'USERNAME_NOT_ALLOWED_CHARACTERS' },
    ]);
    await expectError(t, { method: 'POST', url: '/api/posts/%00/like' }, 400, 'BAD_REQUEST', /^Id contains/);
    await expectError(
      t,
      { method: 'GET', url: '/api/users/a%01b/stats' },
      400,
      'BAD_REQUEST',
      /^Id contains/,
    );
    await expectError(
      t,
      { method: 'GET', url: '/api/posts/feed?cursor=%00' },
      400,
      'BAD_REQUEST',
      /^Cursor contains/,
    );
    await expectError(t, { method: 'GET', url: '/objects/uploads/%00' }, 404, 'NOT_FOUND');
  });
});

describe('requests Node’s HTTP parser refuses (a listening server)', () => {
  let port: number;
  it.beforeAll(async ({ t }) => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });

  /** Writes `raw` to a fresh connection and reads until the server closes it. */
  function exchange(raw: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        answer += chunk;
      });
      socket.on('end', () => resolve(answer));
      socket.on('close', () => resolve(answer));
      socket.on('error', (error: NodeJS.ErrnoException) =>
        // The server may reset the rest of a request it refused; what it said first counts.
        error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(answer) : reject(error),
      );
      socket.write(raw);
    });
  }

  function parse(answer: string) {
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    const [statusLine = '', ...headerLines] = head.split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 2),
      ]),
    );
    return { statusCode: Number(statusLine.split(' ')[1]), headers, body };
  }

  it.each([
    ['/api/health', 'a URL'],
    ['/trpc/posts.feed', 'a URL'],
    ['/objects/uploads/x', 'a URL'],
  ])('answers 431 in the contract shape when %s gets %s too long for the parser', async (path) => {
    const res = parse(await exchange(`GET ${path}?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(res.statusCode).toBe(431);
    const error = contractError(res, { method: 'GET', url: path });
    expect(error).toEqual({
      status: 431,
      message: 'Request URL or headers are too large',
      code: 'BAD_REQUEST',
      reason: 'HEADERS_TOO_LARGE',
    });
  });

  it('answers 431 for headers too large, and 400 for a request that is not HTTP', async () => {
    const big = parse(
      await exchange(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`),
    );
    expect(contractError(big, { method: 'GET', url: '/api/health' }).status).toBe(431);

    for (const raw of [
      'NOT HTTP AT ALL\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nBad Header\r\n\r\n',
      '\u0000\u0001\r\n\r\n',
    ]) {
      const res = parse(await exchange(raw));
      expect(res.statusCode, raw).toBe(400);
      expect(contractError(res, { method: '?', url: raw }).message).toBe('Malformed HTTP request');
    }
  });

  it('still serves the next connection', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.status).toBe(200);
  });
});
