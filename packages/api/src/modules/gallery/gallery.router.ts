/**
 * The gallery procedures: the gallery of AI media: pages by type, stats, favourites, and a member's posts with images. Each declares its input and its `.output()` schema once; the
 * service holds the rules, and a REST row (gallery.rest.ts) or a line of
 * docs/api.md's tRPC-only list says how it is reached over HTTP.
 */
import { output } from '../../output.js';
import { createTRPCRouter, limitedProcedure, publicProcedure } from '../../trpc.js';
import { postPage } from '../posts/post.schema.js';
import {
  favoriteEntries,
  favoriteResult,
  favoritesOfInput,
  galleryInput,
  galleryItemPage,
  galleryPage,
  mediaIdInput,
  mediaOfInput,
} from './gallery.schema.js';
import * as gallery from './gallery.service.js';

export const galleryRouter = createTRPCRouter({
  /** GET /api/gallery → {items, stats}; the next cursor in X-Next-Cursor. */
  list: publicProcedure
    .input(galleryInput)
    .output(output(galleryPage))
    .query(({ ctx, input }) => gallery.listGallery(ctx, input)),
  /** GET /api/gallery/favorites → [{contentId}] of the caller; empty for visitors. */
  favorites: publicProcedure.output(output(favoriteEntries)).query(({ ctx }) => gallery.myFavorites(ctx)),
  /** A profile's Favorites tab. */
  favoritesOf: publicProcedure
    .input(favoritesOfInput)
    .output(output(galleryItemPage))
    .query(({ ctx, input }) => gallery.favoritesOf(ctx, input)),
  /**
   * A profile's Media tab: the user's posts with images. Its output is posts/post.schema's page of
   * posts, declared once post.repository's pages carry ISO times.
   */
  mediaOf: publicProcedure
    .input(mediaOfInput)
    .output(output(postPage))
    .query(({ ctx, input }) => gallery.mediaOf(ctx, input)),
  /** POST /api/gallery/:id/favorite → {favorited: true, favoritesCount}. */
  favorite: limitedProcedure('react')
    .input(mediaIdInput)
    .output(output(favoriteResult))
    .mutation(({ ctx, input }) => gallery.addFavorite(ctx, input.mediaId)),
  /** DELETE /api/gallery/:id/favorite → {favorited: false, favoritesCount}. */
  unfavorite: limitedProcedure('react')
    .input(mediaIdInput)
    .output(output(favoriteResult))
    .mutation(({ ctx, input }) => gallery.removeFavorite(ctx, input.mediaId)),
});
