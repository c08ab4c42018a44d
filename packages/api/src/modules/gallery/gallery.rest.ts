/**
 * The gallery REST rows: each maps a method and path under /api to one of this module's procedures
 * (gallery.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const galleryRest = [
  {
    method: 'GET',
    path: '/api/gallery',
    procedure: 'gallery.list',
    summary: 'AI media, newest first, with the counts of the whole gallery; q filters on the type name',
    query: ['type', 'q', 'cursor', 'limit'],
    paged: 'object',
  },
  {
    method: 'GET',
    path: '/api/gallery/favorites',
    procedure: 'gallery.favorites',
    summary: 'The caller’s favourites (empty when logged out)',
  },
  {
    method: 'GET',
    path: '/api/users/:id/favorites',
    procedure: 'gallery.favoritesOf',
    summary: 'The media a user favourited, most recent first',
    params: { id: 'userId' },
    query: ['cursor', 'limit'],
    paged: true,
  },
  {
    method: 'GET',
    path: '/api/users/:id/media',
    procedure: 'gallery.mediaOf',
    summary: 'A user’s posts with images, newest first',
    params: { id: 'userId' },
    query: ['cursor', 'limit'],
    paged: true,
  },
  {
    method: 'POST',
    path: '/api/gallery/:id/favorite',
    procedure: 'gallery.favorite',
    summary: 'Favourite an AI media item (idempotent)',
    auth: true,
    params: { id: 'mediaId' },
  },
  {
    method: 'DELETE',
    path: '/api/gallery/:id/favorite',
    procedure: 'gallery.unfavorite',
    summary: 'Take a favourite back (idempotent)',
    auth: true,
    params: { id: 'mediaId' },
  },
] as const satisfies readonly RestRowOf<'gallery'>[];
