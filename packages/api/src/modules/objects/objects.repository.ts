/**
 * The uploads table: a row per upload URL handed out, its state moved only by conditional
 * updates (so each step happens once however requests race), the look-ups that serve and check
 * public objects, and the sweeps of orphans and stray incoming objects.
 */
import {
  type EntityManager,
  type IUploadedObject,
  type Row,
  UploadedObject,
  type UploadState,
  User,
} from '@cubes/db';
import { join, raw, rows, sql } from '../../sql.js';

/** A new private, pending upload row of `ownerId` (written at the next flush). */
export function newUpload(em: EntityManager, key: string, ownerId: string, now: Date): IUploadedObject {
  return em.create(UploadedObject, {
    key,
    owner: em.getReference(User, ownerId),
    contentType: null,
    size: null,
    visibility: 'private',
    uploadState: 'pending',
    width: null,
    height: null,
    thumbKey: null,
    createdAt: now,
  });
}

export type UploadRow = Pick<Row<IUploadedObject>, 'visibility' | 'upload_state'>;

/** The row's state as the database has it now (never the identity map's copy). */
export async function readUpload(em: EntityManager, key: string, ownerId: string): Promise<UploadRow | null> {
  const found = await rows<UploadRow>(
    em,
    sql`select visibility, upload_state from uploaded_objects where key = ${key} and owner_id = ${ownerId}`,
  );
  return found[0] ?? null;
}

/** The upload state of `key` whoever owns it, or undefined when there is no such row. */
export async function uploadStateOf(em: EntityManager, key: string): Promise<UploadState | undefined> {
  const found = await rows<{ upload_state: UploadState }>(
    em,
    sql`select upload_state from uploaded_objects where key = ${key}`,
  );
  return found[0]?.upload_state;
}

/**
 * Moves a private upload from state `from` to `to` if it is still in `from` (recording `size`
 * when given); how many rows moved (0 or 1).
 */
export function moveUpload(
  em: EntityManager,
  key: string,
  from: UploadState,
  to: UploadState,
  size?: number,
): Promise<number> {
  return em.nativeUpdate(
    UploadedObject,
    { key, uploadState: from, visibility: 'private' },
    size === undefined ? { uploadState: to } : { uploadState: to, size },
  );
}

/** Deletes an upload being published (claimed by set-acl). */
export async function deleteClaimed(em: EntityManager, key: string): Promise<void> {
  await em.nativeDelete(UploadedObject, { key, uploadState: 'publishing' });
}

/** Makes a claimed upload public with what was stored; 0 when the row went meanwhile. */
export function publishClaimed(
  em: EntityManager,
  key: string,
  image: Pick<IUploadedObject, 'contentType' | 'size' | 'width' | 'height'> & { thumbKey: string },
): Promise<number> {
  return em.nativeUpdate(
    UploadedObject,
    { key, uploadState: 'publishing' },
    { ...image, uploadState: 'public', visibility: 'public' },
  );
}

export function findOwnPublic(
  em: EntityManager,
  key: string,
  ownerId: string,
): Promise<IUploadedObject | null> {
  return em.findOne(UploadedObject, { key, owner: ownerId, visibility: 'public' });
}

export function findPublic(em: EntityManager, key: string): Promise<IUploadedObject | null> {
  return em.findOne(UploadedObject, { key, visibility: 'public' });
}

/**
 * What still uses an object: a post's image (any of its four: posts_images_index answers the
 * containment), a profile's picture or banner, a gallery item, a link card's image. A public upload none of these
 * name is garbage once it is old enough.
 */
const UNUSED = raw(`not exists (select 1 from posts p where p.image_url = '/objects/' || u.key)
  and not exists (select 1 from posts p where p.images <> '[]'::jsonb
                     and p.images @> jsonb_build_array(jsonb_build_object('url', '/objects/' || u.key)))
  and not exists (select 1 from users s where s.avatar_url = '/objects/' || u.key or s.header_url = '/objects/' || u.key)
  and not exists (select 1 from ai_media m where m.image_url = '/objects/' || u.key)
  and not exists (select 1 from link_previews lp where lp.image_key = u.key)`);

/**
 * Deletes up to `batch` uploads older than `cutoff` that are private or that nothing uses, chosen
 * and deleted in one statement, oldest first; their keys.
 */
export function deleteOrphans(
  em: EntityManager,
  cutoff: Date,
  batch: number,
): Promise<{ key: string; thumb_key: string | null }[]> {
  return rows(
    em,
    sql`delete from uploaded_objects where key in (
         select u.key from uploaded_objects u
          where u.created_at < ${cutoff} and (u.visibility = 'private' or (${UNUSED}))
          order by u.created_at
          limit ${batch}
       )
       returning key, thumb_key`,
  );
}

/** Which of `keys` (at least one) are uploads still private: their incoming objects are kept. */
export async function privateKeys(em: EntityManager, keys: string[]): Promise<string[]> {
  const found = await rows<{ key: string }>(
    em,
    sql`select key from uploaded_objects where key in (${join(keys)}) and visibility = 'private'`,
  );
  return found.map((r) => r.key);
}
