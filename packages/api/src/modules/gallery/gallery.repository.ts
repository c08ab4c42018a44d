/**
 * The gallery's SQL: media with their creators and the viewer's favourite in one statement (a
 * join and an EXISTS on the favourites primary key), the per-type counts the ai_media trigger
 * keeps, and a favourite with its count in one statement. Search reads media through
 * `selectMedia` too, so an item looks the same wherever it is found.
 */
import type { AsText, IAiMedia, Row } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetKey, keyset } from '../../paging.js';
import { preparedRows } from '../../prepared.js';
import { empty, iso, join, rows, type Sql, sql, uuid, uuids } from '../../sql.js';
import { shownMember, shownMemberOf } from '../moderation/suspension.sql.js';
import { column, notBlocked } from '../safety/safety.sql.js';
import {
  AI_MEDIA_TYPE_VALUES,
  type AiMediaTypeValue,
  type GalleryItem,
  type GalleryStats,
} from './gallery.schema.js';

/** A row of `selectMedia`: the item, its creator's public fields and the viewer's favourite. */
export type MediaRow = AsText<
  Pick<
    Row<IAiMedia>,
    | 'id'
    | 'type'
    | 'title'
    | 'image_url'
    | 'width'
    | 'height'
    | 'creator_id'
    | 'favorites_count'
    | 'created_at'
  >,
  'created_at'
> & {
  username: string;
  display_name: string;
  avatar_url: string | null;
  is_favorite: boolean;
};

/**
 * Media with their creators and whether `viewerId` (null: a visitor) favourited each; `extra`
 * adds columns first. Alias `m` for the media, `u` for their creators.
 */
export function selectMedia(viewerId: string | null, extra: Sql = empty): Sql {
  const viewer = uuid(viewerId);
  return sql`
  select ${extra} m.id, m.type, m.title, m.image_url, m.width, m.height, m.creator_id,
         u.username, u.display_name, u.avatar_url, m.favorites_count,
         ${iso('m.created_at')} as created_at,
         (${viewer} is not null and exists (
           select 1 from favorites f where f.user_id = ${viewer} and f.media_id = m.id
         )) as is_favorite
    from ai_media m
    join users u on u.id = m.creator_id`;
}

export function toGalleryItem(row: MediaRow): GalleryItem {
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
    createdAt: new Date(row.created_at).toISOString(),
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
export type GalleryCursor = KeysetKey<typeof galleryKeyset>;

/** A profile's favourites page by when they were favourited. */
export const favoritesKeyset = keyset({
  name: 'favorites',
  order: 'desc',
  key: { at: 'timestamp', id: 'uuid' },
});
export type FavoritesCursor = KeysetKey<typeof favoritesKeyset>;
const FAVORITES_KEY_COLUMNS = { at: 'fav.created_at', id: 'm.id' };

/** The counts of the whole gallery, per type: one query on the counters the ai_media trigger keeps. */
export async function galleryStats(em: EntityManager): Promise<GalleryStats> {
  const counts = await rows<{ type: keyof GalleryStats; count: number }>(
    em,
    sql`select type, count::int as count from ai_media_stats`,
  );
  const stats: GalleryStats = { total: 0, art: 0, music: 0, fun: 0, video: 0 };
  for (const row of counts) {
    stats[row.type] = row.count;
    stats.total += row.count;
  }
  return stats;
}

/**
 * `limit + 1` media of `types` after `cursor`, newest first, as `viewerId` sees them: items by a
 * creator blocked either way, or suspended, are left out. With every type it is one walk of the
 * (created_at, id) order; with some, each type is its own walk down the (type, created_at, id)
 * index, merged: no scan of the whole table.
 */
export function findMediaPage(
  em: EntityManager,
  viewerId: string | null,
  types: readonly AiMediaTypeValue[],
  cursor: GalleryCursor | null,
  limit: number,
): Promise<MediaRow[]> {
  const after = cursor ? sql`and ${galleryKeyset.continuing(cursor, GALLERY_KEY_COLUMNS)}` : empty;
  const order = galleryKeyset.ordering(GALLERY_KEY_COLUMNS);
  if (types.length === AI_MEDIA_TYPE_VALUES.length) {
    return rows<MediaRow>(
      em,
      sql`${selectMedia(viewerId)} where ${notBlocked(viewerId, column('m.creator_id'))} and ${shownMember('u')}
      ${after} order by ${order} limit ${limit + 1}`,
    );
  }
  const walk = (type: AiMediaTypeValue) => sql`(select m.id, m.created_at from ai_media m
        where m.type = ${type} and ${notBlocked(viewerId, column('m.creator_id'))} and ${shownMemberOf(column('m.creator_id'))} ${after}
        order by ${order} limit ${limit + 1})`;
  return rows<MediaRow>(
    em,
    sql`with picked as (
        select id from (${join(types.map(walk), ' union all ')}) t
         order by created_at desc, id desc limit ${limit + 1}
      )
      ${selectMedia(viewerId)} join picked p on p.id = m.id
      order by ${order}`,
  );
}

/**
 * A viewer's marks on a kept page, in one statement: which of `mediaIds` they favourited, and
 * which of `creatorIds` they blocked or are blocked by (those items leave their copy).
 */
export async function viewerMarksAmong(
  em: EntityManager,
  viewerId: string,
  mediaIds: string[],
  creatorIds: string[],
): Promise<{ favorited: Set<string>; blocked: Set<string> }> {
  const marks = { favorited: new Set<string>(), blocked: new Set<string>() };
  if (mediaIds.length === 0) return marks;
  const found = await preparedRows<{ id: string; favorited: boolean }>(
    em,
    sql`select f.media_id as id, true as favorited from favorites f where f.user_id = ${viewerId} and f.media_id = any(${uuids(mediaIds)})
     union all
     select u.id, false from users u where u.id = any(${uuids(creatorIds)}) and not (${notBlocked(viewerId, column('u.id'))})`,
  );
  for (const row of found) (row.favorited ? marks.favorited : marks.blocked).add(row.id);
  return marks;
}

/** What a favourite statement tells: whether the item is there, and its count after (or as it was). */
export interface FavoriteRow {
  found: boolean;
  changed_count: number | null;
  current_count: number | null;
}

/**
 * A favourite and its count in one statement, as a like (post.repository.ts): the row, then
 * `favorites_count + 1` under the item's row lock only when the row was new, so concurrent
 * toggles never lose a count. The statement is its own transaction. Media hidden from the member
 * (its creator blocked either way, or suspended) is not there to favourite (found false).
 */
export async function insertFavorite(
  em: EntityManager,
  userId: string,
  mediaId: string,
  at: Date,
): Promise<FavoriteRow | undefined> {
  const [row] = await preparedRows<FavoriteRow>(
    em,
    sql`
  with target as (
    select m.id, m.favorites_count from ai_media m
     where m.id = ${uuid(mediaId)} and ${notBlocked(userId, column('m.creator_id'))} and ${shownMemberOf(column('m.creator_id'))}
  ), ins as (
    insert into favorites (user_id, media_id, created_at)
    select ${uuid(userId)}, target.id, ${at}::timestamptz from target
    on conflict do nothing
    returning media_id
  ), upd as (
    update ai_media set favorites_count = favorites_count + 1
     where id in (select media_id from ins)
    returning favorites_count
  )
  select exists (select 1 from target) as found,
         (select favorites_count from upd) as changed_count,
         (select favorites_count from target) as current_count`,
  );
  return row;
}

/** A favourite taken back with its count, as `insertFavorite`; taking one back always works. */
export async function deleteFavorite(
  em: EntityManager,
  userId: string,
  mediaId: string,
): Promise<FavoriteRow | undefined> {
  const [row] = await preparedRows<FavoriteRow>(
    em,
    sql`
  with target as (
    select m.favorites_count from ai_media m where m.id = ${uuid(mediaId)}
  ), del as (
    delete from favorites where user_id = ${uuid(userId)} and media_id = ${uuid(mediaId)} returning media_id
  ), upd as (
    update ai_media set favorites_count = favorites_count - 1
     where id in (select media_id from del)
    returning favorites_count
  )
  select exists (select 1 from target) as found,
         (select favorites_count from upd) as changed_count,
         (select favorites_count from target) as current_count`,
  );
  return row;
}

/** The ids of the media `userId` favourited, most recently favourited first. */
export async function favoriteMediaIds(em: EntityManager, userId: string): Promise<string[]> {
  const found = await rows<{ media_id: string }>(
    em,
    sql`select media_id from favorites where user_id = ${userId} order by created_at desc, media_id desc`,
  );
  return found.map((r) => r.media_id);
}

/**
 * `limit + 1` of the media `ownerId` favourited after `cursor`, as `viewerId` sees them. A member
 * blocked either way sees no favourites (profile details), nor items by such creators; nobody
 * sees a suspended member's, as the rest of their profile.
 */
export function findFavoritesPage(
  em: EntityManager,
  viewerId: string | null,
  ownerId: string,
  cursor: FavoritesCursor | null,
  limit: number,
): Promise<(MediaRow & { favorited_at: string })[]> {
  const after = cursor ? sql`and ${favoritesKeyset.continuing(cursor, FAVORITES_KEY_COLUMNS)}` : empty;
  return rows<MediaRow & { favorited_at: string }>(
    em,
    sql`${selectMedia(viewerId, sql`${iso('fav.created_at')} as favorited_at,`)}
     join favorites fav on fav.media_id = m.id
     where fav.user_id = ${ownerId} and ${shownMemberOf(column('fav.user_id'))} and ${notBlocked(viewerId, column('fav.user_id'))}
       and ${notBlocked(viewerId, column('m.creator_id'))} and ${shownMember('u')} ${after}
     order by ${favoritesKeyset.ordering(FAVORITES_KEY_COLUMNS)}
     limit ${limit + 1}`,
  );
}
