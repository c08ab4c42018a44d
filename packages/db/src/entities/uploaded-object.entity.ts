import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

export type ObjectVisibility = 'private' | 'public';

/**
 * An object a user uploaded (key `uploads/<uuid>`). Created 'private' when the upload URL is
 * handed out; set-acl checks and re-encodes the image and makes it 'public'. Private objects
 * older than a day are orphans and are swept.
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
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    thumbKey: p.string().length(400).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IUploadedObject = InferEntity<typeof UploadedObject>;
