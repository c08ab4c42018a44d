/**
 * Tags: `#tag` in a post (text-links.ts finds them, folded) is stored in post_tags when the post
 * is written or edited; the tag page lists its posts newest first (keyset-paged, live), with its
 * counts of posts and of people; trending ranks the last 24 hours' tags by distinct people;
 * Search lists the tags that start with what is typed.
 * Every read leaves out removed posts and suspended authors, and for a member also what a block
 * either way or their mute hides, as the feed does: the tag page's posts and counts, trending and
 * Search's tags alike.
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

/** Since the start: all of a tag's posts (the tag page and Search count them all). */
const EVER = new Date(0);

/** The tag folded, and how many shown posts and people use it (for a member, less what they hide). */
export async function tagSummary(ctx: Context, rawTag: string): Promise<TagSummary> {
  const tag = foldTag(rawTag);
  const [counted] = await lessHidden(ctx, [{ tag, ...(await countTag(ctx.em, tag)) }], EVER);
  return counted ?? { tag, postsCount: 0, peopleCount: 0 };
}

/**
 * `tags` as `ctx`'s member sees them: what the members they blocked, who blocked them, or whom
 * they muted added since `since` is subtracted from each tag's counts (findHiddenTagUse). The
 * same array for a visitor or a member who hides nobody; otherwise a new one, in the same order.
 */
async function lessHidden<T extends TagSummary>(ctx: Context, tags: T[], since: Date): Promise<T[]> {
  const viewerId = ctx.session?.user.id;
  if (!viewerId || tags.length === 0) return tags;
  const hidden = await findHiddenTagUse(
    ctx.em,
    viewerId,
    tags.map((t) => t.tag),
    since,
  );
  if (hidden.length === 0) return tags;
  const less = new Map(hidden.map((h) => [h.tag, h]));
  return tags.map((t) => {
    const h = less.get(t.tag);
    return h
      ? { ...t, postsCount: t.postsCount - h.postsCount, peopleCount: t.peopleCount - h.peopleCount }
      : t;
  });
}

/** Most people first, then most posts; ties keep their order (the statements' last key is the tag). */
function ranked<T extends TagSummary>(tags: T[], max: number): T[] {
  return tags
    .filter((t) => t.peopleCount > 0)
    .sort((a, b) => b.peopleCount - a.peopleCount || b.postsCount - a.postsCount)
    .slice(0, max);
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
  const seen = await lessHidden(ctx, kept.candidates, since);
  return seen === kept.candidates ? kept.top : ranked(seen, TRENDING_MAX);
}

/**
 * The tags starting with the query (its `#` dropped, folded), most people first, at most 5, with
 * their counts as on the tag page's header (for a member, without what they hide); none when the
 * query could start no tag. Counted among the first TAG_SEARCH_CANDIDATES such tags in code-point
 * order, so a short prefix stays cheap.
 */
export async function searchTags(ctx: Context, input: TagSearchInput): Promise<TagSummary[]> {
  const prefix = tagPrefixOf(input.q);
  if (prefix === null) return [];
  if (!ctx.session) return findTagsStartingWith(readEm(ctx), prefix, TAG_SEARCH_CANDIDATES, TAG_SEARCH_MAX);
  // A member: every candidate, less what they hide, ranked again.
  const candidates = await findTagsStartingWith(
    readEm(ctx),
    prefix,
    TAG_SEARCH_CANDIDATES,
    TAG_SEARCH_CANDIDATES,
  );
  return ranked(await lessHidden(ctx, candidates, EVER), TAG_SEARCH_MAX);
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
