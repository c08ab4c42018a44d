/**
 * Posts and likes. A like and the post's likesCount change together in one transaction: the
 * insert or delete decides (on conflict do nothing / returning), and only a row that really
 * changed moves the counter, atomically in SQL, so concurrent likes never lose a count.
 */
import { Post, User } from '@cubes/db';
import { TRPCError } from '@trpc/server';
import { type AuthedContext, type Context, publishEvent, readEm } from '../../context.js';
import { isUuid, notFound, requireUuid } from '../../errors.js';
import { isoTime } from '../../sql.js';
import { notify, retractLikeNotification } from '../notifications/notification.service.js';
import { requireOwnImage } from '../objects/objects.service.js';
import { hiddenAuthorsAmong, requireVisiblePost } from '../safety/safety.service.js';
import { feedVisibleAuthor, feedVisibleParams } from '../safety/safety.sql.js';
import { cachedFeedHead, feedChanged } from './feed-cache.js';
import { findFollowingPage, findPostById, findPostPage, likedAmong, postKeyset } from './post.repository.js';
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
  const post = ctx.em.create(Post, {
    author: ctx.em.getReference(User, ctx.session.user.id),
    content: input.content,
    imageUrl: input.imageUrl ?? null,
    likesCount: 0,
    commentsCount: 0,
    createdAt: ctx.now(),
  });
  await ctx.em.flush();
  feedChanged(ctx);
  publishEvent(ctx, 'posts', { postId: post.id, authorId: ctx.session.user.id });
  const dto = await findPostById(ctx.em, post.id, ctx.session.user.id);
  if (!dto) throw notFound(POST_NOT_FOUND);
  return { post: dto };
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
    likedAmong(viewer, postIds) {
      return likedAmong(ctx.em, viewer, postIds);
    },
    hiddenAuthorsAmong(viewer, authorIds) {
      return hiddenAuthorsAmong(ctx.em, viewer, authorIds);
    },
  });
}

async function currentLikesCount(em: Context['em'], postId: string): Promise<number> {
  const rows = await em.execute<{ likes_count: number }[]>(
    'select likes_count from posts where id = ? and removed_at is null',
    [postId],
  );
  if (!rows[0]) throw notFound(POST_NOT_FOUND);
  return rows[0].likes_count;
}

/**
 * After the commit, so no reader can cache the page as it was before this write, and the
 * author's bell (on whichever instance) reads the notification that is now there.
 */
function afterLikeCommitted(ctx: Context, result: LikeResult & { authorId?: string }): LikeResult {
  feedChanged(ctx);
  if (result.authorId && result.authorId !== ctx.session?.user.id) {
    publishEvent(ctx, 'notifications', { recipientId: result.authorId });
  }
  return { liked: result.liked, likesCount: result.likesCount };
}

/** Idempotent: liking a liked post changes nothing and answers the same. */
export async function likePost(ctx: AuthedContext, rawPostId: string): Promise<LikeResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const now = ctx.now();
  await requireVisiblePost(ctx.em, userId, postId, POST_NOT_FOUND);
  const result = await ctx.em.transactional(async (em) => {
    // Selecting from posts makes an unknown post insert nothing instead of failing the foreign key.
    const inserted = await em.execute<{ post_id: string }[]>(
      `insert into likes (user_id, post_id, created_at)
       select ?, p.id, ? from posts p where p.id = ? and p.removed_at is null
       on conflict do nothing
       returning post_id`,
      [userId, now, postId],
    );
    if (inserted.length === 0) return { liked: true, likesCount: await currentLikesCount(em, postId) };
    const [post] = await em.execute<{ likes_count: number; author_id: string }[]>(
      'update posts set likes_count = likes_count + 1 where id = ? returning likes_count, author_id',
      [postId],
    );
    if (!post) throw notFound(POST_NOT_FOUND);
    await notify(em, { recipientId: post.author_id, actorId: userId, type: 'like', postId, at: now });
    return { liked: true, likesCount: post.likes_count, authorId: post.author_id };
  });
  return afterLikeCommitted(ctx, result);
}

/** Idempotent: unliking a post one does not like changes nothing. */
export async function unlikePost(ctx: AuthedContext, rawPostId: string): Promise<LikeResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const result = await ctx.em.transactional(async (em) => {
    const deleted = await em.execute<{ post_id: string }[]>(
      'delete from likes where user_id = ? and post_id = ? returning post_id',
      [userId, postId],
    );
    if (deleted.length === 0) return { liked: false, likesCount: await currentLikesCount(em, postId) };
    const [post] = await em.execute<{ likes_count: number; author_id: string }[]>(
      'update posts set likes_count = likes_count - 1 where id = ? returning likes_count, author_id',
      [postId],
    );
    await retractLikeNotification(em, userId, postId);
    return { liked: false, likesCount: post?.likes_count ?? 0, authorId: post?.author_id };
  });
  return afterLikeCommitted(ctx, result);
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
 * New posts, live, for the feed's 'New posts' pill. Each event's id is the post's keyset cursor,
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
