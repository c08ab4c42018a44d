/**
 * Issue #26: the upload race, against a real listening server (127.0.0.1, no inject). A PUT whose
 * body trickles in small chunks with pauses races set-acl; whatever the order, /objects serves
 * only the image set-acl re-encoded, with a type of our own choosing, never the racing bytes.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { isLocalStorage, type LocalStorage } from '@cubes/storage';
import sharp from 'sharp';
import { describe, expect, vi } from 'vitest';
import { it } from './fixtures.js';
import type { TestApp } from './harness.js';
import { MIN_WAIT_MS } from './live-client.js';
import { api, registerOver } from './over-http.js';

let storage: LocalStorage;
it.beforeAll(async ({ t }) => {
  if (!isLocalStorage(t.storage)) throw new Error('expected the local driver');
  storage = t.storage;
});

const HTML = Buffer.from(
  `<!doctype html><html><body><script src="/objects/uploads/evil.js"></script><script>alert(document.cookie)</script>${'<!-- padding -->'.repeat(30)}</body></html>`,
);

function png(width = 1, height = 1) {
  return sharp({ create: { width, height, channels: 3, background: '#e0457b' } })
    .png()
    .toBuffer();
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A PUT of `body` in `chunk`-byte pieces with `pauseMs` between them (curl --limit-rate). `done`
 * settles with the server's answer, also when the server answers early and stops reading.
 * `abort()` drops the connection half-way.
 */
function slowPut(base: string, url: string, body: Buffer, contentType: string, chunk = 16, pauseMs = 40) {
  const req = http.request(`${base}${url}`, {
    method: 'PUT',
    headers: { 'content-type': contentType, 'content-length': String(body.length) },
  });
  let aborted = false;
  const done = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    // Writes after an early answer may fail (EPIPE, reset): the answer is what counts.
    req.on('error', (error) => {
      if (aborted) resolve({ status: 0, headers: {}, body: '' });
      else setTimeout(() => reject(error), 500);
    });
  });
  let markBegun: () => void = () => {};
  /** Settles once the first piece is out on the socket: the PUT is on its way. */
  const begun = new Promise<void>((resolve) => {
    markBegun = resolve;
  });
  const sent = (async () => {
    for (let i = 0; i < body.length && !aborted && !req.destroyed; i += chunk) {
      req.write(body.subarray(i, i + chunk), () => markBegun());
      // A slow client's own pace (what is simulated), not a wait for something.
      await sleep(pauseMs);
    }
    if (!aborted && !req.destroyed) req.end();
  })();
  return {
    done,
    sent,
    begun,
    abort() {
      aborted = true;
      req.destroy();
    },
  };
}

async function uploadUrl(base: string, cookie: string): Promise<string> {
  const res = await api(base, 'POST', '/api/objects/upload', cookie);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.uploadURL as string;
}

function setAcl(base: string, cookie: string, imageURL: string) {
  return api(base, 'PUT', '/api/objects/set-acl', cookie, { imageURL, visibility: 'public' });
}

async function fetchPut(base: string, url: string, body: Buffer, contentType = 'image/png') {
  const res = await fetch(`${base}${url}`, { method: 'PUT', body, headers: { 'content-type': contentType } });
  return { status: res.status, body: await res.text() };
}

async function uploadState(t: TestApp, imageURL: string): Promise<string | undefined> {
  const id = /([0-9a-f-]{36})/.exec(imageURL)![1]!;
  const rows = await t.orm.em
    .fork()
    .execute<{ upload_state: string }[]>('select upload_state from uploaded_objects where key = ?', [
      `uploads/${id}`,
    ]);
  return rows[0]?.upload_state;
}

async function waitForState(t: TestApp, imageURL: string, state: string): Promise<void> {
  await vi.waitFor(async () => expect(await uploadState(t, imageURL), `the upload's state`).toBe(state), {
    timeout: MIN_WAIT_MS,
    interval: 10,
  });
}

/** What GET /objects/<path> serves, as a browser would get it. */
async function served(base: string, objectPath: string) {
  const res = await fetch(`${base}${objectPath}`);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

function expectSafeHeaders(headers: Headers) {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
}

describe('the upload race over real HTTP', () => {
  it('a slow second PUT of HTML racing set-acl never becomes what /objects serves', async ({ base }) => {
    const { cookie } = await registerOver(base, 'racer1');
    const uploadURL = await uploadUrl(base, cookie);
    const image = await png();
    expect((await fetchPut(base, uploadURL, image)).status).toBe(200);

    // The steps 3–5: a slow HTML PUT to the same URL, set-acl while it runs.
    const slow = slowPut(base, uploadURL, HTML, 'text/html');
    await slow.begun;
    const acl = await setAcl(base, cookie, uploadURL);
    expect(acl.status, JSON.stringify(acl.body)).toBe(200);
    const objectPath = acl.body.objectPath as string;
    expect(objectPath).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
    const second = await slow.done;
    await slow.sent;
    // The URL was good for one PUT: the second one is refused.
    expect(second.status, second.body).toBe(403);
    expect(JSON.parse(second.body)).toMatchObject({ code: 'FORBIDDEN' });

    const res = await served(base, objectPath);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe('inline');
    expectSafeHeaders(res.headers);
    expect(res.bytes.includes('<script')).toBe(false);
    expect(await sharp(res.bytes).metadata()).toMatchObject({ format: 'png', width: 1, height: 1 });
  });

  it('set-acl while the only PUT is still arriving is refused (409); after it, it publishes', async ({
    t,
    base,
  }) => {
    const { cookie } = await registerOver(base, 'racer2');
    const uploadURL = await uploadUrl(base, cookie);
    const image = await png(40, 30);
    const slow = slowPut(base, uploadURL, image, 'image/png', Math.ceil(image.length / 20), 40);
    await waitForState(t, uploadURL, 'receiving');
    const early = await setAcl(base, cookie, uploadURL);
    expect(early.status, JSON.stringify(early.body)).toBe(409);
    expect(early.body).toEqual({
      message: 'The upload is still in progress: publish it once it has finished',
      code: 'CONFLICT',
      reason: 'UPLOAD_IN_PROGRESS',
    });
    // A second PUT at the same time is refused too: one PUT per URL at a time.
    const concurrent = await fetchPut(base, uploadURL, await png(2, 2));
    expect(concurrent.status, concurrent.body).toBe(409);
    expect(JSON.parse(concurrent.body)).toEqual({
      message: 'Another upload to this URL is in progress',
      code: 'CONFLICT',
      reason: 'UPLOAD_BUSY',
    });

    const first = await slow.done;
    expect(first.status, first.body).toBe(200);
    expect(await uploadState(t, uploadURL)).toBe('uploaded');
    const acl = await setAcl(base, cookie, uploadURL);
    expect(acl.status, JSON.stringify(acl.body)).toBe(200);
    const res = await served(base, acl.body.objectPath as string);
    expect(await sharp(res.bytes).metadata()).toMatchObject({ format: 'png', width: 40, height: 30 });
    // Published: the URL is spent.
    expect((await fetchPut(base, uploadURL, HTML, 'text/html')).status).toBe(403);
  });

  it('a PUT while set-acl is publishing is refused, and the published image stays', async ({ t, base }) => {
    const { cookie } = await registerOver(base, 'racer3');
    const uploadURL = await uploadUrl(base, cookie);
    // A big image keeps set-acl busy re-encoding for a while.
    const image = await sharp({
      create: {
        width: 3000,
        height: 3000,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .jpeg({ quality: 60 })
      .toBuffer();
    expect((await fetchPut(base, uploadURL, image, 'image/jpeg')).status).toBe(200);
    const acl = setAcl(base, cookie, uploadURL);
    await waitForState(t, uploadURL, 'publishing');
    const late = await fetchPut(base, uploadURL, HTML, 'text/html');
    expect(late.status, late.body).toBe(403);
    const done = await acl;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const res = await served(base, done.body.objectPath as string);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(await sharp(res.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 3000, height: 3000 });
  });

  it('an aborted PUT leaves the URL usable for one complete PUT', async ({ t, base }) => {
    const { cookie } = await registerOver(base, 'racer4');
    const uploadURL = await uploadUrl(base, cookie);
    const image = await png(64, 64);
    const slow = slowPut(base, uploadURL, image, 'image/png', 8, 30);
    await waitForState(t, uploadURL, 'receiving');
    slow.abort();
    await slow.done;
    await waitForState(t, uploadURL, 'pending');
    expect((await setAcl(base, cookie, uploadURL)).status).toBe(404); // nothing arrived
    expect((await fetchPut(base, uploadURL, image)).status).toBe(200);
    expect((await fetchPut(base, uploadURL, image)).status).toBe(403);
    const acl = await setAcl(base, cookie, uploadURL);
    expect(acl.status, JSON.stringify(acl.body)).toBe(200);
    expect(storage.kind).toBe('local');
  });
});
