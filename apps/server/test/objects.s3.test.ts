/**
 * The S3 driver against a real S3-protocol server (s3rver on 127.0.0.1, a temp directory):
 * bucket creation, a presigned PUT sent with fetch, set-acl, and GET through our /objects route.
 * s3rver does not check signatures; ours are minio's, and access rules are our code's.
 */
import { sweepOrphanUploads } from '@cubes/api';
import { Client } from 'minio';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { withS3 } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';

const BUCKET = 'cubes-test';
const it = withS3(BUCKET);

async function uploadUrl(
  t: TestApp,
  cookie: string,
): Promise<{ uploadURL: string; incoming: string; key: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  const { uploadURL } = res.json() as { uploadURL: string };
  const incoming = new URL(uploadURL).pathname.slice(`/${BUCKET}/`.length);
  expect(incoming).toMatch(/^incoming\/[0-9a-f-]{36}$/);
  return { uploadURL, incoming, key: incoming.replace(/^incoming\//, 'uploads/') };
}

function setAcl(t: TestApp, cookie: string, imageURL: string) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/objects/set-acl',
    headers: { cookie },
    payload: { imageURL, visibility: 'public' },
  });
}

describe('S3 uploads', () => {
  it('creates the bucket at start-up', async ({ t, s3 }) => {
    const url = new URL(s3.endpoint);
    const client = new Client({
      endPoint: url.hostname,
      port: Number(url.port),
      useSSL: false,
      region: 'us-east-1',
      pathStyle: true,
      ...s3.credentials,
    });
    expect(await client.bucketExists(BUCKET)).toBe(true);
    await t.storage.init(); // idempotent
  });

  it('lets the page upload to the S3 endpoint (CSP connect-src)', async ({ t, s3 }) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain(`connect-src 'self' ${s3.endpoint}`);
  });

  it('presigned PUT → set-acl → GET through /objects, with a thumbnail; others get 404', async ({
    t,
    s3,
  }) => {
    const { cookie } = await registerUser(t.app);
    const other = await registerUser(t.app);
    const { uploadURL, incoming, key } = await uploadUrl(t, cookie);
    // The browser uploads to an incoming key that is never served.
    expect(uploadURL.startsWith(`${s3.endpoint}/${BUCKET}/incoming/`)).toBe(true);
    expect(uploadURL).toContain('X-Amz-Signature=');
    expect(uploadURL).toContain('X-Amz-Expires=900');

    const image = await sharp({ create: { width: 1000, height: 500, channels: 4, background: '#33aa5580' } })
      .webp()
      .toBuffer();
    const put = await fetch(uploadURL, {
      method: 'PUT',
      body: image,
      headers: { 'content-type': 'image/webp' },
    });
    expect(put.status).toBe(200);
    expect(await t.storage.stat(incoming)).toMatchObject({ size: image.length });
    expect(await t.storage.stat(key)).toBeNull();

    // Not public yet: our route does not serve it.
    expect((await t.app.inject({ method: 'GET', url: `/objects/${key}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/objects/${incoming}` })).statusCode).toBe(404);
    const stolen = await t.app.inject({
      method: 'PUT',
      url: '/api/objects/set-acl',
      headers: { cookie: other.cookie },
      payload: { imageURL: uploadURL, visibility: 'public' },
    });
    expect(stolen.statusCode).toBe(404);

    const acl = await t.app.inject({
      method: 'PUT',
      url: '/api/objects/set-acl',
      headers: { cookie },
      payload: { imageURL: uploadURL, visibility: 'public' },
    });
    expect(acl.statusCode, acl.body).toBe(200);
    expect(acl.json()).toEqual({ objectPath: `/objects/${key}` });
    // Published under a key of its own; the uploaded object is deleted.
    expect(await t.storage.stat(incoming)).toBeNull();
    expect(await t.storage.stat(key)).not.toBeNull();

    const got = await t.app.inject({ method: 'GET', url: `/objects/${key}` });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/webp');
    expect(got.headers['content-disposition']).toBe('inline');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(got.headers.etag).toMatch(/^"[0-9a-f]+"$/);
    expect(await sharp(got.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 1000,
      height: 500,
    });
    const cached = await t.app.inject({
      method: 'GET',
      url: `/objects/${key}`,
      headers: { 'if-none-match': got.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);

    const thumb = await t.app.inject({ method: 'GET', url: `/objects/${key}/thumb` });
    expect(thumb.statusCode).toBe(200);
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 640,
      height: 320,
    });
  });

  it('deletes an oversized or non-image object at set-acl', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const { uploadURL, incoming, key } = await uploadUrl(t, cookie);
    // A presigned PUT cannot cap the size: set-acl checks it.
    await fetch(uploadURL, { method: 'PUT', body: Buffer.alloc(5 * 1024 * 1024 + 1, 0x89) });
    const acl = await t.app.inject({
      method: 'PUT',
      url: '/api/objects/set-acl',
      headers: { cookie },
      payload: { imageURL: uploadURL, visibility: 'public' },
    });
    expect(acl.statusCode).toBe(400);
    expect(acl.json()).toMatchObject({
      message: 'Only PNG, JPEG, GIF or WebP images up to 5 MB are allowed',
    });
    expect(await t.storage.stat(incoming)).toBeNull();
    expect(await t.storage.stat(key)).toBeNull();
  });

  it('a PUT to the presigned URL after set-acl changes nothing served, and the sweep removes it', async ({
    t,
  }) => {
    const { cookie } = await registerUser(t.app);
    const { uploadURL, incoming, key } = await uploadUrl(t, cookie);
    const image = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#224466' } })
      .png()
      .toBuffer();
    expect((await fetch(uploadURL, { method: 'PUT', body: image })).status).toBe(200);
    const acl = await setAcl(t, cookie, uploadURL);
    expect(acl.statusCode, acl.body).toBe(200);
    const objectPath = `/objects/${key}`;
    const before = await t.app.inject({ method: 'GET', url: objectPath });
    expect(before.statusCode).toBe(200);

    // The URL is still within its 15 minutes: any bytes, any size, any type.
    const html = Buffer.from(
      `<html><script>alert(document.cookie)</script>${'x'.repeat(6 * 1024 * 1024)}</html>`,
    );
    const late = await fetch(uploadURL, {
      method: 'PUT',
      body: html,
      headers: { 'content-type': 'text/html' },
    });
    expect(late.status).toBe(200); // S3 takes it: it only lands under the incoming key
    expect(await t.storage.stat(incoming)).toMatchObject({ size: html.length });

    const after = await t.app.inject({ method: 'GET', url: objectPath });
    expect(after.statusCode).toBe(200);
    expect(after.headers['content-type']).toBe('image/png');
    expect(after.headers['x-content-type-options']).toBe('nosniff');
    expect(after.rawPayload.equals(before.rawPayload)).toBe(true);
    expect(await sharp(after.rawPayload).metadata()).toMatchObject({ format: 'png', width: 60, height: 40 });
    // Calling set-acl again does not read the new bytes: the upload is already public.
    expect((await setAcl(t, cookie, uploadURL)).json()).toEqual({ objectPath });
    expect(
      (await t.app.inject({ method: 'GET', url: objectPath })).rawPayload.equals(before.rawPayload),
    ).toBe(true);

    // An upload waiting for set-acl keeps its bytes; the stray one goes.
    const waiting = await uploadUrl(t, cookie);
    expect((await fetch(waiting.uploadURL, { method: 'PUT', body: image })).status).toBe(200);
    expect(await sweepOrphanUploads(t.orm.em.fork(), t.storage, new Date())).toBeGreaterThanOrEqual(1);
    expect(await t.storage.stat(incoming)).toBeNull();
    expect(await t.storage.stat(key)).not.toBeNull();
    expect(await t.storage.stat(waiting.incoming)).not.toBeNull();
    expect((await setAcl(t, cookie, waiting.uploadURL)).statusCode).toBe(200);
  });
});
