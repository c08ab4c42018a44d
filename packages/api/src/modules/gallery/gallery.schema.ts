/** Gallery and favourites: inputs shared by the procedures, the REST rows and the web page, and the answers. */
import { z } from 'zod';
import { ERROR_REASONS } from '../../error-reasons.js';
import { pageInputWith, pageOf } from '../../paging.js';
import { AI_MEDIA_TYPE_VALUES } from '../../rules.js';
import { text } from '../../text.js';
import { entityIdSchema } from '../posts/post.schema.js';

// The media types and a page's count of them are rules the gallery page reads without zod.
export { AI_MEDIA_TYPE_VALUES, type AiMediaTypeValue, galleryCount, galleryTypes } from '../../rules.js';
export const aiMediaTypeSchema = z.enum(AI_MEDIA_TYPE_VALUES);

export const GALLERY_PAGE_DEFAULT = 24;

export const GALLERY_FILTER_MAX_LENGTH = 50;

/**
 * `type` is one of the media types or `all` (the default). `q`, the page's text filter, keeps
 * the items whose type contains it (any case; blank keeps everything): it pages like the rest.
 */
export const galleryInput = pageInputWith(GALLERY_PAGE_DEFAULT)
  .extend({
    type: z
      .enum(['all', ...AI_MEDIA_TYPE_VALUES], { error: ERROR_REASONS.GALLERY_TYPE_INVALID })
      .default('all'),
    q: text('Filter').max(GALLERY_FILTER_MAX_LENGTH, ERROR_REASONS.FILTER_TOO_LONG).optional(),
  })
  .prefault({});
export type GalleryInput = z.infer<typeof galleryInput>;

export const mediaIdInput = z.object({ mediaId: entityIdSchema });
export type MediaIdInput = z.infer<typeof mediaIdInput>;

/** Whose favourites a profile shows. */
export const favoritesOfInput = pageInputWith(GALLERY_PAGE_DEFAULT).extend({ userId: entityIdSchema });
export type FavoritesOfInput = z.infer<typeof favoritesOfInput>;

/** Whose posts with images a profile's Media tab shows. */
export const mediaOfInput = pageInputWith(GALLERY_PAGE_DEFAULT).extend({ userId: entityIdSchema });
export type MediaOfInput = z.infer<typeof mediaOfInput>;

// Responses, as the JSON on the wire (times are ISO strings).

/** The public fields of a media item's creator. */
export const mediaCreatorSchema = z.strictObject({
  id: z.uuid(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
});

/** A gallery item; `isFavorite` is false for visitors. */
export const galleryItemSchema = z.strictObject({
  id: z.uuid(),
  type: aiMediaTypeSchema,
  title: z.string(),
  imageUrl: z.string(),
  width: z.int().positive(),
  height: z.int().positive(),
  creator: mediaCreatorSchema,
  createdAt: z.iso.datetime(),
  favoritesCount: z.int().nonnegative(),
  isFavorite: z.boolean(),
});
export type GalleryItem = z.infer<typeof galleryItemSchema>;

/** A page of media (a profile's Favorites tab); nextCursor is null on the last page. */
export const galleryItemPage = pageOf(galleryItemSchema);
export type GalleryItemPage = z.infer<typeof galleryItemPage>;

export const galleryStatsSchema = z.strictObject({
  total: z.int().nonnegative(),
  art: z.int().nonnegative(),
  music: z.int().nonnegative(),
  fun: z.int().nonnegative(),
  video: z.int().nonnegative(),
});
export type GalleryStats = z.infer<typeof galleryStatsSchema>;

/** GET /api/gallery: one page of items and the counts of the whole gallery (cursor in X-Next-Cursor). */
export const galleryResult = z.strictObject({
  items: z.array(galleryItemSchema),
  stats: galleryStatsSchema,
});

/** gallery.list: galleryResult with the next cursor, which the REST row sends as X-Next-Cursor. */
export const galleryPage = pageOf(galleryItemSchema).extend({ stats: galleryStatsSchema });
export type GalleryPage = z.infer<typeof galleryPage>;

export const favoriteResult = z.strictObject({
  favorited: z.boolean(),
  favoritesCount: z.int().nonnegative(),
});
export type FavoriteResult = z.infer<typeof favoriteResult>;

export const favoriteEntrySchema = z.strictObject({ contentId: z.uuid() });
export const favoriteEntries = z.array(favoriteEntrySchema);
