/**
 * The upload flow (SPEC §4): an upload URL for a fresh id (the row is created 'private' and
 * 'pending' right away so the upload route knows the id is expected), the browser PUTs the bytes
 * to `incoming/<id>`, set-acl checks them by their magic bytes, re-encodes them, writes the
 * result under `uploads/<id>` (the only key /objects serves) and deletes the incoming object.
 * The row's upload state (UploadState in @cubes/db) is moved by conditional UPDATEs only, so a
 * URL takes one completed PUT, set-acl refuses while a PUT is still arriving, and no PUT lands
 * once set-acl has claimed the upload. Whatever reaches `incoming/` later (an S3 presigned URL
 * stays usable until it expires) is never served, and the sweep deletes it. Objects that never
 * become public, or that nothing uses any more, are swept after a day. A user reaches only their
 * own uploads: anything else is 404 'Upload not found'.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { EntityManager, IUploadedObject, UploadState } from '@cubes/db';
import {
  type ImageType,
  INCOMING_PREFIX,
  isValidKey,
  type LocalStorage,
  MAX_OBJECT_BYTES,
  type StorageDriver,
  sniffImageType,
  UPLOADS_PREFIX,
  UploadTooLargeError,
} from '@cubes/storage';
import { TRPCError } from '@trpc/server';
import type { AuthedContext } from '../../context.types.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { type ReencodedImage, reencodeImage, THUMB_TYPE, WEBP_THUMB_SUFFIX } from './objects.image.js';
import * as repo from './objects.repository.js';
import {
  keyFromObjectPath,
  type ObjectPathResult,
  objectPathOf,
  type SetAclInput,
  type UploadUrlResult,
} from './objects.schema.js';

export const UPLOAD_NOT_FOUND = ERROR_REASONS.UPLOAD_NOT_FOUND;
export const INVALID_IMAGE = ERROR_REASONS.INVALID_IMAGE;
export const IMAGE_NOT_FOUND = ERROR_REASONS.IMAGE_NOT_FOUND;
export const UPLOAD_IN_PROGRESS = ERROR_REASONS.UPLOAD_IN_PROGRESS;
export const UPLOAD_BEING_PUBLISHED = ERROR_REASONS.UPLOAD_BEING_PUBLISHED;
/** Private uploads older than this are orphans. */
export const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UPLOAD_ID = new RegExp(`(?:^|/)(?:uploads|incoming)/(${UUID})$`);

/**
 * The served key (`uploads/<uuid>`) an upload URL (absolute or relative, local or S3, any query,
 * naming `incoming/<uuid>`) or an object path names, or null. Only ids of the form we hand out
 * are recognised.
 */
export function uploadKeyFromUrl(imageURL: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(imageURL, 'http://relative.invalid').pathname;
  } catch {
    return null;
  }
  const match = UPLOAD_ID.exec(pathname);
  return match ? `${UPLOADS_PREFIX}${match[1]!}` : null;
}

/** Where the browser uploads the object that will be served as `key` (`uploads/<id>`). */
export function incomingKeyOf(key: string): string {
  if (!key.startsWith(UPLOADS_PREFIX)) throw new Error(`Not an upload key: ${key}`);
  return `${INCOMING_PREFIX}${key.slice(UPLOADS_PREFIX.length)}`;
}

/** The served key of an incoming key, or null when `incoming` is not one we hand out. */
export function uploadKeyOfIncoming(incoming: string): string | null {
  const match = new RegExp(`^${INCOMING_PREFIX}(${UUID})$`).exec(incoming);
  return match ? `${UPLOADS_PREFIX}${match[1]!}` : null;
}

export async function createUploadUrl(ctx: AuthedContext): Promise<UploadUrlResult> {
  const key = `${UPLOADS_PREFIX}${randomUUID()}`;
  repo.newUpload(ctx.em, key, ctx.session.user.id, ctx.now());
  await ctx.em.flush();
  return { uploadURL: await ctx.storage.createUploadUrl(incomingKeyOf(key)) };
}

/** Moves the upload from state `from` to `to` if it is still in `from`; false when it was not. */
async function moveUpload(
  em: EntityManager,
  key: string,
  from: UploadState,
  to: UploadState,
): Promise<boolean> {
  return (await repo.moveUpload(em, key, from, to)) > 0;
}

/** A PUT to the local driver's signed upload URL, as the host's HTTP route received it. */
export interface IncomingUpload {
  /** The path after the upload route: `incoming/<id>`. */
  incoming: string;
  /** The signed URL's query values. */
  expires: string | undefined;
  sig: string | undefined;
  /** The Content-Length the client declared (0: none). */
  declaredBytes: number;
  /** The request body, not read yet; `destroyed` once the client went away. */
  body: Readable & { readonly destroyed: boolean };
}

/**
 * What became of a PUT, for the host to answer: `received`, or why not —
 * - `invalid`: a bad or expired signature, or no such upload (nothing read);
 * - `used`: the URL already took its PUT, or set-acl claimed it; `busy`: another PUT is arriving;
 * - `tooLarge`: declared or sent past MAX_OBJECT_BYTES; `interrupted`: the client went away
 *   (both leave the URL usable again);
 * - `gone`: the bytes arrived but the upload's row went meanwhile (the sweep, a deleted account),
 *   so the bytes went too.
 */
export type UploadOutcome =
  | { outcome: 'received'; key: string; size: number }
  | { outcome: 'invalid' | 'used' | 'busy' | 'tooLarge' | 'interrupted' | 'gone' };

/**
 * The upload route's state machine (the row's upload state, moved by conditional UPDATEs): only
 * a URL handed out and not used yet takes a PUT, one at a time; a PUT that fails leaves it
 * `pending` again, one that completes leaves it `uploaded` (spent). Streams the body to the
 * local driver's `incoming/` (never served) and never records the client's Content-Type.
 */
export async function receiveUpload(
  em: EntityManager,
  local: LocalStorage,
  upload: IncomingUpload,
): Promise<UploadOutcome> {
  const { incoming } = upload;
  const key = uploadKeyOfIncoming(incoming);
  if (!key || !local.verifyUploadUrl(incoming, upload.expires, upload.sig)) return { outcome: 'invalid' };
  if (upload.declaredBytes > MAX_OBJECT_BYTES) return { outcome: 'tooLarge' };

  if ((await repo.moveUpload(em, key, 'pending', 'receiving')) === 0) {
    const state = await repo.uploadStateOf(em, key);
    if (!state) return { outcome: 'invalid' };
    return { outcome: state === 'receiving' ? 'busy' : 'used' };
  }
  let size: number;
  try {
    size = await local.receive(incoming, upload.body, MAX_OBJECT_BYTES);
  } catch (error) {
    // Nothing was kept: the URL takes a PUT again.
    await repo.moveUpload(em, key, 'receiving', 'pending');
    if (error instanceof UploadTooLargeError) return { outcome: 'tooLarge' };
    if (upload.body.destroyed) return { outcome: 'interrupted' };
    throw error;
  }
  if ((await repo.moveUpload(em, key, 'receiving', 'uploaded', size)) === 0) {
    await local.remove(incoming);
    return { outcome: 'gone' };
  }
  return { outcome: 'received', key: incoming, size };
}

/** Drops a claimed upload that is not an image: the row, and the bytes under both keys. */
async function discard(ctx: AuthedContext, key: string): Promise<void> {
  await repo.deleteClaimed(ctx.em, key);
  await ctx.storage.remove(incomingKeyOf(key));
  await ctx.storage.remove(key);
}

export async function setObjectAcl(ctx: AuthedContext, input: SetAclInput): Promise<ObjectPathResult> {
  const key = uploadKeyFromUrl(input.imageURL);
  if (!key) throw notFound(UPLOAD_NOT_FOUND);
  const objectPath = objectPathOf(key);
  const ownerId = ctx.session.user.id;

  // Claim the upload: only one set-acl goes on, and the upload route refuses PUTs from now on.
  const row = await repo.readUpload(ctx.em, key, ownerId);
  if (!row) throw notFound(UPLOAD_NOT_FOUND);
  if (row.visibility === 'public') return { objectPath };
  const from = row.upload_state;
  const claimable = from === 'pending' || from === 'uploaded';
  if (!claimable || !(await moveUpload(ctx.em, key, from, 'publishing'))) {
    // Busy, or another request moved it first: answer from where it is now.
    const current = claimable ? await repo.readUpload(ctx.em, key, ownerId) : row;
    if (!current) throw notFound(UPLOAD_NOT_FOUND);
    if (current.visibility === 'public') return { objectPath };
    if (current.upload_state === 'receiving') throw conflict(UPLOAD_IN_PROGRESS);
    throw conflict(UPLOAD_BEING_PUBLISHED);
  }

  const incoming = incomingKeyOf(key);
  try {
    const stat = await ctx.storage.stat(incoming);
    if (!stat) {
      // The URL was handed out but nothing was uploaded yet: the upload may still come.
      await moveUpload(ctx.em, key, 'publishing', 'pending');
      throw notFound(UPLOAD_NOT_FOUND);
    }
    if (stat.size === 0 || stat.size > MAX_OBJECT_BYTES) {
      await discard(ctx, key);
      throw badRequest(INVALID_IMAGE);
    }
    // From here on only these bytes count: a PUT to the incoming key changes nothing served.
    // Read with the cap again: an S3 PUT may have replaced the object since the stat.
    const bytes = await readAtMost(ctx.storage, incoming, MAX_OBJECT_BYTES);
    const type = bytes ? sniffImageType(bytes) : null;
    let reencoded: ReencodedImage;
    try {
      if (!bytes || !type) throw new Error('not an image');
      reencoded = await reencodeImage(bytes, type);
    } catch {
      await discard(ctx, key);
      throw badRequest(INVALID_IMAGE);
    }
    // Not served before the row says 'public'.
    const image = await storeImage(ctx.storage, key, reencoded);
    const published = await repo.publishClaimed(ctx.em, key, image);
    if (published === 0) {
      // The row went meanwhile (the account was deleted): so do the bytes.
      await ctx.storage.remove(key);
      await ctx.storage.remove(image.thumbKey);
      throw notFound(UPLOAD_NOT_FOUND);
    }
    await ctx.storage.remove(incoming);
    return { objectPath };
  } catch (error) {
    if (!(error instanceof TRPCError)) {
      // Storage or database trouble: give the claim back so that set-acl can be tried again.
      await moveUpload(ctx.em, key, 'publishing', from).catch(() => {});
    }
    throw error;
  }
}

/** The object's bytes, or null once they pass `max` (the rest is not read). */
async function readAtMost(storage: StorageDriver, key: string, max: number): Promise<Buffer | null> {
  const stream = await storage.createReadStream(key);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > max) return null;
      chunks.push(chunk as Buffer);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

type StoredImage = Pick<IUploadedObject, 'contentType' | 'size' | 'width' | 'height'> & { thumbKey: string };

/** Stores a re-encoded image and its thumbnail under `key`; what the row records about them. */
async function storeImage(storage: StorageDriver, key: string, image: ReencodedImage): Promise<StoredImage> {
  const thumbKey = `${key}${WEBP_THUMB_SUFFIX}`;
  await storage.put(key, image.data, image.contentType);
  await storage.put(thumbKey, image.thumb, THUMB_TYPE);
  return {
    contentType: image.contentType,
    size: image.data.length,
    width: image.width,
    height: image.height,
    thumbKey,
  };
}

/**
 * Re-encodes `bytes` (already known to be `type`), stores the image and its thumbnail under the
 * row's key, and makes the row public. Throws when sharp cannot decode the bytes.
 */
async function publishImage(
  em: EntityManager,
  storage: StorageDriver,
  row: IUploadedObject,
  bytes: Buffer,
  type: ImageType,
): Promise<void> {
  Object.assign(row, await storeImage(storage, row.key, await reencodeImage(bytes, type)));
  row.visibility = 'public';
  row.uploadState = 'public';
  await em.flush();
}

/**
 * A server-made image (the demo avatars; a link card's image, `type` sniffed from its bytes)
 * re-encoded and stored as a public upload of `ownerId`; its object path. Throws when sharp
 * cannot decode the bytes.
 */
export async function createPublicImage(
  em: EntityManager,
  storage: StorageDriver,
  ownerId: string,
  bytes: Buffer,
  now: Date,
  type: ImageType = 'image/png',
): Promise<string> {
  const row = repo.newUpload(em, `${UPLOADS_PREFIX}${randomUUID()}`, ownerId, now);
  await publishImage(em, storage, row, bytes, type);
  return objectPathOf(row.key);
}

/** The caller's own public object at `objectPath`, or null. */
export async function findOwnPublicObject(
  ctx: AuthedContext,
  objectPath: string,
): Promise<IUploadedObject | null> {
  const key = keyFromObjectPath(objectPath);
  if (!key) return null;
  return repo.findOwnPublic(ctx.em, key, ctx.session.user.id);
}

/** Throws 400 unless `objectPath` is the caller's own public object (posts, settings images). */
export async function requireOwnImage(ctx: AuthedContext, objectPath: string): Promise<void> {
  if (!(await findOwnPublicObject(ctx, objectPath))) throw badRequest(IMAGE_NOT_FOUND);
}

/** A public object by key, for the /objects route; private and unknown keys are null alike. */
export async function findPublicObject(em: EntityManager, key: string): Promise<IUploadedObject | null> {
  if (!isValidKey(key)) return null;
  return repo.findPublic(em, key);
}

/**
 * Deletes, bytes and row, the uploads older than a day that never became public, and the public
 * ones nothing uses any more (the last post or profile field that showed them was deleted or
 * changed); then every incoming object whose upload is public or gone (a late PUT to an S3
 * presigned URL, an upload of a deleted account). Returns how many rows and stray incoming
 * objects went. The host calls it periodically; tests call it with their own `now`. What still
 * uses an object: a post's image, a profile's picture or banner, a gallery item; the age lets a
 * fresh upload reach the post or profile it was made for.
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
    const rows = await repo.deleteOrphans(em, cutoff, batch);
    for (const row of rows) {
      await storage.remove(row.key);
      if (row.thumb_key) await storage.remove(row.thumb_key);
      if (row.key.startsWith(UPLOADS_PREFIX)) await storage.remove(incomingKeyOf(row.key));
    }
    removed += rows.length;
    if (rows.length < batch) break;
  }
  return removed + (await sweepIncoming(em, storage, batch));
}

/**
 * Incoming objects are kept only while their upload is private (not yet published, or being
 * published): set-acl reads them then. Any other is garbage that nothing serves.
 */
async function sweepIncoming(em: EntityManager, storage: StorageDriver, batch: number): Promise<number> {
  const listed = await storage.list(INCOMING_PREFIX);
  let removed = 0;
  for (let i = 0; i < listed.length; i += batch) {
    const slice = listed
      .slice(i, i + batch)
      .map((o) => ({ incoming: o.key, key: uploadKeyOfIncoming(o.key) }));
    const keys = slice.flatMap((o) => (o.key ? [o.key] : []));
    const waiting = new Set(keys.length === 0 ? [] : await repo.privateKeys(em, keys));
    for (const o of slice) {
      if (o.key && waiting.has(o.key)) continue;
      await storage.remove(o.incoming);
      removed += 1;
    }
  }
  return removed;
}
