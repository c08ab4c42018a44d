/** The upload flow end to end on the local driver: signed PUT, set-acl, /objects serving, sweep. */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sweepOrphanUploads } from '@cubes/api';
import { UploadedObject } from '@cubes/db';
import { isLocalStorage, type LocalStorage, signUpload } from '@cubes/storage';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { registerUser, TEST_UPLOAD_SECRET, type TestApp } from './harness.js';

let storage: LocalStorage;
it.beforeAll(async ({ t }) => {
  if (!isLocalStorage(t.storage)) throw new Error('expected the local driver');
  storage = t.storage;
});

const MB5 = 5 * 1024 * 1024;
const INVALID_IMAGE = 'Only PNG, JPEG, GIF or WebP images up to 5 MB are allowed';

function png(width = 1200, height = 900) {
  return sharp({ create: { width, height, channels: 3, background: '#e0457b' } })
    .png()
    .toBuffer();
}

/** A fresh upload URL; `incoming` is the key it writes, `key` the one set-acl publishes to. */
async function uploadUrl(
  t: TestApp,
  cookie: string,
): Promise<{ uploadURL: string; incoming: string; key: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  const { uploadURL } = res.json() as { uploadURL: string };
  const incoming = new URL(uploadURL, 'http://x').pathname.replace('/api/objects/put/', '');
  expect(incoming).toMatch(/^incoming\/[0-9a-f-]{36}$/);
  return { uploadURL, incoming, key: incoming.replace(/^incoming\//, 'uploads/') };
}

const onDisk = (key: string) => existsSync(path.join(storage.root, key));

/** What every answer under /objects/ carries. */
function expectObjectHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toBe("default-src 'none'; sandbox");
}

function put(t: TestApp, url: string, payload: Buffer | Readable, contentType = 'image/png') {
  return t.app.inject({ method: 'PUT', url, payload, headers: { 'content-type': contentType } });
}

function setAcl(t: TestApp, cookie: string, imageURL: string) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/objects/set-acl',
    headers: { cookie },
    payload: { imageURL, visibility: 'public' },
  });
}

async function uploadImage(t: TestApp, cookie: string, bytes: Buffer, type = 'image/png') {
  const { uploadURL, incoming, key } = await uploadUrl(t, cookie);
  const res = await put(t, uploadURL, bytes, type);
  expect(res.statusCode, res.body).toBe(200);
  const acl = await setAcl(t, cookie, uploadURL);
  expect(acl.statusCode, acl.body).toBe(200);
  return { uploadURL, incoming, key, objectPath: (acl.json() as { objectPath: string }).objectPath };
}

describe('local uploads', () => {
  it('upload URL → PUT → set-acl → GET: bytes, type, ETag, a year of caching, a thumbnail', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const { uploadURL, incoming, key } = await uploadUrl(t, cookie);
    expect(uploadURL).toMatch(/^\/api\/objects\/put\/incoming\/[0-9a-f-]{36}\?expires=\d+&sig=[0-9a-f]{64}$/);
    const expires = Number(new URL(uploadURL, 'http://x').searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeGreaterThan(14 * 60);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(15 * 60);

    const stored = await put(t, uploadURL, await png());
    expect(stored.statusCode, stored.body).toBe(200);
    expect(onDisk(incoming)).toBe(true);
    // Before set-acl the object is private: not served, under either key.
    for (const url of [`/objects/${key}`, `/objects/${incoming}`]) {
      const hidden = await t.app.inject({ method: 'GET', url });
      expect(hidden.statusCode, url).toBe(404);
      expectObjectHeaders(hidden.headers);
    }

    const acl = await setAcl(t, cookie, `http://localhost${uploadURL}`);
    expect(acl.statusCode, acl.body).toBe(200);
    expect(acl.json()).toEqual({ objectPath: `/objects/${key}` });

    // Published under its own key; the upload itself is gone.
    expect(onDisk(key)).toBe(true);
    expect(onDisk(incoming)).toBe(false);
    const res = await t.app.inject({ method: 'GET', url: `/objects/${key}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe('inline');
    expectObjectHeaders(res.headers);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.etag).toMatch(/^".+"$/);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'png', width: 1200, height: 900 });

    const again = await t.app.inject({
      method: 'GET',
      url: `/objects/${key}`,
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expectObjectHeaders(again.headers);

    for (const url of [`/objects/${key}/thumb`, `/objects/${key}?thumb=1`]) {
      const thumb = await t.app.inject({ method: 'GET', url });
      expect(thumb.statusCode, url).toBe(200);
      // Thumbnails are WebP whatever the image's type: what lists load on a phone.
      expect(thumb.headers['content-type']).toBe('image/webp');
      expectObjectHeaders(thumb.headers);
      expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({
        format: 'webp',
        width: 640,
        height: 480,
      });
    }
    const row = await t.orm.em.fork().findOneOrFail(UploadedObject, { key });
    expect(row).toMatchObject({ visibility: 'public', contentType: 'image/png', width: 1200, height: 900 });

    // Public objects are final: the upload URL no longer writes.
    const late = await put(t, uploadURL, await png(10, 10));
    expect(late.statusCode).toBe(403);
    expect(late.json()).toEqual({
      message: 'This upload URL has already been used',
      code: 'FORBIDDEN',
      reason: 'UPLOAD_URL_USED',
    });
    expect(onDisk(incoming)).toBe(false);
  });

  it('takes one PUT per URL and never records the Content-Type the client sent', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const { uploadURL, key } = await uploadUrl(t, cookie);
    const first = await put(t, uploadURL, Buffer.from('<html><script>alert(1)</script></html>'), 'text/html');
    expect(first.statusCode, first.body).toBe(200);
    const row = await t.orm.em.fork().findOneOrFail(UploadedObject, { key });
    expect(row).toMatchObject({ contentType: null, visibility: 'private', uploadState: 'uploaded' });
    const second = await put(t, uploadURL, await png(10, 10));
    expect(second.statusCode).toBe(403);
    expect(second.json()).toEqual({
      message: 'This upload URL has already been used',
      code: 'FORBIDDEN',
      reason: 'UPLOAD_URL_USED',
    });
  });

  it('serves a stored type only from the image allow-list: anything else is an octet-stream download', async ({
    t,
  }) => {
    const { cookie } = await registerUser(t.app);
    const { key, objectPath } = await uploadImage(t, cookie, await png(20, 20));
    // A row whose type is not one set-acl writes (an old row, a bug, a hand edit).
    await t.orm.em
      .fork()
      .execute(`update uploaded_objects set content_type = 'text/html' where key = ?`, [key]);
    for (const url of [objectPath, `${objectPath}/thumb`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toBe('attachment');
      expectObjectHeaders(res.headers);
    }
    // The page's own CSP is not what /objects/ answers carry, and the page keeps its own.
    const page = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('a thumbnail made before thumbnails were WebP is served with its image’s own type', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const { key, objectPath } = await uploadImage(t, cookie, await png(20, 20));
    // As rows and files written before: the thumbnail in the image's format, under `<key>-thumb`.
    await storage.put(`${key}-thumb`, await png(20, 20), 'image/png');
    await t.orm.em
      .fork()
      .execute(`update uploaded_objects set thumb_key = ? where key = ?`, [`${key}-thumb`, key]);
    const res = await t.app.inject({ method: 'GET', url: `${objectPath}/thumb` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'png' });
  });

  it('caps the long side at 4096 px', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const big = await sharp({ create: { width: 5000, height: 1000, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    const { objectPath } = await uploadImage(t, cookie, big, 'image/jpeg');
    const res = await t.app.inject({ method: 'GET', url: objectPath });
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({
      format: 'jpeg',
      width: 4096,
      height: 819,
    });
  });

  it('needs a login for upload URLs and set-acl', async ({ t }) => {
    expect((await t.app.inject({ method: 'POST', url: '/api/objects/upload' })).statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/objects/set-acl',
      payload: { imageURL: '/objects/uploads/x', visibility: 'public' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses expired, tampered and foreign-key signatures with 403', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const { uploadURL, incoming, key } = await uploadUrl(t, cookie);
    const url = new URL(uploadURL, 'http://x');
    const sig = url.searchParams.get('sig')!;
    const expires = Number(url.searchParams.get('expires'));
    const past = Math.floor(Date.now() / 1000) - 1;
    const other = (await uploadUrl(t, cookie)).incoming;
    const signed = (k: string) =>
      `/api/objects/put/${k}?expires=${expires}&sig=${signUpload(TEST_UPLOAD_SECRET, k, expires)}`;
    for (const bad of [
      `/api/objects/put/${incoming}?expires=${past}&sig=${signUpload(TEST_UPLOAD_SECRET, incoming, past)}`,
      `/api/objects/put/${incoming}?expires=${expires + 60}&sig=${sig}`,
      `/api/objects/put/${incoming}?expires=${expires}&sig=${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`,
      `/api/objects/put/${incoming}?expires=${expires}`,
      `/api/objects/put/${other}?expires=${expires}&sig=${sig}`,
      // Valid signatures for keys that were never handed out: made up, or the served key itself.
      signed('incoming/made-up'),
      signed('incoming/00000000-0000-4000-8000-000000000000'),
      signed(key),
      signed(`${key}-thumb.webp`),
    ]) {
      const res = await put(t, bad, await png(10, 10));
      expect(res.statusCode, bad).toBe(403);
      expect(res.json()).toEqual({
        message: 'Upload URL is invalid or expired',
        code: 'FORBIDDEN',
        reason: 'UPLOAD_URL_INVALID',
      });
    }
    expect(onDisk(incoming)).toBe(false);
    expect(onDisk(key)).toBe(false);
  });

  it('answers 413 past 5 MB and leaves nothing on disk (declared or streamed)', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const { uploadURL, incoming } = await uploadUrl(t, cookie);
    const declared = await put(t, uploadURL, Buffer.alloc(MB5 + 1));
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toEqual({
      message: 'File is larger than 5 MB',
      code: 'PAYLOAD_TOO_LARGE',
      reason: 'UPLOAD_TOO_LARGE',
    });

    const chunks = Array.from({ length: 6 }, () => Buffer.alloc(1024 * 1024, 1));
    const streamed = await put(t, uploadURL, Readable.from(chunks), 'application/octet-stream');
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(onDisk(incoming)).toBe(false);
    expect(await readdir(path.join(storage.root, '.tmp'))).toEqual([]);

    // Exactly 5 MB is accepted (and then refused by set-acl as not an image).
    expect((await put(t, uploadURL, Buffer.alloc(MB5))).statusCode).toBe(200);
  });

  it('answers 413 over real HTTP too, declared or chunked, and keeps serving', async ({ t, base }) => {
    const { cookie } = await registerUser(t.app);
    const { uploadURL, incoming } = await uploadUrl(t, cookie);
    const declared = await fetch(`${base}${uploadURL}`, { method: 'PUT', body: Buffer.alloc(MB5 + 10) });
    expect(declared.status).toBe(413);
    const chunked = await fetch(`${base}${uploadURL}`, {
      method: 'PUT',
      body: Readable.toWeb(
        Readable.from(Array.from({ length: 8 }, () => Buffer.alloc(1024 * 1024))),
      ) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({
      message: 'File is larger than 5 MB',
      code: 'PAYLOAD_TOO_LARGE',
      reason: 'UPLOAD_TOO_LARGE',
    });
    expect(onDisk(incoming)).toBe(false);
    const ok = await fetch(`${base}${uploadURL}`, { method: 'PUT', body: await png(20, 20) });
    expect(ok.status).toBe(200);
  });

  it('deletes text claiming to be a PNG: 400 and the object is gone', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const { uploadURL, incoming, key } = await uploadUrl(t, cookie);
    expect((await put(t, uploadURL, Buffer.from('<html><script>alert(1)</script></html>'))).statusCode).toBe(
      200,
    );
    expect(onDisk(incoming)).toBe(true);
    const res = await setAcl(t, cookie, uploadURL);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: INVALID_IMAGE, code: 'BAD_REQUEST', reason: 'INVALID_IMAGE' });
    expect(onDisk(incoming)).toBe(false);
    expect(onDisk(key)).toBe(false);
    expect(await t.orm.em.fork().findOne(UploadedObject, { key })).toBeNull();
    expect((await setAcl(t, cookie, uploadURL)).statusCode).toBe(404);
  });

  it('strips EXIF (GPS included) from JPEGs', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#123456' } })
      .jpeg()
      .withMetadata({
        exif: { IFD0: { Make: 'Spycam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '10/1 0/1 0/1' } },
      })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    expect(jpeg.includes('Spycam')).toBe(true);
    const { objectPath } = await uploadImage(t, cookie, jpeg, 'image/jpeg');
    for (const [url, type] of [
      [objectPath, 'image/jpeg'],
      [`${objectPath}/thumb`, 'image/webp'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-type']).toBe(type);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      expect(res.rawPayload.includes('Spycam')).toBe(false);
    }
  });

  it('keeps others’ uploads out of reach: 404 on set-acl, 400 on profile-image and banner-image', async ({
    t,
  }) => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const { uploadURL, key } = await uploadUrl(t, owner.cookie);
    await put(t, uploadURL, await png(20, 20));
    const res = await setAcl(t, other.cookie, uploadURL);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      message: 'Upload not found',
      code: 'NOT_FOUND',
      reason: 'UPLOAD_NOT_FOUND',
    });
    expect((await setAcl(t, owner.cookie, uploadURL)).statusCode).toBe(200);
    // Referring to someone else's image is the client's mistake, answered like a missing upload.
    for (const [url, field, message, reason] of [
      [
        '/api/users/profile-image',
        'avatarUrl',
        'Profile picture must be an image you uploaded',
        'AVATAR_NOT_YOURS',
      ],
      ['/api/users/banner-image', 'headerUrl', 'Banner must be an image you uploaded', 'BANNER_NOT_YOURS'],
    ]) {
      const denied = await t.app.inject({
        method: 'PUT',
        url,
        headers: { cookie: other.cookie },
        payload: { objectPath: `/objects/${key}` },
      });
      expect(denied.statusCode, url).toBe(400);
      expect(denied.json()).toEqual({ message, code: 'BAD_REQUEST', reason });
      const viaSettings = await t.app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: { cookie: other.cookie },
        payload: { [field!]: `/objects/${key}` },
      });
      expect(viaSettings.statusCode, field).toBe(400);
      expect(viaSettings.json()).toEqual(denied.json());
    }
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile-image',
      headers: { cookie: owner.cookie },
      payload: { objectPath: 'https://elsewhere.example/a.png' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'objectPath must be an uploaded image path' });
  });

  it('profile-image and banner-image set the caller’s avatarUrl and headerUrl', async ({ t }) => {
    const { cookie, user } = await registerUser(t.app);
    const { objectPath } = await uploadImage(t, cookie, await png(400, 400));
    const avatar = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile-image',
      headers: { cookie },
      payload: { objectPath },
    });
    expect(avatar.statusCode, avatar.body).toBe(200);
    expect(avatar.json().user).toMatchObject({ id: user.id, avatarUrl: objectPath });
    const banner = await t.app.inject({
      method: 'PUT',
      url: '/api/users/banner-image',
      headers: { cookie },
      payload: { objectPath },
    });
    expect(banner.json().user).toMatchObject({ id: user.id, avatarUrl: objectPath, headerUrl: objectPath });
  });

  it('posts take only the author’s own public image', async ({ t }) => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const { objectPath } = await uploadImage(t, owner.cookie, await png(50, 50));
    const stolen = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie: other.cookie },
      payload: { content: 'mine now', imageUrl: objectPath },
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toEqual({
      message: 'Image not found: upload it first',
      code: 'BAD_REQUEST',
      reason: 'IMAGE_NOT_FOUND',
    });
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: other.cookie },
      payload: { avatarUrl: objectPath },
    });
    expect(settings.statusCode).toBe(400);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie: owner.cookie },
      payload: { content: 'my picture', imageUrl: objectPath },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().post.imageUrl).toBe(objectPath);
  });

  it('answers 404 JSON to traversal, malformed and unknown paths', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const { key, incoming } = await uploadImage(t, cookie, await png(30, 30));
    for (const url of [
      `/objects/${incoming}`,
      '/objects/../package.json',
      '/objects/..%2F..%2Fpackage.json',
      '/objects/%2e%2e/%2e%2e/etc/passwd',
      `/objects/${key}/../../upload-secret`,
      '/objects/.tmp/x',
      '/objects/uploads/00000000-0000-4000-8000-000000000000',
      `/objects/${key}-thumb.webp`,
      '/objects/',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('sweeps private uploads older than 24 h and keeps public ones in use', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const orphan = await uploadUrl(t, cookie);
    await put(t, orphan.uploadURL, await png(10, 10));
    const kept = await uploadImage(t, cookie, await png(10, 10));
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie },
      payload: { content: 'with an image', imageUrl: kept.objectPath },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const fresh = await uploadUrl(t, cookie);
    const em = t.orm.em.fork();
    await em.execute(
      `update uploaded_objects set created_at = now() - interval '25 hours' where key in (?, ?)`,
      [orphan.key, kept.key],
    );
    const swept = await sweepOrphanUploads(t.orm.em.fork(), storage, new Date());
    expect(swept).toBeGreaterThanOrEqual(1);
    const check = t.orm.em.fork();
    expect(await check.findOne(UploadedObject, { key: orphan.key })).toBeNull();
    expect(onDisk(orphan.incoming)).toBe(false);
    expect(await check.findOne(UploadedObject, { key: kept.key })).not.toBeNull();
    expect((await t.app.inject({ method: 'GET', url: kept.objectPath })).statusCode).toBe(200);
    expect(await check.findOne(UploadedObject, { key: fresh.key })).not.toBeNull();

    // Incoming bytes nothing will publish go at once (a public upload's, one without a row, as
    // a late S3 PUT or a deleted account leaves); an upload waiting for set-acl keeps its own.
    const waiting = await uploadUrl(t, cookie);
    expect((await put(t, waiting.uploadURL, await png(10, 10))).statusCode).toBe(200);
    const stray = 'incoming/00000000-0000-4000-8000-000000000001';
    await storage.put(kept.incoming, Buffer.from('<html>late</html>'), 'text/html');
    await storage.put(stray, Buffer.from('<html>stray</html>'), 'text/html');
    expect(await sweepOrphanUploads(t.orm.em.fork(), storage, new Date())).toBe(2);
    expect(onDisk(kept.incoming)).toBe(false);
    expect(onDisk(stray)).toBe(false);
    expect(onDisk(waiting.incoming)).toBe(true);
    expect((await setAcl(t, cookie, waiting.uploadURL)).statusCode).toBe(200);

    // Once the post that showed it is deleted, the image goes: row, bytes and thumbnail.
    const postId = (posted.json() as { post: { id: string } }).post.id;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${postId}`,
      headers: { cookie },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await sweepOrphanUploads(t.orm.em.fork(), storage, new Date())).toBeGreaterThanOrEqual(1);
    expect(await t.orm.em.fork().findOne(UploadedObject, { key: kept.key })).toBeNull();
    expect(onDisk(kept.key)).toBe(false);
    expect(onDisk(`${kept.key}-thumb.webp`)).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: kept.objectPath })).statusCode).toBe(404);
  });
});
