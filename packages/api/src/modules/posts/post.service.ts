/**
 * Posts and likes. A like and the post's likesCount change together in one transaction: the
 * insert or delete decides (on conflict do nothing / returning), and only a row that really
 * changed moves the counter, atomically in SQL, so concurrent likes never lose a count.
 */
import { Post, User } from '@cubes/db';
import type { AuthedContext, Context } from '../../context.js';
import { notFound, requireUuid } from '../../errors.js';
import { notify, retractLikeNotification } from '../notifications/notification.service.js';
import { requireOwnImage } from '../objects/objects.service.js';
import { cachedFeedHead, invalidateFeed } from './feed-cache.js';
import { findPostById, findPostPage, likedAmong, postKeyset } from './post.repository.js';
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
  invalidateFeed(ctx.em);
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

export async function feed(ctx: Context, input: FeedInput): Promise<PostPage> {
  const viewerId = ctx.session?.user.id ?? null;
  const cursor = postKeyset.decode(input.cursor);
  if (cursor) return findPostPage(ctx.em, { viewerId, cursor, limit: input.limit });
  // The first page comes from the shared cache, with this viewer's likes marked.
  return cachedFeedHead(ctx.cacheScope, input.limit, viewerId, {
    load() {
      return findPostPage(ctx.em, { viewerId: null, cursor: null, limit: input.limit });
    },
    likedAmong(viewer, postIds) {
      return likedAmong(ctx.em, viewer, postIds);
    },
  });
}

async function currentLikesCount(em: Context['em'], postId: string): Promise<number> {
  const rows = await em.execute<{ likes_count: number }[]>('select likes_count from posts where id = ?', [
    postId,
  ]);
  if (!rows[0]) throw notFound(POST_NOT_FOUND);
  return rows[0].likes_count;
}

/** Idempotent: liking a liked post changes nothing and answers the same. */
export async function likePost(ctx: AuthedContext, rawPostId: string): Promise<LikeResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const now = ctx.now();
  const result = await ctx.em.transactional(async (em) => {
    // Selecting from posts makes an unknown post insert nothing instead of failing the foreign key.
    const inserted = await em.execute<{ post_id: string }[]>(
      `insert into likes (user_id, post_id, created_at)
       select ?, p.id, ? from posts p where p.id = ?
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
    return { liked: true, likesCount: post.likes_count };
  });
  // After the commit, so no reader can cache the page as it was before this write.
  invalidateFeed(ctx.em);
  return result;
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
    const [post] = await em.execute<{ likes_count: number }[]>(
      'update posts set likes_count = likes_count - 1 where id = ? returning likes_count',
      [postId],
    );
    await retractLikeNotification(em, userId, postId);
    return { liked: false, likesCount: post?.likes_count ?? 0 };
  });
  // After the commit, so no reader can cache the page as it was before this write.
  invalidateFeed(ctx.em);
  return result;
}
