import { describe, expect, it } from 'vitest';
import { highlightsOf, mergeRanked, type PostRank, ranksBefore } from './search.ranking.js';

const rank = (id: string, score: number, createdAt = '2026-01-01T00:00:00.000000Z'): PostRank => ({
  id,
  score,
  createdAt,
});

describe('highlightsOf', () => {
  it('reads the distinct words ts_headline marked, in order', () => {
    expect(highlightsOf('a \u0001Zebra\u0002 and a \u0001zebras\u0002 and \u0001Zebra\u0002 again')).toEqual([
      'Zebra',
      'zebras',
    ]);
  });

  it('gives none for no headline, an unmarked one, or empty marks', () => {
    expect(highlightsOf(null)).toEqual([]);
    expect(highlightsOf('nothing marked')).toEqual([]);
    expect(highlightsOf('\u0001\u0002')).toEqual([]);
  });
});

describe('ranksBefore', () => {
  it('puts the higher score first', () => {
    expect(ranksBefore(rank('a', 2), rank('b', 1))).toBeLessThan(0);
    expect(ranksBefore(rank('a', 1), rank('b', 2))).toBeGreaterThan(0);
  });

  it('breaks a tie by the newer post, then by the greater id', () => {
    const older = rank('z', 1, '2026-01-01T00:00:00.000001Z');
    const newer = rank('a', 1, '2026-01-01T00:00:00.000002Z');
    expect(ranksBefore(newer, older)).toBeLessThan(0);
    expect(ranksBefore(rank('b', 1), rank('a', 1))).toBeLessThan(0);
    expect(ranksBefore(rank('a', 1), rank('a', 1))).toBe(0);
  });

  it('orders by microseconds a JS Date would lose', () => {
    const a = rank('a', 1, '2026-01-01T00:00:00.123457Z');
    const b = rank('b', 1, '2026-01-01T00:00:00.123456Z');
    expect([b, a].sort(ranksBefore).map((r) => r.id)).toEqual(['a', 'b']);
  });
});

describe('mergeRanked', () => {
  const ranked = (...ranks: PostRank[]) => ({ posts: ranks.map((r) => ({ id: r.id, from: 'x' })), ranks });

  it('merges two lists in rank order and keeps the first `limit`', () => {
    const merged = mergeRanked(ranked(rank('a', 5), rank('c', 3)), ranked(rank('b', 4), rank('d', 1)), 3);
    expect(merged.posts.map((p) => p.id)).toEqual(['a', 'b', 'c']);
    expect(merged.ranks.map((r) => r.score)).toEqual([5, 4, 3]);
  });

  it("keeps each post once, with the newer list's copy and rank", () => {
    const older = { posts: [{ id: 'a', from: 'old' }], ranks: [rank('a', 1)] };
    const newer = { posts: [{ id: 'a', from: 'new' }], ranks: [rank('a', 2)] };
    const merged = mergeRanked(older, newer, 10);
    expect(merged.posts).toEqual([{ id: 'a', from: 'new' }]);
    expect(merged.ranks).toEqual([rank('a', 2)]);
  });

  it('gives the older list unchanged when nothing new ranks', () => {
    const older = ranked(rank('a', 2), rank('b', 1));
    expect(mergeRanked(older, ranked(), 2)).toEqual(older);
  });
});
