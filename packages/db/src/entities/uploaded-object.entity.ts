import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

export const OBJECT_VISIBILITIES = ['private', 'public'] as const;
export type ObjectVisibility = (typeof OBJECT_VISIBILITIES)[number];

/**
 * Where an upload is in its one trip (changed only by conditional UPDATEs, so two requests
 * cannot both move it): 'pending' (URL handed out, or a PUT failed) → 'receiving' (one PUT is
 * streaming to our server) → 'uploaded' (that PUT completed; the URL is spent) → 'publishing'
 * (set-acl claimed it) → 'public'. S3 PUTs bypass our server, so there set-acl goes from
 * 'pending' straight to 'publishing'.
 */
export const UPLOAD_STATES = ['pending', 'receiving', 'uploaded', 'publishing', 'public'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];

/**
 * An object a user uploaded: the browser PUTs to `incoming/<uuid>`, set-acl checks and
 * re-encodes it into `key` (`uploads/<uuid>`, the only one served) and makes it 'public'. The
 * row is created 'private' when the upload URL is handed out. Private objects older than a day
 * are orphans and are swept.
 */
export const UploadedObject = defineEntity({
  name: 'UploadedObject',
  tableName: 'uploaded_objects',
  indexes: [
    { name: 'uploaded_objects_owner_id_index', properties: ['owner'] },
    {
      name: 'uploaded_objects_private_created_at_index',
      expression:
        'create index "uploaded_objects_private_created_at_index" on "uploaded_objects" ("created_at") where "visibility" = \'private\'',
    },
  ],
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [{ name: 'uploaded_objects_size_check', expression: 'size is null or size >= 0' }],
  properties: {
    key: p.string().length(400).primary(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    contentType: p.string().length(100).nullable(),
    size: p.integer().nullable(),
    visibility: p
      .enum([...OBJECT_VISIBILITIES])
      .columnType('varchar(16)')
      .default('private'),
    uploadState: p
      .enum([...UPLOAD_STATES])
      .columnType('varchar(16)')
      .default('pending'),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    thumbKey: p.string().length(400).nullable(),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IUploadedObject = InferEntity<typeof UploadedObject>;
