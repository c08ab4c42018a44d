/**
 * Every statement on bookmarks. A bookmark is written only on a post its owner may see (not
 * removed, author shown, no block either way); the list reads the posts with the same columns as
 * every post list, and leaves out what has become hidden since: removed posts, suspended authors,
 * authors blocked either way or muted. Deleted posts and accounts take their bookmarks along (the
 * foreign keys cascade). The list pages by keyset on (bookmark time, post id), served by
 * bookmarks_user_created_at_index.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetKey, keyset } from '../../paging.js';
import { preparedRows } from '../../prepared.js';
import { iso, join, type Sql, sql, uuid } from '../../sql.js';
import { shownMember, shownMemberOf } from '../moderation/suspension.sql.js';
import { selectPosts } from '../posts/post.repository.js';
import { type PostRow, toPostDto } from '../posts/post.serializer.js';
import { column, inFeedOf, notBlocked } from '../safety/safety.sql.js';
import type { BookmarkPage } from './bookmark.schema.js';

/** Newest bookmark first, ties broken by the post id. */
export const bookmarkKeyset = keyset({
  name: 'bookmarks',
  order: 'desc',
  key: { bookmarkedAt: 'timestamp', postId: 'uuid' },
});
export type BookmarkCursor = KeysetKey<typeof bookmarkKeyset>;
const BOOKMARK_KEY_COLUMNS = { bookmarkedAt: 'b.created_at', postId: 'b.post_id' };

/**
 * Bookmarks `postId` for `userId` if the post is there for them: true when the post is visible
 * (whether or not it was bookmarked already), false when it is unknown or hidden from them.
 */
export async function insertBookmark(
  em: EntityManager,
  bookmark: { userId: string; postId: string; now: Date },
): Promise<boolean> {
  const { userId, postId, now } = bookmark;
  const author = column('p.author_id');
  const [row] = await preparedRows<{ visible: boolean }>(
    em,
    sql`with target as (
       select p.id from posts p
        where p.id = ${uuid(postId)} and p.removed_at is null
          and ${notBlocked(userId, author)} and ${shownMemberOf(author)}
     ), ins as (
       insert into bookmarks (user_id, post_id, created_at)
       select ${uuid(userId)}, target.id, ${now}::timestamptz from target
       on conflict do nothing
       returning post_id
     )
     select exists (select 1 from target) as visible`,
  );
  return row?.visible ?? false;
}

/** Takes back a bookmark; true when the post still exists (so the answer is not a 404). */
export async function deleteBookmark(
  em: EntityManager,
  bookmark: { userId: string; postId: string },
): Promise<{ existed: boolean; postExists: boolean }> {
  const { userId, postId } = bookmark;
  const [row] = await preparedRows<{ existed: boolean; post_exists: boolean }>(
    em,
    sql`with del as (
       delete from bookmarks where user_id = ${uuid(userId)} and post_id = ${uuid(postId)} returning post_id
     )
     select exists (select 1 from del) as existed,
            exists (select 1 from posts where id = ${uuid(postId)}) as post_exists`,
  );
  return { existed: row?.existed ?? false, postExists: row?.post_exists ?? false };
}

type BookmarkRow = PostRow & { bookmarked_at: string };

/** `userId`'s bookmarked posts they may still see, newest bookmark first. */
export async function findBookmarkPage(
  em: EntityManager,
  query: { userId: string; cursor: BookmarkCursor | null; limit: number },
): Promise<BookmarkPage> {
  const { userId } = query;
  const where: Sql[] = [sql`p.removed_at is null`, shownMember('u'), inFeedOf(userId, column('p.author_id'))];
  if (query.cursor) where.push(bookmarkKeyset.continuing(query.cursor, BOOKMARK_KEY_COLUMNS));
  const found = await preparedRows<BookmarkRow>(
    em,
    sql`${selectPosts(userId, sql`, ${iso('b.created_at')} as bookmarked_at`)}
       join bookmarks b on b.post_id = p.id and b.user_id = ${uuid(userId)}
      where ${join(where, ' and ')}
      order by ${bookmarkKeyset.ordering(BOOKMARK_KEY_COLUMNS)}
      limit ${query.limit + 1}`,
  );
  return bookmarkKeyset.page(found, query.limit, toPostDto, (row) => ({
    bookmarkedAt: row.bookmarked_at,
    postId: row.id,
  }));
}
