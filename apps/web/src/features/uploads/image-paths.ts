/** Uploaded images live at `/objects/<key>`; the server also serves a 640-px-wide thumbnail beside each. */
export function isObjectPath(url: string | null | undefined): url is string {
  return typeof url === 'string' && url.startsWith('/objects/');
}

/** The thumbnail of an uploaded image; any other URL is returned as it is. */
export function thumbnailUrl(url: string): string {
  return isObjectPath(url) ? `${url}/thumb` : url;
}
