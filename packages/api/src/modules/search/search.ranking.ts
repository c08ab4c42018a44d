/**
 * The parts of search's ranking that run in Node rather than in PostgreSQL, as pure functions:
 * where a post stands in the posts statement's order (score, then newest, then id), merging new
 * posts into a kept answer in that order, and reading the words ts_headline marked. The scores
 * themselves (ts_rank_cd times the boosts) are computed by search.repository.ts's statements.
 */

// ts_headline marks matched words with control characters, which no stored text can contain
// (the text rule refuses them on input), so the marks cannot be forged.
const START = '\u0001';
const STOP = '\u0002';
/** ts_headline's options: every match marked with START … STOP. */
export const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, HighlightAll=true`;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the headline marks are control characters
const MARKED = /\u0001([^\u0002]*)\u0002/g;

/** The distinct words ts_headline marked, as they appear in the text. */
export function highlightsOf(headline: string | null): string[] {
  if (!headline) return [];
  return [...new Set([...headline.matchAll(MARKED)].map((m) => m[1]!).filter((w) => w.length > 0))];
}

/** Where a post stands in the posts statement's order. */
export interface PostRank {
  score: number;
  /** ISO text with microseconds, as the statement compares it */
  createdAt: string;
  id: string;
}

/** Posts in rank order, and where each stands (kept by a cached answer, to merge new posts in). */
export interface RankedPosts<P extends { id: string }> {
  posts: P[];
  ranks: PostRank[];
}

/** `a` before `b` in the order of the posts statement: score, then newest, then id (both descending). */
export function ranksBefore(a: PostRank, b: PostRank): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The first `limit` of both lists in rank order, each post once (`newer`'s copy of a post wins). */
export function mergeRanked<P extends { id: string }>(
  older: RankedPosts<P>,
  newer: RankedPosts<P>,
  limit: number,
): RankedPosts<P> {
  const fresh = new Set(newer.posts.map((p) => p.id));
  const all = [
    ...newer.posts.map((post, i) => ({ post, rank: newer.ranks[i]! })),
    ...older.posts.map((post, i) => ({ post, rank: older.ranks[i]! })).filter((e) => !fresh.has(e.post.id)),
  ]
    .sort((a, b) => ranksBefore(a.rank, b.rank))
    .slice(0, limit);
  return { posts: all.map((e) => e.post), ranks: all.map((e) => e.rank) };
}
