/** The fetch against real HTTP servers on 127.0.0.1 (allowPrivate, as LINK_PREVIEW_ALLOW_PRIVATE=1 lets it). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefusedEndpointError } from '../../net/ssrf.guard.js';
import {
  LinkFetchError,
  MAX_REDIRECTS,
  PAGE_MAX_BYTES,
  type SafeFetchOptions,
  safeFetch,
} from './link-card.fetch.js';

const hits: string[] = [];
/** Answers held open (the timeout test) are let go at the end. */
const held: http.ServerResponse[] = [];
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (hop) {
      const n = Number(hop[1]);
      if (n === 0) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<title>arrived</title>');
      } else {
        res.writeHead(302, { location: `/hop/${n - 1}` });
        res.end();
      }
      return;
    }
    switch (path) {
      case '/page':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<title>hello</title>');
        return;
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"title":"no"}');
        return;
      case '/huge': {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        // 3 MB: more than the cap, streamed as a server would.
        let sent = 0;
        const push = () => {
          while (sent < 48) {
            sent += 1;
            if (!res.write(chunk)) return void res.once('drain', push);
          }
          res.end();
        };
        push();
        return;
      }
      case '/hang':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<title>slow');
        held.push(res);
        return;
      case '/to-elsewhere':
        res.writeHead(301, { location: 'http://redirected.cubes-e2e.net/latest/meta-data/' });
        res.end();
        return;
      case '/to-file':
        res.writeHead(302, { location: 'file:///etc/passwd' });
        res.end();
        return;
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(6 * 1024 * 1024) });
        res.end();
        return;
      default:
        res.writeHead(404);
        res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const html: SafeFetchOptions = {
  allowPrivate: true,
  accept: (type) => type === 'text/html',
  acceptHeader: 'text/html',
  maxBytes: PAGE_MAX_BYTES,
  overLimit: 'cut',
};

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: Error) => error,
  );
}

describe('safeFetch', () => {
  it('fetches a page, following redirects up to MAX_REDIRECTS', async () => {
    const page = await safeFetch(`${base}/page`, html);
    expect(page.body.toString()).toBe('<title>hello</title>');
    expect(page.mediaType).toBe('text/html');
    const followed = await safeFetch(`${base}/hop/${MAX_REDIRECTS}`, html);
    expect(followed.url.pathname).toBe('/hop/0');
    expect(followed.charset).toBe('utf-8');
    hits.length = 0;
    const error = await failure(safeFetch(`${base}/hop/${MAX_REDIRECTS + 1}`, html));
    expect(error).toBeInstanceOf(LinkFetchError);
    expect(error.message).toBe(`more than ${MAX_REDIRECTS} redirects`);
    // The sixth redirect is not followed.
    expect(hits).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('refuses other content types without reading them', async () => {
    const error = await failure(safeFetch(`${base}/json`, html));
    expect(error.message).toBe('content type application/json is not taken');
  });

  it('cuts a page at 1 MB, and refuses an image over its cap by its length', async () => {
    const page = await safeFetch(`${base}/huge`, html);
    expect(page.cut).toBe(true);
    expect(page.body.length).toBe(PAGE_MAX_BYTES);
    const image = await failure(
      safeFetch(`${base}/image`, {
        ...html,
        accept: (type) => type === 'image/png',
        maxBytes: 5 * 1024 * 1024,
        overLimit: 'refuse',
      }),
    );
    expect(image.message).toBe(`larger than ${5 * 1024 * 1024} bytes`);
  });

  it('gives up after its time', async () => {
    const error = await failure(safeFetch(`${base}/hang`, { ...html, timeoutMs: 300 }));
    expect(error).toBeInstanceOf(LinkFetchError);
    expect(error.message).toBe('timed out');
  });

  it('without allowPrivate, refuses private, loopback, link-local and metadata addresses before connecting', async () => {
    hits.length = 0;
    const closed = { ...html, allowPrivate: false };
    for (const url of [
      `${base}/page`,
      'http://localhost/',
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[fd00:ec2::254]/',
      'http://0x7f.1/',
    ]) {
      expect(await failure(safeFetch(url, closed))).toBeInstanceOf(RefusedEndpointError);
    }
    // A name that resolves to a private address is refused too (the resolver is asked first).
    const rebinding = await failure(
      safeFetch('http://rebind.cubes-e2e.net/', {
        ...closed,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      }),
    );
    expect(rebinding.message).toBe('rebind.cubes-e2e.net resolves to 127.0.0.1, not a public address');
    // Special-use names are refused without asking any resolver.
    for (const url of [
      'https://example.com/',
      'http://cubes.test/',
      'https://www.example.org/a',
      'http://printer.local/',
    ]) {
      expect((await failure(safeFetch(url, closed))).message).toMatch(/is a special-use name$/);
    }
    expect(hits).toEqual([]);
  });

  it('checks every redirect again: its scheme, and its host resolved through the guard', async () => {
    expect((await failure(safeFetch(`${base}/to-file`, html))).message).toBe('scheme file: is not allowed');
    const asked: string[] = [];
    const hop = await failure(
      safeFetch(`${base}/to-elsewhere`, {
        ...html,
        resolve: async (host) => {
          asked.push(host);
          return [];
        },
      }),
    );
    expect(hop).toBeInstanceOf(RefusedEndpointError);
    expect(hop.message).toBe('redirected.cubes-e2e.net does not resolve');
    expect(asked).toEqual(['redirected.cubes-e2e.net']);
  });

  it('refuses hostile URLs', async () => {
    for (const url of [
      'javascript:alert(1)',
      `http://x.io/${'a'.repeat(70_000)}\u0000`,
      'ftp://x.io/',
      'not a url',
    ]) {
      expect(await failure(safeFetch(url, { ...html, allowPrivate: false }))).toBeInstanceOf(Error);
    }
  });
});
