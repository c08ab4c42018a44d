/**
 * Bookmarks: a member keeps posts to read later. Private: only the member reads their list, the
 * author is never told, and nothing else changes (no counter, no notification). Both writes are
 * idempotent. A bookmark is only made on a post the member may see; the list leaves out posts
 * hidden since (bookmark.repository.ts). A write is announced on the bus (`bookmarks`) so the
 * member's own kept copies of the feed and search, on every instance, mark it.
 */
import { type AuthedContext, publishEvent } from '../../context.js';
import { notFound, requireUuid } from '../../errors.js';
import { POST_NOT_FOUND } from '../posts/post.service.js';
import { bookmarkKeyset, deleteBookmark, findBookmarkPage, insertBookmark } from './bookmark.repository.js';
import type { BookmarkListInput, BookmarkPage, BookmarkResult } from './bookmark.schema.js';

/** Idempotent: bookmarking a bookmarked post answers the same. Unknown or hidden posts are 404. */
export async function addBookmark(ctx: AuthedContext, rawPostId: string): Promise<BookmarkResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const visible = await insertBookmark(ctx.em, { userId, postId, now: ctx.now() });
  if (!visible) throw notFound(POST_NOT_FOUND);
  publishEvent(ctx, 'bookmarks', { postId, userId });
  return { bookmarked: true };
}

/**
 * Idempotent. A bookmark of a post hidden since (a block, a removal) may still be taken back;
 * only a post that does not exist at all is a 404.
 */
export async function removeBookmark(ctx: AuthedContext, rawPostId: string): Promise<BookmarkResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const { existed, postExists } = await deleteBookmark(ctx.em, { userId, postId });
  if (!existed && !postExists) throw notFound(POST_NOT_FOUND);
  if (existed) publishEvent(ctx, 'bookmarks', { postId, userId });
  return { bookmarked: false };
}

/**
 * The caller's bookmarks, newest bookmark first. Read on the primary: a bookmark just made (on
 * any instance) is in the list at once.
 */
export function listBookmarks(ctx: AuthedContext, input: BookmarkListInput): Promise<BookmarkPage> {
  return findBookmarkPage(ctx.em, {
    userId: ctx.session.user.id,
    cursor: bookmarkKeyset.decode(input.cursor),
    limit: input.limit,
  });
}
