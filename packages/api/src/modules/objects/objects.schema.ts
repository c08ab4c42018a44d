/**
 * Upload forms and the one definition of an uploaded object's path, for the procedures, the REST
 * bodies and the web forms. Imports zod and the storage key grammar only.
 */
import { KEY_PATTERN, MAX_KEY_LENGTH } from '@cubes/storage/keys';
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { text } from '../../text.js';

const OBJECT_PATH_PREFIX = '/objects/';

/**
 * `/objects/<key>`, the key in storage's grammar: segments may not start with a dot, so `..`
 * cannot climb out.
 */
export const OBJECT_PATH_PATTERN = new RegExp(`^${OBJECT_PATH_PREFIX}${KEY_PATTERN.source.slice(1)}`);
export const OBJECT_PATH_MAX = OBJECT_PATH_PREFIX.length + MAX_KEY_LENGTH;

export function isObjectPath(value: string): boolean {
  return value.length <= OBJECT_PATH_MAX && OBJECT_PATH_PATTERN.test(value);
}

export function objectPathOf(key: string): string {
  return `${OBJECT_PATH_PREFIX}${key}`;
}

/** The key of an `/objects/<key>` path, or null. */
export function keyFromObjectPath(objectPath: string): string | null {
  return isObjectPath(objectPath) ? objectPath.slice(OBJECT_PATH_PREFIX.length) : null;
}

/**
 * An uploaded object's path; anything else fails with `message`, which names the field (and
 * `label` names it when it holds control characters).
 */
export function objectPathField(message: string, label = 'objectPath') {
  return text(label, { error: message })
    .trim()
    .max(OBJECT_PATH_MAX, message)
    .regex(OBJECT_PATH_PATTERN, message);
}

export const objectPathSchema = objectPathField(ERROR_REASONS.OBJECT_PATH_INVALID);

export const setAclInput = z.object({
  imageURL: text('imageURL', { error: ERROR_REASONS.IMAGE_URL_REQUIRED })
    .trim()
    .min(1, ERROR_REASONS.IMAGE_URL_REQUIRED)
    .max(4096, ERROR_REASONS.IMAGE_URL_TOO_LONG),
  visibility: z.literal('public', { error: ERROR_REASONS.VISIBILITY_INVALID }),
});
export type SetAclInput = z.infer<typeof setAclInput>;

export const objectPathInput = z.object({ objectPath: objectPathSchema });
export type ObjectPathInput = z.infer<typeof objectPathInput>;

// Responses, as JSON (see post.schema.ts on response schemas).

/** Where to PUT the file: our own server's signed path (local storage) or a presigned S3 URL. */
export const uploadUrlResult = z.strictObject({ uploadURL: z.string().min(1) });
export type UploadUrlResult = z.infer<typeof uploadUrlResult>;

export const objectPathResult = z.strictObject({ objectPath: z.string().regex(OBJECT_PATH_PATTERN) });
export type ObjectPathResult = z.infer<typeof objectPathResult>;
