import { UploadedObject } from '@cubes/db';
import { createMemoryStorage } from '@cubes/storage';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createMember, expectCode, useDatabase } from '../../../test/harness.js';
import {
  INVALID_IMAGE,
  incomingKeyOf,
  sweepOrphanUploads,
  UPLOAD_BEING_PUBLISHED,
  UPLOAD_IN_PROGRESS,
  UPLOAD_NOT_FOUND,
  uploadKeyFromUrl,
  uploadKeyOfIncoming,
} from './objects.service.js';

const db = useDatabase();

const storage = createMemoryStorage();
const png = () =>
  sharp({ create: { width: 800, height: 400, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();

/** The served key an upload URL publishes to. */
function keyOf(uploadURL: string): string {
  return uploadKeyFromUrl(uploadURL)!;
}

/** What the browser's PUT does: the bytes land under the URL's incoming key. */
async function upload(uploadURL: string, data: Buffer, contentType = 'image/png') {
  expect(uploadURL).toMatch(/^memory:\/\/upload\/incoming\/[0-9a-f-]{36}$/);
  await storage.put(incomingKeyOf(keyOf(uploadURL)), data, contentType);
}

describe('uploadKeyFromUrl', () => {
  it('finds our upload key in upload URLs and object paths, and nothing else', () => {
    const id = '0b7c1e2f-1111-4222-8333-444455556666';
    for (const url of [
      `/api/objects/put/incoming/${id}?expires=1&sig=ab`,
      `http://127.0.0.1:9000/cubes/incoming/${id}?X-Amz-Signature=x`,
      `/api/objects/put/uploads/${id}?expires=1&sig=ab`,
      `http://localhost:3000/api/objects/put/uploads/${id}?expires=1&sig=ab`,
      `http://127.0.0.1:9000/cubes/uploads/${id}?X-Amz-Signature=x`,
      `/objects/uploads/${id}`,
    ]) {
      expect(uploadKeyFromUrl(url), url).toBe(`uploads/${id}`);
    }
    for (const url of [
      '/objects/uploads/abc',
      `/objects/uploads/${id}/thumb`,
      `/objects/elsewhere/${id}`,
      'http://[bad',
      '',
    ]) {
      expect(uploadKeyFromUrl(url), url).toBeNull();
    }
    expect(incomingKeyOf(`uploads/${id}`)).toBe(`incoming/${id}`);
    expect(uploadKeyOfIncoming(`incoming/${id}`)).toBe(`uploads/${id}`);
    for (const bad of [`uploads/${id}`, 'incoming/x', `incoming/${id}/x`])
      expect(uploadKeyOfIncoming(bad)).toBeNull();
  });
});

describe('objects procedures', () => {
  it('upload URL → bytes → set-acl: re-encoded, measured, public, with a thumbnail', async () => {
    const { caller, user } = await createMember(db.orm, {}, { storage });
    const { uploadURL } = await caller.objects.createUploadUrl();
    const key = keyOf(uploadURL);
    await upload(uploadURL, await png(), 'text/html');
    const { objectPath } = await caller.objects.setAcl({ imageURL: uploadURL, visibility: 'public' });
    expect(objectPath).toBe(`/objects/${key}`);
    const row = await db.orm.em.fork().findOneOrFail(UploadedObject, { key });
    expect(row).toMatchObject({
      visibility: 'public',
      uploadState: 'public',
      contentType: 'image/png',
      width: 800,
      height: 400,
    });
    // Written by set-acl under the served key, with the sniffed type; the upload is gone.
    expect(storage.objects.get(key)?.contentType).toBe('image/png');
    expect(storage.objects.has(incomingKeyOf(key))).toBe(false);
    expect(row.owner.id).toBe(user.id);
    const thumb = await sharp(storage.objects.get(row.thumbKey!)!.data).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 640 });
    expect(storage.objects.get(row.thumbKey!)?.contentType).toBe('image/webp');
    // Idempotent, and accepts the object path too.
    expect(await caller.objects.setAcl({ imageURL: objectPath, visibility: 'public' })).toEqual({
      objectPath,
    });
    const { user: me } = await caller.users.setProfileImage({ objectPath });
    expect(me.avatarUrl).toBe(objectPath);
    const { user: me2 } = await caller.users.setBannerImage({ objectPath });
    expect(me2.headerUrl).toBe(objectPath);
  });

  it('refuses what is not an image, and others’ or unknown uploads', async () => {
    const { caller } = await createMember(db.orm, {}, { storage });
    const other = await createMember(db.orm, {}, { storage });
    const { uploadURL } = await caller.objects.createUploadUrl();
    await upload(uploadURL, Buffer.from('<svg/>'));
    await expectCode(other.caller.objects.setAcl({ imageURL: uploadURL, visibility: 'public' }), 'NOT_FOUND');
    await expectCode(
      caller.objects.setAcl({ imageURL: uploadURL, visibility: 'public' }),
      'BAD_REQUEST',
      INVALID_IMAGE,
    );
    expect(storage.objects.has(incomingKeyOf(keyOf(uploadURL)))).toBe(false);
    expect(storage.objects.has(keyOf(uploadURL))).toBe(false);
    expect(await db.orm.em.fork().findOne(UploadedObject, { key: keyOf(uploadURL) })).toBeNull();
    await expectCode(
      caller.objects.setAcl({ imageURL: uploadURL, visibility: 'public' }),
      'NOT_FOUND',
      UPLOAD_NOT_FOUND,
    );
    // Handed out but never uploaded: not found, the row stays for the upload to come.
    const pending = await caller.objects.createUploadUrl();
    await expectCode(
      caller.objects.setAcl({ imageURL: pending.uploadURL, visibility: 'public' }),
      'NOT_FOUND',
    );
    // Pointing the avatar at it is the client's mistake, answered like any image that is not theirs.
    await expectCode(
      caller.users.setProfileImage({ objectPath: `/objects/${keyOf(pending.uploadURL)}` }),
      'BAD_REQUEST',
      'Profile picture must be an image you uploaded',
    );
  });

  it('claims an upload once: a PUT still arriving or another set-acl is a conflict, a public one is final', async () => {
    const { caller } = await createMember(db.orm, {}, { storage });
    const { uploadURL } = await caller.objects.createUploadUrl();
    const key = keyOf(uploadURL);
    const setState = (state: string) =>
      db.orm.em.fork().execute('update uploaded_objects set upload_state = ? where key = ?', [state, key]);
    const state = async () =>
      (await db.orm.em.fork().findOneOrFail(UploadedObject, { key }, { disableIdentityMap: true }))
        .uploadState;
    const publish = () => caller.objects.setAcl({ imageURL: uploadURL, visibility: 'public' });

    // Nothing uploaded yet: not found, and the upload may still come.
    await expectCode(publish(), 'NOT_FOUND', UPLOAD_NOT_FOUND);
    expect(await state()).toBe('pending');
    await upload(uploadURL, await png());
    await setState('receiving');
    await expectCode(publish(), 'CONFLICT', UPLOAD_IN_PROGRESS);
    await setState('publishing');
    await expectCode(publish(), 'CONFLICT', UPLOAD_BEING_PUBLISHED);
    await setState('uploaded');

    // Two at once: one publishes, the other is told so or gets the same path.
    const results = await Promise.allSettled([publish(), publish()]);
    const done = results.filter((r) => r.status === 'fulfilled');
    expect(done.length).toBeGreaterThanOrEqual(1);
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as { code: string }).code).toBe('CONFLICT');
    }
    expect(await state()).toBe('public');
    const served = storage.objects.get(key)!.data;

    // Bytes reaching the incoming key afterwards (a late S3 PUT) are never read.
    await upload(uploadURL, Buffer.from('<html><script>alert(1)</script></html>'), 'text/html');
    expect(await publish()).toEqual({ objectPath: `/objects/${key}` });
    expect(storage.objects.get(key)!.data.equals(served)).toBe(true);
    expect(storage.objects.get(key)!.contentType).toBe('image/png');
  });

  it('reads no more than 5 MB even when the object grew after it was measured', async () => {
    // As an S3 PUT replacing the incoming object between set-acl's stat and its read does.
    const racing = createMemoryStorage();
    const small = { size: 100, etag: '"small"' };
    // stat says small; a whole-object read() would buffer all of it, so it must not be used.
    const grown: typeof racing = {
      ...racing,
      stat: async (key) => ((await racing.stat(key)) ? small : null),
      read: async () => {
        throw new Error('read the whole object');
      },
    };
    const { caller } = await createMember(db.orm, {}, { storage: grown });
    const { uploadURL } = await caller.objects.createUploadUrl();
    const key = keyOf(uploadURL);
    const big = Buffer.concat([await png(), Buffer.alloc(6 * 1024 * 1024)]);
    await racing.put(incomingKeyOf(key), big, 'image/png');
    await expectCode(
      caller.objects.setAcl({ imageURL: uploadURL, visibility: 'public' }),
      'BAD_REQUEST',
      INVALID_IMAGE,
    );
    expect(racing.objects.has(key)).toBe(false);
    expect(racing.objects.has(incomingKeyOf(key))).toBe(false);
  });

  it('sweeps private uploads older than a day, keeps the rest', async () => {
    const t0 = Date.now();
    let now = t0 - 25 * 3600_000;
    const { caller } = await createMember(db.orm, {}, { storage, now: () => new Date(now) });
    const oldURL = (await caller.objects.createUploadUrl()).uploadURL;
    const old = keyOf(oldURL);
    await upload(oldURL, Buffer.from('x'));
    const oldPublicURL = (await caller.objects.createUploadUrl()).uploadURL;
    const oldPublic = keyOf(oldPublicURL);
    await upload(oldPublicURL, await png());
    await caller.objects.setAcl({ imageURL: `/objects/${oldPublic}`, visibility: 'public' });
    await caller.posts.create({ content: 'uses it', imageUrl: `/objects/${oldPublic}` });
    now = t0;
    const fresh = keyOf((await caller.objects.createUploadUrl()).uploadURL);
    expect(await sweepOrphanUploads(db.orm.em.fork(), storage, new Date(t0))).toBeGreaterThanOrEqual(1);
    const em = db.orm.em.fork();
    expect(await em.findOne(UploadedObject, { key: old })).toBeNull();
    expect(storage.objects.has(incomingKeyOf(old))).toBe(false);
    expect(await em.findOne(UploadedObject, { key: oldPublic })).not.toBeNull();
    expect(storage.objects.has(oldPublic)).toBe(true);
    expect(await em.findOne(UploadedObject, { key: fresh })).not.toBeNull();
  });

  it('sweeps a public upload once the last post or profile field using it is gone', async () => {
    const t0 = Date.now();
    let now = t0 - 25 * 3600_000;
    const member = await createMember(db.orm, {}, { storage, now: () => new Date(now) });
    const publish = async () => {
      const { uploadURL } = await member.caller.objects.createUploadUrl();
      const key = keyOf(uploadURL);
      await upload(uploadURL, await png());
      await member.caller.objects.setAcl({ imageURL: `/objects/${key}`, visibility: 'public' });
      return key;
    };
    const shared = await publish(); // two posts, then an avatar, use it
    const avatar = await publish();
    const banner = await publish();
    const unused = await publish(); // made public, never used
    const { post: a } = await member.caller.posts.create({ content: 'a', imageUrl: `/objects/${shared}` });
    const { post: b } = await member.caller.posts.create({ content: 'b', imageUrl: `/objects/${shared}` });
    await member.caller.settings.update({ avatarUrl: `/objects/${avatar}`, headerUrl: `/objects/${banner}` });
    now = t0;
    const freshUnused = await publish(); // younger than a day: maybe about to be posted
    const sweep = () => sweepOrphanUploads(db.orm.em.fork(), storage, new Date(t0));
    const exists = async (key: string) =>
      (await db.orm.em.fork().findOne(UploadedObject, { key })) !== null && storage.objects.has(key);

    expect(await sweep()).toBe(1);
    expect(await exists(unused)).toBe(false);
    expect(storage.objects.has(`${unused}-thumb.webp`)).toBe(false);
    for (const key of [shared, avatar, banner, freshUnused]) expect(await exists(key)).toBe(true);

    await member.caller.posts.delete({ postId: a.id });
    expect(await sweep()).toBe(0); // post b still shows it
    await member.caller.posts.delete({ postId: b.id });
    await member.caller.settings.update({ avatarUrl: null });
    expect(await sweep()).toBe(2);
    expect(await exists(shared)).toBe(false);
    expect(await exists(avatar)).toBe(false);
    expect(await exists(banner)).toBe(true);
    expect(await exists(freshUnused)).toBe(true);
  });
});
