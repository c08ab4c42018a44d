/**
 * Object keys and the image types we accept, shared by every driver. No Node built-ins: the web
 * bundles the key grammar through @cubes/api's object-path schema (`@cubes/storage/keys`).
 */

/** Largest object accepted: SPEC §5/§9, 5 MB. */
export const MAX_OBJECT_BYTES = 5 * 1024 * 1024;

/**
 * Where a browser's upload lands: `incoming/<id>`. Nothing there is ever served; set-acl reads it,
 * checks and re-encodes it, writes the result under `uploads/<id>` (the served key) and deletes
 * it. So a PUT that comes late, or races set-acl, can never change what `/objects/` serves.
 */
export const INCOMING_PREFIX = 'incoming/';
/** Where published images live: `uploads/<id>`, served at `/objects/uploads/<id>`. */
export const UPLOADS_PREFIX = 'uploads/';

/** How long an upload URL stays valid. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;

/**
 * A key is one or more `/`-separated segments of letters, digits, `.`, `_` and `-`; no segment
 * starts with a dot, so `.` and `..` never name anything and a key cannot climb out of its root.
 */
export const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;
export const MAX_KEY_LENGTH = 400;

export function isValidKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY_LENGTH && KEY_PATTERN.test(key);
}

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The only types `/objects/` ever names: the ones set-acl re-encodes to. */
export const IMAGE_TYPES: readonly ImageType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export function isImageType(value: string | null | undefined): value is ImageType {
  return (IMAGE_TYPES as readonly (string | null | undefined)[]).includes(value);
}

/** The image type given by the file's first bytes (never by its name or a header), or null. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const b = bytes;
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
    if (b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return 'image/png';
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6) {
    const head = String.fromCharCode(...b.subarray(0, 6));
    if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  }
  if (b.length >= 12) {
    const riff = String.fromCharCode(...b.subarray(0, 4));
    const webp = String.fromCharCode(...b.subarray(8, 12));
    if (riff === 'RIFF' && webp === 'WEBP') return 'image/webp';
  }
  return null;
}
