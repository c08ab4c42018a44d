/**
 * Search over users, posts and AI media, all in PostgreSQL (search.repository.ts): generated
 * tsvector columns with GIN indexes in the `cubes_search` configuration (English stemming, accents
 * ignored), every plain word prefix-matched, phrases and exclusions through websearch_to_tsquery,
 * typos corrected (search.typo.ts), names and titles also matched by trigram similarity. This
 * module holds the rules: what a query searches, when the shared answer (search.cache.ts) serves
 * it, and suggestions (an empty query), which share the answer's shape.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Context, readEm } from '../../context.js';
import { isTag } from '../../text-links.js';
import { tagPosts } from '../tags/tag.service.js';
import {
  CACHED_LIMITS,
  type CachedAnswer,
  cachedAnswer,
  cachedSearch,
  cachedSearchFor,
  markedIds,
  type SearchPeople,
  viewerCopy,
} from './search.cache.js';
import { parseQuery } from './search.query.js';
import { mergeRanked } from './search.ranking.js';
import {
  correctTerms,
  findNextSuspensionEnd,
  popularMedia,
  searchMarks,
  searchMedia,
  searchPosts,
  searchUsers,
  suggestedUsers,
  trendingPosts,
} from './search.repository.js';
import { SEARCH_LIMITS, type SearchInput, type SearchResult } from './search.schema.js';
import { type QueryText, queryTextOf } from './search.typo.js';

const EMPTY: SearchResult = { users: [], posts: [], aiMedia: [] };

type ParsedQuery = ReturnType<typeof parseQuery>;

async function queryText(em: EntityManager, parsed: ParsedQuery): Promise<QueryText> {
  return queryTextOf(parsed, await correctTerms(em, parsed.terms));
}

/**
 * The answer to a query: from the shared cache (search.cache.ts) as a visitor sees it, with the
 * viewer's follows, likes, favourites and blocks laid over it in one statement. A viewer whose
 * blocks leave a kind short while more results exist gets the answer computed for them alone.
 */
export async function search(ctx: Context, input: SearchInput): Promise<SearchResult> {
  // `#tag` alone: the tag's newest posts, as its page shows them to this viewer.
  const tag = /^#(\S+)$/u.exec(input.q.trim())?.[1];
  if (tag !== undefined && isTag(tag)) {
    const page = await tagPosts(ctx, { tag, cursor: null, limit: SEARCH_LIMITS.posts });
    return { users: [], posts: page.items.map((post) => ({ ...post, highlights: [] })), aiMedia: [] };
  }
  const parsed = parseQuery(input.q);
  if (!parsed.hasPositive) return EMPTY;
  // The heaviest read there is: on the read replica when there is one.
  const em = readEm(ctx);
  const key = JSON.stringify([parsed.terms, parsed.websearch]);
  const parts = {
    // Users and media (and the typo correction) live their TTL; the posts are read again after
    // most writes to posts, and new posts merged in (search.cache.ts).
    people: async (): Promise<SearchPeople> => {
      const text = await queryText(em, parsed);
      const [users, aiMedia, until] = await Promise.all([
        searchUsers(em, text, null, CACHED_LIMITS.users),
        searchMedia(em, text, null, CACHED_LIMITS.aiMedia),
        findNextSuspensionEnd(em),
      ]);
      return { text, users, aiMedia, until: until?.getTime() ?? null };
    },
    peopleUntil: (people: SearchPeople) => people.until ?? null,
    postIds: (answer: CachedAnswer) => answer.full.posts.map((post) => post.id),
    answer: async (people: SearchPeople): Promise<CachedAnswer> =>
      cachedAnswer(people, await searchPosts(em, people.text.q, null, ctx.now(), CACHED_LIMITS.posts)),
    merge: async (previous: CachedAnswer, postIds: string[]): Promise<CachedAnswer> => {
      const found = await searchPosts(em, previous.text.q, null, ctx.now(), CACHED_LIMITS.posts, postIds);
      if (found.posts.length === 0) return previous;
      const posts = mergeRanked(
        { posts: previous.full.posts, ranks: previous.ranks },
        found,
        CACHED_LIMITS.posts,
      );
      return cachedAnswer({ ...previous.full, text: previous.text }, posts);
    },
  };
  const viewerId = ctx.session?.user.id ?? null;
  if (viewerId === null) return (await cachedSearch(ctx.cacheScope, em.getDriver(), key, parts)).visitor;
  const copy = await cachedSearchFor(ctx.cacheScope, em.getDriver(), key, parts, viewerId, (answer) =>
    forViewer(em, viewerId, answer.full),
  );
  return copy ?? runSearch(ctx, em, parsed, viewerId);
}

/** `full` as the viewer sees it, or null when their blocks leave a kind short of its page. */
async function forViewer(
  em: EntityManager,
  viewerId: string,
  full: SearchResult,
): Promise<SearchResult | null> {
  const ids = markedIds(full);
  if (ids.people.length === 0) return EMPTY;
  return viewerCopy(full, await searchMarks(em, viewerId, ids));
}

/** The search itself, as `viewerId` sees it, with SEARCH_LIMITS results of each kind. */
async function runSearch(
  ctx: Context,
  em: EntityManager,
  parsed: ParsedQuery,
  viewerId: string,
): Promise<SearchResult> {
  const text = await queryText(em, parsed);
  // The tsquery is written out in each statement (not a CTE) so the planner sees its words and
  // picks, per statement, between the GIN index and a walk of the newest rows.
  const [users, posts, aiMedia] = await Promise.all([
    searchUsers(em, text, viewerId, SEARCH_LIMITS.users),
    searchPosts(em, text.q, viewerId, ctx.now(), SEARCH_LIMITS.posts),
    searchMedia(em, text, viewerId, SEARCH_LIMITS.aiMedia),
  ]);
  return { users, posts: posts.posts, aiMedia };
}

/**
 * What to look at before typing: users to follow, posts trending by likes and comments of the
 * last 48 hours, and the most favourited media; none by a member blocked either way or
 * suspended (and no muted member's users or posts).
 */
export async function suggestions(ctx: Context): Promise<SearchResult> {
  const em = ctx.em;
  const viewerId = ctx.session?.user.id ?? null;
  const since = new Date(ctx.now().getTime() - 48 * 60 * 60 * 1000);
  const [users, posts, aiMedia] = await Promise.all([
    suggestedUsers(em, viewerId, SEARCH_LIMITS.users),
    trendingPosts(em, viewerId, since, SEARCH_LIMITS.posts),
    popularMedia(em, viewerId, SEARCH_LIMITS.aiMedia),
  ]);
  return { users, posts, aiMedia };
}
