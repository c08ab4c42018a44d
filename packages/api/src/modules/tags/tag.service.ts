/**
 * Tags: `#tag` in a post (text-links.ts finds them, folded) is stored in post_tags when the post
 * is written or edited; the tag page lists its posts newest first (keyset-paged, live), with its
 * counts of posts and of people; trending ranks the last 24 hours' tags by distinct people;
 * Search lists the tags that start with what is typed.
 * Every read leaves out removed posts and suspended authors, and the tag page and trending also
 * what a block either way or the viewer's mute hides, as the feed does.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Context, readEm } from '../../context.js';
import { isUuid } from '../../errors.js';
import { foldTag, tagPrefixOf, tagsOf } from '../../text-links.js';
import type { PostPage } from '../posts/post.schema.js';
import { cachedTrending } from './tag.cache.js';
import {
  countTag,
  findHiddenTagUse,
  findNewTagPost,
  findTagPage,
  findTagsStartingWith,
  findTrending,
  replacePostTags,
  tagKeyset,
} from './tag.repository.js';
import {
  TAG_SEARCH_CANDIDATES,
  TAG_SEARCH_MAX,
  type TagPostsInput,
  type TagSearchInput,
  type TagSummary,
  TRENDING_CANDIDATES,
  TRENDING_MAX,
  TRENDING_WINDOW_MS,
  type TrendingTag,
} from './tag.schema.js';

/** After a post was written or edited: its tags are its text's. */
export async function tagPost(em: EntityManager, post: { id: string; content: string }): Promise<string[]> {
  const tags = tagsOf(post.content);
  await replacePostTags(em, post.id, tags);
  return tags;
}

export function tagPosts(ctx: Context, input: TagPostsInput): Promise<PostPage> {
  return findTagPage(ctx.em, {
    tag: foldTag(input.tag),
    viewerId: ctx.session?.user.id ?? null,
    cursor: tagKeyset.decode(input.cursor),
    limit: input.limit,
  });
}

/** The tag folded, and how many shown posts and people use it. */
export async function tagSummary(ctx: Context, rawTag: string): Promise<TagSummary> {
  const tag = foldTag(rawTag);
  return { tag, ...(await countTag(ctx.em, tag)) };
}

/**
 * The tags the most distinct people used in the last 24 hours, at most 10, without what the
 * viewer hides: the candidates are kept for everyone (tag.cache.ts); for a member, what their
 * blocked (either way) and muted members add to them is subtracted, and the list ranked again.
 */
export async function trending(ctx: Context): Promise<TrendingTag[]> {
  const since = new Date(ctx.now().getTime() - TRENDING_WINDOW_MS);
  const kept = await cachedTrending(ctx.cacheScope, TRENDING_MAX, () =>
    findTrending(ctx.em, since, TRENDING_CANDIDATES),
  );
  const viewerId = ctx.session?.user.id;
  if (!viewerId || kept.candidates.length === 0) return kept.top;
  const hidden = await findHiddenTagUse(
    ctx.em,
    viewerId,
    kept.candidates.map((t) => t.tag),
    since,
  );
  if (hidden.length === 0) return kept.top;
  const less = new Map(hidden.map((h) => [h.tag, h]));
  return (
    kept.candidates
      .map((t) => {
        const h = less.get(t.tag);
        return h
          ? {
              tag: t.tag,
              postsCount: t.postsCount - h.postsCount,
              peopleCount: t.peopleCount - h.peopleCount,
            }
          : t;
      })
      .filter((t) => t.peopleCount > 0)
      // Stable: ties keep the statement's order (its last key is the tag).
      .sort((a, b) => b.peopleCount - a.peopleCount || b.postsCount - a.postsCount)
      .slice(0, TRENDING_MAX)
  );
}

/**
 * The tags starting with the query (its `#` dropped, folded), most people first, at most 5, with
 * their counts as on the tag page's header; none when the query could start no tag. Counted among
 * the first TAG_SEARCH_CANDIDATES such tags in code-point order, so a short prefix stays cheap.
 */
export async function searchTags(ctx: Context, input: TagSearchInput): Promise<TagSummary[]> {
  const prefix = tagPrefixOf(input.q);
  if (prefix === null) return [];
  return findTagsStartingWith(readEm(ctx), prefix, TAG_SEARCH_CANDIDATES, TAG_SEARCH_MAX);
}

/**
 * New posts with `tag`, live, for the tag page: each that the page would show the viewer, as it
 * is published (the bus's `posts` topic, from every instance). The event id is the post's cursor.
 */
export async function* liveTagPosts(
  ctx: Context,
  rawTag: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ id: string; postId: string }> {
  const tag = foldTag(rawTag);
  const viewerId = ctx.session?.user.id ?? null;
  for await (const { postId } of ctx.bus.subscribe('posts', { signal })) {
    if (!isUuid(postId)) continue;
    const row = await findNewTagPost(ctx.fork(), tag, postId, viewerId);
    if (row) yield { id: tagKeyset.encode({ createdAt: row.created_at, id: row.id }), postId: row.id };
  }
}
