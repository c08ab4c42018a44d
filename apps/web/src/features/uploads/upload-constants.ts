/** docs/web.md, "Uploads": one image of at most 5 MB, nothing starts before the user presses Upload. */
export const MAX_IMAGE_BYTES = 5_242_880;
export const MAX_IMAGE_FILES = 1;
/** What the server accepts and re-encodes (it checks the bytes, not the name or the declared type). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
/** Extensions beside the types: the file picker of some systems filters by extension only. */
export const IMAGE_PICKER_TYPES = [...IMAGE_TYPES, '.png', '.jpg', '.jpeg', '.gif', '.webp'];
