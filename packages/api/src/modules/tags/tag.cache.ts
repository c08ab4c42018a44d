/**
 * Trending tags are the same for everyone but what each member hides, and are asked on every home
 * view: the candidates (TRENDING_CANDIDATES) and the first TRENDING_MAX of them, as answered to
 * whoever hides nobody, are kept in memory for at most TRENDING_TTL_MS, and dropped sooner by what hides content it counts (a
 * post deleted or removed, an account suspended or deleted: kept-reads.ts). A new post does not
 * drop it: trending may lag a new post by the TTL. Concurrent misses share one query.
 */
import { keptRead, type Loading, track } from '../../kept-reads.js';
import { markShared } from '../../shared-json.js';
import type { TrendingTag } from './tag.schema.js';

export const TRENDING_TTL_MS = 30_000;

export interface KeptTrending {
  /** most people first, up to TRENDING_CANDIDATES */
  candidates: TrendingTag[];
  /** the first TRENDING_MAX candidates, encoded once (shared-json.ts) */
  top: TrendingTag[];
}
interface Kept extends Loading {
  trending: Promise<KeptTrending>;
}
type Store = Map<'trending', Kept>;
const dropAll = (store: Store) => store.clear();

export const trendingTags = keptRead<Store>({
  name: 'trending tags',
  ttlMs: TRENDING_TTL_MS,
  make: () => new Map(),
  dependsOn: {
    accounts: dropAll,
    postChanges: (store, { kind }) => {
      if (kind === 'deleted') store.clear();
    },
  },
  clear: dropAll,
});

/** Trending tags from memory when fresh, else from `load` (shared by concurrent callers). */
export function cachedTrending(
  scope: object,
  max: number,
  load: () => Promise<TrendingTag[]>,
): Promise<KeptTrending> {
  const store = trendingTags.store(scope);
  let kept = store.get('trending');
  if (!kept || !trendingTags.isFresh(kept)) {
    const trending = load().then((candidates) => ({ candidates, top: markShared(candidates.slice(0, max)) }));
    kept = track(store, 'trending', { trending, loadedAt: null }, trending);
  }
  return kept.trending;
}
