/**
 * Re-encoding of uploaded images with sharp: EXIF orientation applied (`rotate()`), every
 * metadata block dropped (sharp keeps none unless asked with withMetadata/keepMetadata, so GPS
 * and camera data go), the long side capped at 4096 px, and the format kept. Animated GIF and
 * WebP stay animated (sharp writes both). A 640-px-wide thumbnail is made too, always WebP
 * (animated when the image is): what lists show, a fifth to a tenth of a PNG's bytes on a phone.
 */
import type { ImageType } from '@cubes/storage';
import sharp from 'sharp';

export const MAX_IMAGE_SIDE = 4096;
export const THUMB_WIDTH = 640;
/** Every thumbnail's type (`thumbContentType` tells it from an older one in the image's own). */
export const THUMB_TYPE = 'image/webp';
/** The end of a WebP thumbnail's key: thumbnails made before them have the image's type. */
export const WEBP_THUMB_SUFFIX = '-thumb.webp';
/** Quality of a thumbnail: sharp's default (80) shows no loss at a list's size. */
const THUMB_QUALITY = 80;
/** Decompression-bomb guard: ~ 8000 x 6000 after decoding. */
const MAX_INPUT_PIXELS = 50_000_000;

const FORMAT = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
} as const;

export interface ReencodedImage {
  data: Buffer;
  thumb: Buffer;
  contentType: ImageType;
  width: number;
  height: number;
}

/** Throws when sharp cannot decode the bytes (a truncated or disguised file). */
export async function reencodeImage(input: Buffer, type: ImageType): Promise<ReencodedImage> {
  const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  const animated = (meta.pages ?? 1) > 1;
  const open = (bytes: Buffer) => sharp(bytes, { animated, limitInputPixels: MAX_INPUT_PIXELS });
  let pipeline = open(input);
  // Multi-page images carry no EXIF orientation to apply, and sharp refuses to auto-rotate them.
  if (!animated) pipeline = pipeline.rotate();
  const main = await pipeline
    .resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true })
    .toFormat(FORMAT[type])
    .toBuffer({ resolveWithObject: true });
  const thumb = await open(main.data)
    .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
    .webp({ quality: THUMB_QUALITY })
    .toBuffer();
  return {
    data: main.data,
    thumb,
    contentType: type,
    width: main.info.width,
    height: main.info.pageHeight ?? main.info.height,
  };
}

/** The type a stored thumbnail is served as: WebP, or the image's own for one made before. */
export function thumbContentType(thumbKey: string, imageType: string): string {
  return thumbKey.endsWith(WEBP_THUMB_SUFFIX) ? THUMB_TYPE : imageType;
}
