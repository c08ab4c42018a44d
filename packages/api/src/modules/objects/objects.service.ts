/**
 * The upload flow (SPEC §4): an upload URL for a fresh key (the row is created 'private' right
 * away so the upload route knows the key is expected), the browser PUTs the bytes, set-acl checks
 * them by their magic bytes, re-encodes them and makes the object public. Objects that never
 * become public, or that nothing uses any more, are swept after a day. A user reaches only their
 * own uploads: anything else is 404 'Upload not found'.
 */
import { randomUUID } from 'node:crypto';
import { type EntityManager, type IUploadedObject, UploadedObject, User } from '@cubes/db';
import {
  type ImageType,
  isValidKey,
  MAX_OBJECT_BYTES,
  type StorageDriver,
  sniffImageType,
} from '@cubes/storage';
import type { AuthedContext } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import { reencodeImage } from './objects.image.js';
import { keyFromObjectPath, objectPathOf, type SetAclInput } from './objects.schema.js';

export const UPLOAD_NOT_FOUND = 'Upload not found';
export const INVALID_IMAGE = 'Only PNG, JPEG, GIF or WebP images up to 5 MB are allowed';
export const IMAGE_NOT_FOUND = 'Image not found: upload it first';
/** Private uploads older than this are orphans. */
export const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

const UPLOAD_KEY = /(?:^|\/)(uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * The key an upload URL (absolute or relative, local or S3, any query) or an object path names,
 * or null. Only keys of the form we hand out (`uploads/<uuid>`) are recognised.
 */
export function uploadKeyFromUrl(imageURL: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(imageURL, 'http://relative.invalid').pathname;
  } catch {
    return null;
  }
  const match = UPLOAD_KEY.exec(pathname);
  return match ? match[1]! : null;
}

export async function createUploadUrl(ctx: AuthedContext): Promise<{ uploadURL: string }> {
  const key = `uploads/${randomUUID()}`;
  ctx.em.create(UploadedObject, {
    key,
    owner: ctx.em.getReference(User, ctx.session.user.id),
    contentType: null,
    size: null,
    visibility: 'private',
    width: null,
    height: null,
    thumbKey: null,
    createdAt: ctx.now(),
  });
  await ctx.em.flush();
  return { uploadURL: await ctx.storage.createUploadUrl(key) };
}

async function discard(ctx: AuthedContext, row: IUploadedObject): Promise<void> {
  await ctx.storage.remove(row.key);
  if (row.thumbKey) await ctx.storage.remove(row.thumbKey);
  ctx.em.remove(row);
  await ctx.em.flush();
}

export async function setObjectAcl(ctx: AuthedContext, input: SetAclInput): Promise<{ objectPath: string }> {
  const key = uploadKeyFromUrl(input.imageURL);
  if (!key) throw notFound(UPLOAD_NOT_FOUND);
  const row = await ctx.em.findOne(UploadedObject, { key, owner: ctx.session.user.id });
  if (!row) throw notFound(UPLOAD_NOT_FOUND);
  if (row.visibility === 'public') return { objectPath: objectPathOf(key) };

  const stat = await ctx.storage.stat(key);
  if (!stat) throw notFound(UPLOAD_NOT_FOUND); // the URL was handed out but nothing was uploaded yet
  if (stat.size === 0 || stat.size > MAX_OBJECT_BYTES) {
    await discard(ctx, row);
    throw badRequest(INVALID_IMAGE);
  }
  const bytes = await ctx.storage.read(key);
  const type = sniffImageType(bytes);
  if (!type || bytes.length > MAX_OBJECT_BYTES) {
    await discard(ctx, row);
    throw badRequest(INVALID_IMAGE);
  }
  try {
    await publishImage(ctx.em, ctx.storage, row, bytes, type);
  } catch {
    await discard(ctx, row);
    throw badRequest(INVALID_IMAGE);
  }
  return { objectPath: objectPathOf(key) };
}

/**
 * Re-encodes `bytes` (already known to be `type`), stores the image and its thumbnail under the
 * row's key, and makes the row public. Throws when sharp cannot decode the bytes.
 */
export async function publishImage(
  em: EntityManager,
  storage: StorageDriver,
  row: IUploadedObject,
  bytes: Buffer,
  type: ImageType,
): Promise<void> {
  const image = await reencodeImage(bytes, type);
  const thumbKey = `${row.key}-thumb`;
  await storage.put(row.key, image.data, image.contentType);
  await storage.put(thumbKey, image.thumb, image.contentType);
  row.contentType = image.contentType;
  row.size = image.data.length;
  row.width = image.width;
  row.height = image.height;
  row.thumbKey = thumbKey;
  row.visibility = 'public';
  await em.flush();
}

/** A server-made image (the demo avatars) stored as a public upload of `ownerId`; its object path. */
export async function createPublicImage(
  em: EntityManager,
  storage: StorageDriver,
  ownerId: string,
  png: Buffer,
  now: Date,
): Promise<string> {
  const row = em.create(UploadedObject, {
    key: `uploads/${randomUUID()}`,
    owner: em.getReference(User, ownerId),
    contentType: null,
    size: null,
    visibility: 'private',
    width: null,
    height: null,
    thumbKey: null,
    createdAt: now,
  });
  await publishImage(em, storage, row, png, 'image/png');
  return objectPathOf(row.key);
}

/** The caller's own public object at `objectPath`, or null. */
export async function findOwnPublicObject(
  ctx: AuthedContext,
  objectPath: string,
): Promise<IUploadedObject | null> {
  const key = keyFromObjectPath(objectPath);
  if (!key) return null;
  return ctx.em.findOne(UploadedObject, { key, owner: ctx.session.user.id, visibility: 'public' });
}

/** Throws 400 unless `objectPath` is the caller's own public object (posts, settings images). */
export async function requireOwnImage(ctx: AuthedContext, objectPath: string): Promise<void> {
  if (!(await findOwnPublicObject(ctx, objectPath))) throw badRequest(IMAGE_NOT_FOUND);
}

/** A public object by key, for the /objects route; private and unknown keys are null alike. */
export async function findPublicObject(em: EntityManager, key: string): Promise<IUploadedObject | null> {
  if (!isValidKey(key)) return null;
  return em.findOne(UploadedObject, { key, visibility: 'public' });
}

/**
 * What still uses an object: a post's image, a profile's picture or banner, a gallery item. A
 * public upload none of these name is garbage once it is older than ORPHAN_AGE_MS (the age lets
 * a fresh upload reach the post or profile it was made for).
 */
const UNUSED = `not exists (select 1 from posts p where p.image_url = '/objects/' || u.key)
  and not exists (select 1 from users s where s.avatar_url = '/objects/' || u.key or s.header_url = '/objects/' || u.key)
  and not exists (select 1 from ai_media m where m.image_url = '/objects/' || u.key)`;

/**
 * Deletes, bytes and row, the uploads older than a day that never became public, and the public
 * ones nothing uses any more (the last post or profile field that showed them was deleted or
 * changed). Returns how many went. The host calls it periodically; tests call it with their own
 * `now`.
 */
export async function sweepOrphanUploads(
  em: EntityManager,
  storage: StorageDriver,
  now: Date,
  batch = 500,
): Promise<number> {
  const cutoff = new Date(now.getTime() - ORPHAN_AGE_MS);
  let removed = 0;
  for (;;) {
    // The rows go first, chosen and deleted in one statement; bytes without a row are never
    // served, so removing them afterwards shows nothing half-gone.
    const rows = await em.execute<{ key: string; thumb_key: string | null }[]>(
      `delete from uploaded_objects where key in (
         select u.key from uploaded_objects u
          where u.created_at < ? and (u.visibility = 'private' or (${UNUSED}))
          order by u.created_at
          limit ?
       )
       returning key, thumb_key`,
      [cutoff, batch],
    );
    for (const row of rows) {
      await storage.remove(row.key);
      if (row.thumb_key) await storage.remove(row.thumb_key);
    }
    removed += rows.length;
    if (rows.length < batch) return removed;
  }
}
