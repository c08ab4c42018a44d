/**
 * Posts and likes. A like, the post's likesCount and the author's notification change together
 * in one statement (see LIKE_SQL), so concurrent likes never lose a count.
 */
import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { type AuthedContext, type Context, publishEvent, readEm } from '../../context.js';
import { isUuid, notFound, requireUuid } from '../../errors.js';
import { executePrepared } from '../../prepared.js';
import { isoTime } from '../../sql.js';
import { shownMemberById } from '../moderation/suspension.js';
import { requireOwnImage } from '../objects/objects.service.js';
import { feedVisibleAuthor, feedVisibleParams, notBlockedBetween, notMutedBy } from '../safety/safety.sql.js';
import { cachedFeedHead } from './feed-cache.js';
import {
  findFollowingPage,
  findPostById,
  findPostPage,
  insertPost,
  postKeyset,
  viewerMarksAmong,
} from './post.repository.js';
import type { CreatePostInput, FeedInput } from './post.schema.js';
import type { PostDto, PostPage } from './post.serializer.js';

export const POST_NOT_FOUND = 'Post not found';

export interface LikeResult {
  liked: boolean;
  likesCount: number;
}

export async function createPost(ctx: AuthedContext, input: CreatePostInput): Promise<{ post: PostDto }> {
  // imageUrl is an /objects/ path (checked by the schema) of the caller's own public upload.
  if (input.imageUrl) await requireOwnImage(ctx, input.imageUrl);
  const post = await insertPost(ctx.em, {
    id: randomUUID(),
    authorId: ctx.session.user.id,
    content: input.content,
    imageUrl: input.imageUrl ?? null,
    createdAt: ctx.now(),
  });
  publishEvent(ctx, 'posts', { postId: post.id, authorId: ctx.session.user.id });
  return { post };
}

/** One post as the viewer sees it: where a notification or a shared link points. */
export async function getPost(ctx: Context, rawPostId: string): Promise<{ post: PostDto }> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const post = await findPostById(ctx.em, postId, ctx.session?.user.id ?? null);
  if (!post) throw notFound(POST_NOT_FOUND);
  return { post };
}

export const FOLLOWING_NEEDS_LOGIN = 'Log in to see the posts of people you follow';

export async function feed(ctx: Context, input: FeedInput): Promise<PostPage> {
  const viewerId = ctx.session?.user.id ?? null;
  const cursor = postKeyset.decode(input.cursor);
  if (input.scope === 'following') {
    if (!viewerId) throw new TRPCError({ code: 'UNAUTHORIZED', message: FOLLOWING_NEEDS_LOGIN });
    // Each viewer's Following feed is their own: nothing to share through the cache.
    // The first page on the primary: it must show whom the viewer just followed.
    return findFollowingPage(cursor ? readEm(ctx) : ctx.em, { viewerId, cursor, limit: input.limit });
  }
  // Pages past the first on the read replica, when there is one. The first page stays on the
  // primary: a write drops its cached copy, and a lagging replica would fill it again as it was.
  if (cursor) return findPostPage(readEm(ctx), { viewerId, cursor, limit: input.limit, feed: true });
  // The first page comes from the shared cache, with this viewer's likes marked and the authors
  // they blocked, were blocked by or muted left out.
  return cachedFeedHead(ctx.cacheScope, input.limit, viewerId, {
    load() {
      return findPostPage(ctx.em, { viewerId: null, cursor: null, limit: input.limit });
    },
    viewerMarks(viewer, postIds, authorIds) {
      return viewerMarksAmong(ctx.em, viewer, postIds, authorIds, 'feed');
    },
  });
}

/**
 * After the statement, so no reader can cache the page as it was before this write, and the
 * author's bell (on whichever instance) reads the notification that is now there.
 */
function afterLikeCommitted(
  ctx: AuthedContext,
  postId: string,
  result: LikeResult & { authorId: string | null },
): LikeResult {
  publishEvent(ctx, 'likes', { postId, userId: ctx.session.user.id, likesCount: result.likesCount });
  if (result.authorId && result.authorId !== ctx.session.user.id) {
    publishEvent(ctx, 'notifications', { recipientId: result.authorId });
  }
  return { liked: result.liked, likesCount: result.likesCount };
}

interface ToggleRow {
  /**
   * the post exists, is not removed and (for a like) no block stands between liker and author,
   * nor is the author suspended
   */
  visible: boolean;
  /** likes_count after this statement's change; null when it changed nothing */
  changed_count: number | null;
  /** likes_count as the statement found it (when it changed nothing) */
  current_count: number | null;
  /** the author, when the statement changed something */
  author_id: string | null;
}

/**
 * Like and unlike are each one statement, one round trip: the insert or delete of the like
 * decides (on conflict do nothing / returning), only a like that really changed moves the counter
 * (atomically, `likes_count ± 1` under the row lock, so concurrent toggles never lose a count),
 * and the author's notification is written or taken back in the same statement. Data-modifying
 * CTEs all run, referenced or not, and the statement is its own transaction.
 */
const LIKE_SQL = `
  with target as (
    select p.id, p.author_id, p.likes_count from posts p
     where p.id = ?::uuid and p.removed_at is null and ${notBlockedBetween('?::uuid', 'p.author_id')}
       and ${shownMemberById('p.author_id')}
  ), ins as (
    insert into likes (user_id, post_id, created_at)
    select ?::uuid, target.id, ?::timestamptz from target
    on conflict do nothing
    returning post_id
  ), upd as (
    update posts set likes_count = likes_count + 1
     where id in (select post_id from ins)
    returning likes_count, author_id
  ), note as (
    -- As notify(): none to oneself, none to an author who muted the liker; duplicates dropped.
    insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at)
    select ?::uuid, upd.author_id, ?::uuid, 'like', ?::uuid, null, ?::timestamptz from upd
     where upd.author_id <> ?::uuid and ${notMutedBy('upd.author_id', '?::uuid')}
    on conflict do nothing
  )
  select exists (select 1 from target) as visible,
         (select likes_count from upd) as changed_count,
         (select likes_count from target) as current_count,
         (select author_id from upd) as author_id`;

const UNLIKE_SQL = `
  with target as (
    select p.likes_count from posts p where p.id = ?::uuid and p.removed_at is null
  ), del as (
    delete from likes where user_id = ?::uuid and post_id = ?::uuid returning post_id
  ), upd as (
    update posts set likes_count = likes_count - 1
     where id in (select post_id from del)
    returning likes_count, author_id
  ), retract as (
    delete from notifications
     where type = 'like' and actor_id = ?::uuid and post_id in (select post_id from del)
  )
  select exists (select 1 from target) as visible,
         (select likes_count from upd) as changed_count,
         (select likes_count from target) as current_count,
         (select author_id from upd) as author_id`;

/** Idempotent: liking a liked post changes nothing and answers the same. */
export async function likePost(ctx: AuthedContext, rawPostId: string): Promise<LikeResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const now = ctx.now();
  const [row] = await executePrepared<ToggleRow[]>(ctx.em, LIKE_SQL, [
    postId,
    userId,
    userId,
    userId,
    now,
    randomUUID(),
    userId,
    postId,
    now,
    userId,
    userId,
  ]);
  // Unknown, removed, or hidden by a block either way: the same 404.
  if (!row?.visible) throw notFound(POST_NOT_FOUND);
  const likesCount = row.changed_count ?? row.current_count ?? 0;
  return afterLikeCommitted(ctx, postId, { liked: true, likesCount, authorId: row.author_id });
}

/** Idempotent: unliking a post one does not like changes nothing. */
export async function unlikePost(ctx: AuthedContext, rawPostId: string): Promise<LikeResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const [row] = await executePrepared<ToggleRow[]>(ctx.em, UNLIKE_SQL, [postId, userId, postId, userId]);
  // Taking back a like of a post removed since still counts; otherwise an unknown post is a 404.
  if (!row || (row.changed_count === null && !row.visible)) throw notFound(POST_NOT_FOUND);
  const likesCount = row.changed_count ?? row.current_count ?? 0;
  return afterLikeCommitted(ctx, postId, { liked: false, likesCount, authorId: row.author_id });
}

/** A post that was published while the reader had the feed open. */
export interface NewPostEvent {
  postId: string;
  authorId: string;
  createdAt: string;
}

/** How many missed posts a reconnecting client is told about: enough to show 'New posts'. */
export const NEW_POSTS_CATCH_UP_LIMIT = 20;

/**
 * New posts, live, for the feed's 'New posts' pill: those the feed would show (no removed post,
 * no author blocked either way, muted or suspended). Each event's id is the post's keyset cursor,
 * so a client that reconnects with `lastEventId` hears of the posts it missed (from the
 * database), then of new ones as the bus brings them.
 */
export async function* liveNewPosts(
  ctx: Context,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ id: string; post: NewPostEvent }> {
  const since = postKeyset.decode(lastEventId);
  const viewerId = ctx.session?.user.id ?? null;
  // Listen before reading, so a post published during the catch-up query is not lost.
  const published = ctx.bus.subscribe('posts', { signal });
  const seen = new Set<string>();
  const load = (where: string, params: unknown[]) =>
    ctx.fork().execute<{ id: string; author_id: string; created_at: string }[]>(
      `select id, author_id, ${isoTime('created_at')} as created_at from posts
        where removed_at is null and ${where} and ${feedVisibleAuthor('author_id')}
          and ${shownMemberById('author_id')}
        order by created_at, id limit ${NEW_POSTS_CATCH_UP_LIMIT}`,
      [...params, ...feedVisibleParams(viewerId)],
    );
  const event = (row: { id: string; author_id: string; created_at: string }) => {
    seen.add(row.id);
    return {
      id: postKeyset.encode({ createdAt: row.created_at, id: row.id }),
      post: { postId: row.id, authorId: row.author_id, createdAt: row.created_at },
    };
  };
  if (since) {
    for (const row of await load('(created_at, id) > (?::timestamptz, ?::uuid)', [
      since.createdAt,
      since.id,
    ])) {
      yield event(row);
    }
  }
  for await (const { postId } of published) {
    if (seen.has(postId) || !isUuid(postId)) continue;
    const [row] = await load('id = ?', [postId]);
    if (row) yield event(row);
  }
}
