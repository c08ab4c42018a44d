/**
 * The gallery of AI media and favourites: which types a page shows, when the shared first page
 * (gallery.cache.ts) serves it, and favourites, which are idempotent and announced once their
 * statement committed. The SQL is in gallery.repository.ts: a page is one statement, and a
 * favourite changes its row and favorites_count in one.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, type Context, publishEvent, readEm, readEmUnlessOwn } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { notFound, requireUuid } from '../../errors.js';
import { findPostPage, postKeyset } from '../posts/post.repository.js';
import type { PostPage } from '../posts/post.serializer.js';
import { cachedGalleryHead } from './gallery.cache.js';
import {
  deleteFavorite,
  type FavoriteRow,
  favoriteMediaIds,
  favoritesKeyset,
  findFavoritesPage,
  findMediaPage,
  type GalleryCursor,
  galleryKeyset,
  galleryStats,
  insertFavorite,
  toGalleryItem,
  viewerMarksAmong,
} from './gallery.repository.js';
import {
  type AiMediaTypeValue,
  type FavoriteResult,
  type FavoritesOfInput,
  type GalleryInput,
  type GalleryItemPage,
  type GalleryPage,
  galleryTypes,
  type MediaOfInput,
} from './gallery.schema.js';

export { galleryTypes } from './gallery.schema.js';

export const MEDIA_NOT_FOUND = ERROR_REASONS.MEDIA_NOT_FOUND;

/**
 * One page of the gallery. The first page comes from the shared cache (gallery.cache.ts) with the
 * viewer's favourites marked; later pages are one query. With some types only, each type is its
 * own walk down the (type, created_at, id) index, merged: no scan of the whole table.
 */
export async function listGallery(ctx: Context, input: GalleryInput): Promise<GalleryPage> {
  const viewerId = ctx.session?.user.id ?? null;
  const cursor = galleryKeyset.decode(input.cursor);
  const types = galleryTypes(input);
  if (types.length === 0) return { items: [], nextCursor: null, stats: await galleryStats(ctx.em) };
  // As the feed: later pages on the read replica; the cached first page on the primary.
  if (cursor) return loadGalleryPage(readEm(ctx), viewerId, types, cursor, input.limit);
  return cachedGalleryHead(ctx.cacheScope, `${types.join(',')}:${input.limit}`, viewerId, {
    load: () => loadGalleryPage(ctx.em, null, types, null, input.limit),
    viewerMarks: (viewer, mediaIds, creatorIds) => viewerMarksAmong(ctx.em, viewer, mediaIds, creatorIds),
  });
}

async function loadGalleryPage(
  em: EntityManager,
  viewerId: string | null,
  types: AiMediaTypeValue[],
  cursor: GalleryCursor | null,
  limit: number,
): Promise<GalleryPage> {
  const [rows, stats] = await Promise.all([
    findMediaPage(em, viewerId, types, cursor, limit),
    galleryStats(em),
  ]);
  const page = galleryKeyset.page(rows, limit, toGalleryItem, (row) => ({
    createdAt: row.created_at,
    id: row.id,
  }));
  return { ...page, stats };
}

/** Idempotent: favouriting an item already favourited changes nothing. */
export async function addFavorite(ctx: AuthedContext, rawMediaId: string): Promise<FavoriteResult> {
  const mediaId = requireUuid(rawMediaId, MEDIA_NOT_FOUND);
  const userId = ctx.session.user.id;
  const row = await insertFavorite(ctx.em, userId, mediaId, ctx.now());
  return favoriteChanged(ctx, mediaId, true, row);
}

/** Idempotent: removing a favourite that is not there changes nothing. */
export async function removeFavorite(ctx: AuthedContext, rawMediaId: string): Promise<FavoriteResult> {
  const mediaId = requireUuid(rawMediaId, MEDIA_NOT_FOUND);
  const userId = ctx.session.user.id;
  const row = await deleteFavorite(ctx.em, userId, mediaId);
  return favoriteChanged(ctx, mediaId, false, row);
}

/**
 * After the statement committed: unknown media is 404; the change is announced only now, so no
 * cached page is filled again with the count as it was.
 */
function favoriteChanged(
  ctx: AuthedContext,
  mediaId: string,
  favorited: boolean,
  row: FavoriteRow | undefined,
): FavoriteResult {
  if (!row?.found) throw notFound(MEDIA_NOT_FOUND);
  if (row.changed_count !== null) publishEvent(ctx, 'favorites', { mediaId, userId: ctx.session.user.id });
  return { favorited, favoritesCount: row.changed_count ?? row.current_count ?? 0 };
}

/** The viewer's favourites as `{contentId}`; a visitor has none. */
export async function myFavorites(ctx: Context): Promise<{ contentId: string }[]> {
  const viewerId = ctx.session?.user.id;
  if (!viewerId) return [];
  return (await favoriteMediaIds(ctx.em, viewerId)).map((contentId) => ({ contentId }));
}

/** A profile's Favorites tab: the media `userId` favourited, most recently favourited first. */
export async function favoritesOf(ctx: Context, input: FavoritesOfInput): Promise<GalleryItemPage> {
  const viewerId = ctx.session?.user.id ?? null;
  const ownerId = requireUuid(input.userId, ERROR_REASONS.USER_NOT_FOUND);
  const cursor = favoritesKeyset.decode(input.cursor);
  const rows = await findFavoritesPage(readEmUnlessOwn(ctx, ownerId), viewerId, ownerId, cursor, input.limit);
  return favoritesKeyset.page(rows, input.limit, toGalleryItem, (row) => ({
    at: row.favorited_at,
    id: row.id,
  }));
}

/** A profile's Media tab: the user's posts that carry an image, newest first. */
export async function mediaOf(ctx: Context, input: MediaOfInput): Promise<PostPage> {
  const authorId = requireUuid(input.userId, ERROR_REASONS.USER_NOT_FOUND);
  return findPostPage(readEmUnlessOwn(ctx, authorId), {
    viewerId: ctx.session?.user.id ?? null,
    authorId,
    withImages: true,
    cursor: postKeyset.decode(input.cursor),
    limit: input.limit,
  });
}
