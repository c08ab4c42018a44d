/**
 * Trending tags are the same for everyone but what each member hides, and are asked on every home
 * view: the candidates (TRENDING_CANDIDATES) and the first TRENDING_MAX of them, as answered to
 * whoever hides nobody, are kept in memory for at most TRENDING_TTL_MS, and dropped sooner by
 * what hides content it counts (kept-reads.ts, `keptValues`). A new post does not
 * drop it: trending may lag a new post by the TTL. Concurrent misses share one query.
 */
import { keptValues } from '../../kept-reads.js';
import { markShared } from '../../shared-json.js';
import type { TrendingTag } from './tag.schema.js';

export const TRENDING_TTL_MS = 30_000;

export interface KeptTrending {
  /** most people first, up to TRENDING_CANDIDATES */
  candidates: TrendingTag[];
  /** the first TRENDING_MAX candidates, encoded once (shared-json.ts) */
  top: TrendingTag[];
}
const trendingTags = keptValues<'trending', KeptTrending>('trending tags', TRENDING_TTL_MS);

/** Trending tags from memory when fresh, else from `load` (shared by concurrent callers). */
export function cachedTrending(
  scope: object,
  max: number,
  load: () => Promise<TrendingTag[]>,
): Promise<KeptTrending> {
  return trendingTags.get(scope, 'trending', () =>
    load().then((candidates) => ({ candidates, top: markShared(candidates.slice(0, max)) })),
  );
}
