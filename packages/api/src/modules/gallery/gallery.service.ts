/**
 * The gallery of AI media and favourites. Lists page by keyset on (created_at, id), newest first,
 * each item with its creator (a join) and the viewer's favourite (an EXISTS on the favourites
 * primary key), so a page is one query. Favouriting is idempotent: the (user, media) primary key
 * decides, and favorites_count changes in the same statement's transaction as the row it counts.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, type Context, publishEvent, readEm, readEmUnlessOwn } from '../../context.js';
import { notFound, requireUuid } from '../../errors.js';
import { type KeysetKey, keyset, type Page } from '../../paging.js';
import { executePrepared, pgArray } from '../../prepared.js';
import { isoTime } from '../../sql.js';
import { shownMemberById, shownMemberSql } from '../moderation/suspension.js';
import { findPostPage, postKeyset } from '../posts/post.repository.js';
import type { PostPage } from '../posts/post.serializer.js';
import { notBlockedBetween, notBlockedParams } from '../safety/safety.sql.js';
import {
  AI_MEDIA_TYPE_VALUES,
  type AiMediaTypeValue,
  type FavoritesOfInput,
  type GalleryInput,
  type MediaOfInput,
} from './gallery.schema.js';
import { cachedGalleryHead } from './gallery-cache.js';

export const MEDIA_NOT_FOUND = 'Media not found';

export interface GalleryItemDto {
  id: string;
  type: AiMediaTypeValue;
  title: string;
  imageUrl: string;
  width: number;
  height: number;
  creator: { id: string; username: string; displayName: string; avatarUrl: string | null };
  createdAt: Date;
  favoritesCount: number;
  isFavorite: boolean;
}

export interface GalleryStats {
  total: number;
  art: number;
  music: number;
  fun: number;
  video: number;
}

export interface GalleryPage extends Page<GalleryItemDto> {
  stats: GalleryStats;
}

export interface FavoriteResult {
  favorited: boolean;
  favoritesCount: number;
}

export interface MediaRow {
  id: string;
  type: AiMediaTypeValue;
  title: string;
  image_url: string;
  width: number;
  height: number;
  creator_id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  favorites_count: number;
  /** ISO text with microseconds (see isoTime) */
  created_at: string;
  is_favorite: boolean;
}

/**
 * Media with their creators and the viewer's favourite; `extra` adds columns. Takes two parameters
 * first: the viewer id twice (null when logged out). Alias `m`.
 */
export const selectMedia = (extra = '') => `
  select ${extra} m.id, m.type, m.title, m.image_url, m.width, m.height, m.creator_id,
         u.username, u.display_name, u.avatar_url, m.favorites_count,
         ${isoTime('m.created_at')} as created_at,
         (?::uuid is not null and exists (
           select 1 from favorites f where f.user_id = ?::uuid and f.media_id = m.id
         )) as is_favorite
    from ai_media m
    join users u on u.id = m.creator_id`;

export function toGalleryItem(row: MediaRow): GalleryItemDto {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    imageUrl: row.image_url,
    width: row.width,
    height: row.height,
    creator: {
      id: row.creator_id,
      username: row.username,
      displayName: row.display_name,
      avatarUrl: row.avatar_url,
    },
    createdAt: new Date(row.created_at),
    favoritesCount: row.favorites_count,
    isFavorite: row.is_favorite,
  };
}

/** The gallery pages newest first, ties broken by id. */
export const galleryKeyset = keyset({
  name: 'gallery',
  order: 'desc',
  key: { createdAt: 'timestamp', id: 'uuid' },
});
const GALLERY_KEY_COLUMNS = { createdAt: 'm.created_at', id: 'm.id' };
type GalleryCursor = KeysetKey<typeof galleryKeyset>;

/** A profile's favourites page by when they were favourited. */
const favoritesKeyset = keyset({ name: 'favorites', order: 'desc', key: { at: 'timestamp', id: 'uuid' } });
type FavoritesCursor = KeysetKey<typeof favoritesKeyset>;

/** The counts of the whole gallery, per type: one query on the counters the ai_media trigger keeps. */
export async function galleryStats(em: EntityManager): Promise<GalleryStats> {
  const rows = await em.execute<{ type: keyof GalleryStats; count: number }[]>(
    'select type, count::int as count from ai_media_stats',
  );
  const stats: GalleryStats = { total: 0, art: 0, music: 0, fun: 0, video: 0 };
  for (const row of rows) {
    stats[row.type] = row.count;
    stats.total += row.count;
  }
  return stats;
}

/** The types a page asks for: the selector's choice, narrowed by the text filter on type names. */
export function galleryTypes(input: Pick<GalleryInput, 'type' | 'q'>): AiMediaTypeValue[] {
  const needle = (input.q ?? '').trim().toLowerCase();
  return AI_MEDIA_TYPE_VALUES.filter(
    (type) => (input.type === 'all' || input.type === type) && type.includes(needle),
  );
}

/**
 * One page of the gallery. The first page comes from the shared cache (gallery-cache.ts) with the
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

/**
 * A viewer's marks on a kept page, in one statement: which of `mediaIds` they favourited, and
 * which of `creatorIds` they blocked or are blocked by (those items leave their copy).
 */
async function viewerMarksAmong(
  em: EntityManager,
  viewerId: string,
  mediaIds: string[],
  creatorIds: string[],
): Promise<{ favorited: Set<string>; blocked: Set<string> }> {
  const marks = { favorited: new Set<string>(), blocked: new Set<string>() };
  if (mediaIds.length === 0) return marks;
  const rows = await executePrepared<{ id: string; favorited: boolean }[]>(
    em,
    `select f.media_id as id, true as favorited from favorites f where f.user_id = ? and f.media_id = any(?::uuid[])
     union all
     select u.id, false from users u where u.id = any(?::uuid[]) and not (${notBlockedBetween('?::uuid', 'u.id')})`,
    [viewerId, pgArray(mediaIds), pgArray(creatorIds), ...notBlockedParams(viewerId)],
  );
  for (const row of rows) (row.favorited ? marks.favorited : marks.blocked).add(row.id);
  return marks;
}

async function loadGalleryPage(
  em: EntityManager,
  viewerId: string | null,
  types: AiMediaTypeValue[],
  cursor: GalleryCursor | null,
  limit: number,
): Promise<GalleryPage> {
  const after = cursor ? galleryKeyset.after(cursor, GALLERY_KEY_COLUMNS) : null;
  const order = galleryKeyset.orderBy(GALLERY_KEY_COLUMNS);
  let sql: string;
  let params: unknown[];
  if (types.length === AI_MEDIA_TYPE_VALUES.length) {
    // Items by a creator blocked either way, or suspended, are left out.
    sql = `${selectMedia()} where ${notBlockedBetween('?::uuid', 'm.creator_id')} and ${shownMemberSql('u')}
      ${after ? `and ${after.sql}` : ''} order by ${order} limit ?`;
    params = [viewerId, viewerId, ...notBlockedParams(viewerId), ...(after?.params ?? []), limit + 1];
  } else {
    const walk = `(select m.id, m.created_at from ai_media m
        where m.type = ? and ${notBlockedBetween('?::uuid', 'm.creator_id')} and ${shownMemberById('m.creator_id')}${after ? ` and ${after.sql}` : ''}
        order by ${order} limit ?)`;
    sql = `with picked as (
        select id from (${types.map(() => walk).join(' union all ')}) t
         order by created_at desc, id desc limit ?
      )
      ${selectMedia()} join picked p on p.id = m.id
      order by ${order}`;
    params = [
      ...types.flatMap((type) => [type, ...notBlockedParams(viewerId), ...(after?.params ?? []), limit + 1]),
      limit + 1,
      viewerId,
      viewerId,
    ];
  }
  const [rows, stats] = await Promise.all([em.execute<MediaRow[]>(sql, params), galleryStats(em)]);
  const page = galleryKeyset.page(rows, limit, toGalleryItem, (row) => ({
    createdAt: row.created_at,
    id: row.id,
  }));
  return { ...page, stats };
}

/**
 * A favourite and its count in one statement, as a like (post.service.ts): the row, then
 * `favorites_count ± 1` under the item's row lock only when the row changed, so concurrent
 * toggles never lose a count. The statement is its own transaction. As a like, media hidden from
 * the member (its creator blocked either way, or suspended) is not there to favourite (404);
 * taking a favourite back always works.
 */
const FAVORITE_SQL = `
  with target as (
    select m.id, m.favorites_count from ai_media m
     where m.id = ?::uuid and ${notBlockedBetween('?::uuid', 'm.creator_id')} and ${shownMemberById('m.creator_id')}
  ), ins as (
    insert into favorites (user_id, media_id, created_at)
    select ?::uuid, target.id, ?::timestamptz from target
    on conflict do nothing
    returning media_id
  ), upd as (
    update ai_media set favorites_count = favorites_count + 1
     where id in (select media_id from ins)
    returning favorites_count
  )
  select exists (select 1 from target) as found,
         (select favorites_count from upd) as changed_count,
         (select favorites_count from target) as current_count`;

const UNFAVORITE_SQL = `
  with target as (
    select m.favorites_count from ai_media m where m.id = ?::uuid
  ), del as (
    delete from favorites where user_id = ?::uuid and media_id = ?::uuid returning media_id
  ), upd as (
    update ai_media set favorites_count = favorites_count - 1
     where id in (select media_id from del)
    returning favorites_count
  )
  select exists (select 1 from target) as found,
         (select favorites_count from upd) as changed_count,
         (select favorites_count from target) as current_count`;

interface FavoriteRow {
  found: boolean;
  changed_count: number | null;
  current_count: number | null;
}

/** Idempotent: favouriting an item already favourited changes nothing. */
export async function addFavorite(ctx: AuthedContext, rawMediaId: string): Promise<FavoriteResult> {
  const mediaId = requireUuid(rawMediaId, MEDIA_NOT_FOUND);
  const userId = ctx.session.user.id;
  const [row] = await executePrepared<FavoriteRow[]>(ctx.em, FAVORITE_SQL, [
    mediaId,
    ...notBlockedParams(userId),
    userId,
    ctx.now(),
  ]);
  return favoriteChanged(ctx, mediaId, true, row);
}

/** Idempotent: removing a favourite that is not there changes nothing. */
export async function removeFavorite(ctx: AuthedContext, rawMediaId: string): Promise<FavoriteResult> {
  const mediaId = requireUuid(rawMediaId, MEDIA_NOT_FOUND);
  const userId = ctx.session.user.id;
  const [row] = await executePrepared<FavoriteRow[]>(ctx.em, UNFAVORITE_SQL, [mediaId, userId, mediaId]);
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
  const rows = await ctx.em.execute<{ media_id: string }[]>(
    'select media_id from favorites where user_id = ? order by created_at desc, media_id desc',
    [viewerId],
  );
  return rows.map((r) => ({ contentId: r.media_id }));
}

/** A profile's Favorites tab: the media `userId` favourited, most recently favourited first. */
export async function favoritesOf(ctx: Context, input: FavoritesOfInput): Promise<Page<GalleryItemDto>> {
  const viewerId = ctx.session?.user.id ?? null;
  const ownerId = requireUuid(input.userId, 'User not found');
  const cursor: FavoritesCursor | null = favoritesKeyset.decode(input.cursor);
  // A member blocked either way sees no favourites (profile details), nor items by such creators;
  // nobody sees a suspended member's, as the rest of their profile.
  const params: unknown[] = [
    viewerId,
    viewerId,
    ownerId,
    ...notBlockedParams(viewerId),
    ...notBlockedParams(viewerId),
  ];
  let after = '';
  if (cursor) {
    const condition = favoritesKeyset.after(cursor, { at: 'fav.created_at', id: 'm.id' });
    after = `and ${condition.sql}`;
    params.push(...condition.params);
  }
  params.push(input.limit + 1);
  const rows = await readEmUnlessOwn(ctx, ownerId).execute<(MediaRow & { favorited_at: string })[]>(
    `${selectMedia(`${isoTime('fav.created_at')} as favorited_at,`)}
     join favorites fav on fav.media_id = m.id
     where fav.user_id = ? and ${shownMemberById('fav.user_id')} and ${notBlockedBetween('?::uuid', 'fav.user_id')}
       and ${notBlockedBetween('?::uuid', 'm.creator_id')} and ${shownMemberSql('u')} ${after}
     order by ${favoritesKeyset.orderBy({ at: 'fav.created_at', id: 'm.id' })}
     limit ?`,
    params,
  );
  return favoritesKeyset.page(rows, input.limit, toGalleryItem, (row) => ({
    at: row.favorited_at,
    id: row.id,
  }));
}

/** A profile's Media tab: the user's posts that carry an image, newest first. */
export async function mediaOf(ctx: Context, input: MediaOfInput): Promise<PostPage> {
  const authorId = requireUuid(input.userId, 'User not found');
  return findPostPage(readEmUnlessOwn(ctx, authorId), {
    viewerId: ctx.session?.user.id ?? null,
    authorId,
    withImages: true,
    cursor: postKeyset.decode(input.cursor),
    limit: input.limit,
  });
}
