/** Upload forms: one definition for the procedures and the REST bodies. Imports only zod. */
import { z } from 'zod';
import { text } from '../../text.js';

/** `/objects/<key>`: segments may not start with a dot, so `..` cannot climb out. */
export const OBJECT_PATH_PATTERN = /^\/objects(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/;

export const objectPathSchema = text('objectPath', { error: 'objectPath must be an uploaded image path' })
  .trim()
  .max(500, 'objectPath must be an uploaded image path')
  .regex(OBJECT_PATH_PATTERN, 'objectPath must be an uploaded image path');

export const setAclInput = z.object({
  imageURL: text('imageURL', { error: 'imageURL is required' })
    .trim()
    .min(1, 'imageURL is required')
    .max(4096, 'imageURL is too long'),
  visibility: z.literal('public', { error: "visibility must be 'public'" }),
});
export type SetAclInput = z.infer<typeof setAclInput>;

export const objectPathInput = z.object({ objectPath: objectPathSchema });
export type ObjectPathInput = z.infer<typeof objectPathInput>;

// Responses, as JSON (see post.schema.ts on response schemas).

/** Where to PUT the file: our own server's signed path (local storage) or a presigned S3 URL. */
export const uploadUrlResult = z.strictObject({ uploadURL: z.string().min(1) });

export const objectPathResult = z.strictObject({ objectPath: z.string().regex(OBJECT_PATH_PATTERN) });
