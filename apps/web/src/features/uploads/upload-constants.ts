/**
 * docs/web.md, "Uploads": images of at most 5 MB each, nothing starts before the member presses
 * Upload. A profile picture or banner is one image; the composer asks for as many as the post has
 * room for (POST_IMAGES_MAX of the shared rules, less those attached).
 */
export const MAX_IMAGE_BYTES = 5_242_880;
/** How many images one pick takes unless the caller asks for more. */
export const MAX_IMAGE_FILES = 1;
/** What the server accepts and re-encodes (it checks the bytes, not the name or the declared type). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
/** Extensions beside the types: the file picker of some systems filters by extension only. */
export const IMAGE_PICKER_TYPES = [...IMAGE_TYPES, '.png', '.jpg', '.jpeg', '.gif', '.webp'];
