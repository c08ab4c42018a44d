/**
 * Posts and likes. A like, the post's likesCount and the author's notification change together
 * in one statement (post.repository.ts's insertLike), so concurrent likes never lose a count.
 */
import { randomUUID } from 'node:crypto';
import type { PostImageData } from '@cubes/db';
import { type AuthedContext, type Context, publishEvent, readEm } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badRequest, isUuid, notFound, requireUuid, unauthorized } from '../../errors.js';
import { mentionedUsernames, tagsOf } from '../../text-links.js';
import { attachLinkCard } from '../link-cards/link-card.service.js';
import { mentionsInPost, tellMentioned } from '../mentions/mention.service.js';
import { notificationGroupKey } from '../notifications/notification.groups.js';
import { notify } from '../notifications/notification.service.js';
import { findOwnPublicObject, IMAGE_NOT_FOUND } from '../objects/objects.service.js';
import { createPoll, queuePollEnd } from '../polls/poll.service.js';
import { tagPost } from '../tags/tag.service.js';
import { cachedFeedHead, cachedFeedPage, markedFor } from './feed.cache.js';
import { cachedFollowingHead, cachedFollowingLater, cachedWindowMarks } from './following.cache.js';
import {
  chooseFollowing,
  findFolloweeIds,
  findFollowingPage,
  followingItems,
  followingNextCursor,
} from './following.repository.js';
import { deleteLike, insertLike } from './like.repository.js';
import {
  findNewPost,
  findNewPostsSince,
  findPostById,
  findPostPage,
  findPostsByIds,
  insertPost,
  type NewPostRow,
  postKeyset,
  viewerMarksAmong,
} from './post.repository.js';
import type { CreatePostInput, FeedInput, LikeResult, PostPage, PostResult } from './post.schema.js';
import { cachedPosts } from './posts-by-id.cache.js';

export const POST_NOT_FOUND = ERROR_REASONS.POST_NOT_FOUND;

export type { LikeResult } from './post.schema.js';

/**
 * A new post's images as stored: each an /objects/ path (checked by the schema) of the caller's
 * own finished (public) upload, with the size it was stored at. Someone else's upload, one still
 * private (unfinished) or an unknown path is a 400, the same for each. `imageUrl` is one image
 * without a description.
 */
async function ownPostImages(ctx: AuthedContext, input: CreatePostInput): Promise<PostImageData[]> {
  const wanted = input.images ?? (input.imageUrl ? [{ objectPath: input.imageUrl, alt: null }] : []);
  const images: PostImageData[] = [];
  for (const { objectPath, alt, sensitive } of wanted) {
    const upload = await findOwnPublicObject(ctx, objectPath);
    if (!upload) throw badRequest(IMAGE_NOT_FOUND);
    images.push({
      url: objectPath,
      width: upload.width ?? null,
      height: upload.height ?? null,
      alt: alt || null,
      sensitive: sensitive === true,
    });
  }
  return images;
}

export const QUOTED_POST_NOT_FOUND = ERROR_REASONS.QUOTED_POST_UNAVAILABLE;

/** The post a new post quotes, if it is there for its author (else a 400): its id and author. */
async function quotedPost(
  ctx: AuthedContext,
  quotePostId: string | null | undefined,
): Promise<{ id: string; authorId: string } | null> {
  if (quotePostId == null) return null;
  const id = isUuid(quotePostId) ? quotePostId.toLowerCase() : null;
  const quoted = id ? await findPostById(ctx.em, id, ctx.session.user.id) : null;
  if (!quoted) throw badRequest(QUOTED_POST_NOT_FOUND);
  return { id: quoted.id, authorId: quoted.userId };
}

export async function createPost(ctx: AuthedContext, input: CreatePostInput): Promise<PostResult> {
  const images = await ownPostImages(ctx, input);
  const quoted = await quotedPost(ctx, input.quotePostId);
  const row = {
    id: randomUUID(),
    authorId: ctx.session.user.id,
    content: input.content,
    contentWarning: input.contentWarning ?? null,
    images,
    createdAt: ctx.now(),
    quoteOf: quoted?.id ?? null,
  };
  // The post, its tags, its mentions, its poll and the quoted author's notification commit
  // together, before the live feeds and tag pages hear of it. A post with none of them is its one
  // statement.
  const plain =
    !quoted &&
    !input.poll &&
    tagsOf(input.content).length === 0 &&
    mentionedUsernames(input.content).length === 0;
  const post = plain
    ? { ...(await insertPost(ctx.em, row)), mentions: { mentions: [], notified: [] } }
    : await ctx.em.transactional(async (em) => {
        const written = await insertPost(em, row);
        if (input.poll) written.poll = await createPoll(em, written.id, input.poll, row.createdAt);
        await tagPost(em, written);
        if (quoted) {
          await notify(em, {
            recipientId: quoted.authorId,
            actorId: row.authorId,
            type: 'quote',
            postId: written.id,
            at: row.createdAt,
          });
        }
        return { ...written, mentions: await mentionsInPost(em, ctx, written) };
      });
  // Its link's card: at once when the page was fetched today, otherwise a job follows it.
  const linkCard = await attachLinkCard(ctx, post, input.linkCard !== false);
  publishEvent(ctx, 'posts', { postId: post.id, authorId: ctx.session.user.id });
  if (quoted && quoted.authorId !== row.authorId) {
    publishEvent(ctx, 'notifications', { recipientId: quoted.authorId });
  }
  tellMentioned(ctx, post.mentions.notified);
  if (post.poll) await queuePollEnd(ctx, post.id, post.poll);
  return { post: { ...post, mentions: post.mentions.mentions, linkCard } };
}

/** One post as the viewer sees it: where a notification or a shared link points. */
export async function getPost(ctx: Context, rawPostId: string): Promise<PostResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const post = await findPostById(ctx.em, postId, ctx.session?.user.id ?? null);
  if (!post) throw notFound(POST_NOT_FOUND);
  return { post };
}

export const FOLLOWING_NEEDS_LOGIN = ERROR_REASONS.FOLLOWING_NEEDS_LOGIN;

export async function feed(ctx: Context, input: FeedInput): Promise<PostPage> {
  const viewerId = ctx.session?.user.id ?? null;
  const cursor = postKeyset.decode(input.cursor);
  if (input.scope === 'following') {
    if (!viewerId) throw unauthorized(FOLLOWING_NEEDS_LOGIN);
    if (cursor) {
      // The posts are chosen a window of pages at a time (following.cache.ts), on the replica when
      // there is one, then taken from the posts kept for every reader (posts-by-id.cache.ts), with
      // this reader's likes and bookmarks (looked up once per window). Those two are read on the
      // primary: a write drops their kept copy, and a lagging replica would fill it again as it was.
      const chosen = await cachedFollowingLater(
        ctx.cacheScope,
        viewerId,
        input.limit,
        cursor,
        (count, followees) => chooseFollowing(readEm(ctx), { viewerId, cursor, count, followees }),
      );
      const page = chosen.slice(0, input.limit);
      const ids = page.map((p) => p.id);
      const [posts, marks] = await Promise.all([
        cachedPosts(ctx.cacheScope, ids, (missing) => findPostsByIds(ctx.em, missing, null)),
        cachedWindowMarks(ctx.cacheScope, viewerId, ids, (postIds) =>
          viewerMarksAmong(ctx.em, viewerId, postIds, [], 'feed'),
        ),
      ]);
      // The kept posts' quotes are as everyone sees them: the viewer's blocks and mutes of the
      // quoted authors are asked here, only when the page holds a quote.
      const quoted = [...new Set(posts.flatMap((p) => (p.quote ? [p.quote.userId] : [])))];
      const hidden =
        quoted.length > 0 ? (await viewerMarksAmong(ctx.em, viewerId, [], quoted, 'feed')).hidden : null;
      return {
        items: followingItems(
          page,
          markedFor(posts, hidden ? { ...marks, hidden: new Set([...marks.hidden, ...hidden]) } : marks),
        ),
        nextCursor: followingNextCursor(chosen, input.limit),
      };
    }
    // The first page is the viewer's own, kept until an event changes it (following.cache.ts),
    // and read on the primary: it must show whom the viewer just followed.
    return cachedFollowingHead(ctx.cacheScope, viewerId, input.limit, async () => {
      const followees = await findFolloweeIds(ctx.em, viewerId);
      const page = await findFollowingPage(ctx.em, {
        viewerId,
        cursor: null,
        limit: input.limit,
        followees: followees.length,
      });
      return { page, followees };
    });
  }
  // Each page comes from the shared cache, with this viewer's likes marked and the authors they
  // blocked, were blocked by or muted left out. Pages past the first are read on the replica, when
  // there is one (as they were before they were kept). The first page stays on the primary: a
  // write drops its kept copy, and a lagging replica would fill it again as it was.
  const viewerMarks = (viewer: string, postIds: string[], authorIds: string[]) =>
    viewerMarksAmong(ctx.em, viewer, postIds, authorIds, 'feed');
  if (cursor) {
    return cachedFeedPage(ctx.cacheScope, postKeyset.encode(cursor), input.limit, viewerId, {
      load: () => findPostPage(readEm(ctx), { viewerId: null, cursor, limit: input.limit }),
      viewerMarks,
    });
  }
  return cachedFeedHead(ctx.cacheScope, input.limit, viewerId, {
    load: () => findPostPage(ctx.em, { viewerId: null, cursor: null, limit: input.limit }),
    viewerMarks,
  });
}

/**
 * After the statement, so no reader can cache the page as it was before this write. The like
 * publishes this one event and answers: the author's bell and pushes follow from it, batched
 * (notifications/notification.bells.ts), and read the notification the statement wrote.
 */
function afterLikeCommitted(
  ctx: AuthedContext,
  postId: string,
  result: LikeResult & { authorId: string | null },
): LikeResult {
  publishEvent(ctx, 'likes', {
    postId,
    userId: ctx.session.user.id,
    likesCount: result.likesCount,
    authorId: result.authorId,
  });
  return { liked: result.liked, likesCount: result.likesCount };
}

/** Idempotent: liking a liked post changes nothing and answers the same. */
export async function likePost(ctx: AuthedContext, rawPostId: string): Promise<LikeResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const now = ctx.now();
  const row = await insertLike(ctx.em, {
    postId,
    userId,
    now,
    notificationId: randomUUID(),
    groupKey: notificationGroupKey('like', postId, now),
  });
  // Unknown, removed, or hidden by a block either way: the same 404.
  if (!row?.visible) throw notFound(POST_NOT_FOUND);
  const likesCount = row.changed_count ?? row.current_count ?? 0;
  return afterLikeCommitted(ctx, postId, { liked: true, likesCount, authorId: row.author_id });
}

/** Idempotent: unliking a post one does not like changes nothing. */
export async function unlikePost(ctx: AuthedContext, rawPostId: string): Promise<LikeResult> {
  const postId = requireUuid(rawPostId, POST_NOT_FOUND);
  const userId = ctx.session.user.id;
  const row = await deleteLike(ctx.em, { postId, userId });
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
  const event = (row: NewPostRow) => {
    seen.add(row.id);
    return {
      id: postKeyset.encode({ createdAt: row.created_at, id: row.id }),
      post: { postId: row.id, authorId: row.author_id, createdAt: row.created_at },
    };
  };
  if (since) {
    for (const row of await findNewPostsSince(ctx.fork(), viewerId, since, NEW_POSTS_CATCH_UP_LIMIT)) {
      yield event(row);
    }
  }
  for await (const { postId } of published) {
    if (seen.has(postId) || !isUuid(postId)) continue;
    const row = await findNewPost(ctx.fork(), viewerId, postId);
    if (row) yield event(row);
  }
}
