import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

export type ObjectVisibility = 'private' | 'public';

/**
 * Where an upload is in its one trip (changed only by conditional UPDATEs, so two requests
 * cannot both move it): 'pending' (URL handed out, or a PUT failed) → 'receiving' (one PUT is
 * streaming to our server) → 'uploaded' (that PUT completed; the URL is spent) → 'publishing'
 * (set-acl claimed it) → 'public'. S3 PUTs bypass our server, so there set-acl goes from
 * 'pending' straight to 'publishing'.
 */
export type UploadState = 'pending' | 'receiving' | 'uploaded' | 'publishing' | 'public';

/**
 * An object a user uploaded: the browser PUTs to `incoming/<uuid>`, set-acl checks and
 * re-encodes it into `key` (`uploads/<uuid>`, the only one served) and makes it 'public'. The
 * row is created 'private' when the upload URL is handed out. Private objects older than a day
 * are orphans and are swept.
 */
export const UploadedObject = defineEntity({
  name: 'UploadedObject',
  tableName: 'uploaded_objects',
  properties: {
    key: p.string().length(400).primary(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    contentType: p.string().length(100).nullable(),
    size: p.integer().nullable(),
    visibility: p.string().length(16).$type<ObjectVisibility>().default('private'),
    uploadState: p.string().length(16).$type<UploadState>().default('pending'),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    thumbKey: p.string().length(400).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IUploadedObject = InferEntity<typeof UploadedObject>;
