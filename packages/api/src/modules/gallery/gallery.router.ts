import { createTRPCRouter, limitedProcedure, publicProcedure } from '../../trpc.js';
import { favoritesOfInput, galleryInput, mediaIdInput, mediaOfInput } from './gallery.schema.js';
import * as gallery from './gallery.service.js';

export const galleryRouter = createTRPCRouter({
  /** GET /api/gallery → {items, stats}; the next cursor in X-Next-Cursor. */
  list: publicProcedure.input(galleryInput).query(({ ctx, input }) => gallery.listGallery(ctx, input)),
  /** GET /api/gallery/favorites → [{contentId}] of the caller; empty for visitors. */
  favorites: publicProcedure.query(({ ctx }) => gallery.myFavorites(ctx)),
  /** A profile's Favorites tab. */
  favoritesOf: publicProcedure
    .input(favoritesOfInput)
    .query(({ ctx, input }) => gallery.favoritesOf(ctx, input)),
  /** A profile's Media tab: the user's posts with images. */
  mediaOf: publicProcedure.input(mediaOfInput).query(({ ctx, input }) => gallery.mediaOf(ctx, input)),
  /** POST /api/gallery/:id/favorite → {favorited: true, favoritesCount}. */
  favorite: limitedProcedure('react')
    .input(mediaIdInput)
    .mutation(({ ctx, input }) => gallery.addFavorite(ctx, input.mediaId)),
  /** DELETE /api/gallery/:id/favorite → {favorited: false, favoritesCount}. */
  unfavorite: limitedProcedure('react')
    .input(mediaIdInput)
    .mutation(({ ctx, input }) => gallery.removeFavorite(ctx, input.mediaId)),
});
