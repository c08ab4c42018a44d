import { describe, expect, it } from 'vitest';
import { cachesHear } from '../../kept-reads.js';
import { cachedMemberMarks, marksAmong, memberMarks } from './member-marks.cache.js';
import type { MemberMarkIds } from './member-marks.repository.js';

describe("each member's kept likes, reposts and bookmarks", () => {
  function loader(ids: MemberMarkIds | null) {
    const loads: string[] = [];
    return {
      loads,
      read: (scope: object, memberId: string) =>
        cachedMemberMarks(scope, memberId, async () => {
          loads.push(memberId);
          return ids;
        }),
    };
  }

  it('loads once, and drops a member at their like, repost or bookmark; every member at `feed`', async () => {
    const scope = {};
    const { loads, read } = loader({ liked: ['p1'], reposted: ['p2'], bookmarked: [] });
    await Promise.all([read(scope, 'ann'), read(scope, 'ann'), read(scope, 'ben')]);
    expect(loads).toEqual(['ann', 'ben']);
    cachesHear(scope, 'likes', { postId: 'p9', userId: 'ann', likesCount: 1, authorId: null });
    await read(scope, 'ann');
    await read(scope, 'ben');
    expect(loads).toEqual(['ann', 'ben', 'ann']);
    cachesHear(scope, 'reposts', { postId: 'p9', userId: 'ben', reposted: true, repostsCount: 1 });
    cachesHear(scope, 'bookmarks', { postId: 'p9', userId: 'ann' });
    await Promise.all([read(scope, 'ann'), read(scope, 'ben')]);
    expect(loads).toEqual(['ann', 'ben', 'ann', 'ann', 'ben']);
    // Other instances' likes arrive as one `feed` event, without the member.
    cachesHear(scope, 'feed', {});
    await Promise.all([read(scope, 'ann'), read(scope, 'ben')]);
    expect(loads).toHaveLength(7);
    // A like's event while a load runs: that load does not stay.
    const running = read(scope, 'cai');
    cachesHear(scope, 'likes', { postId: 'p9', userId: 'cai', likesCount: 1, authorId: null });
    await running;
    await read(scope, 'cai');
    expect(loads.filter((m) => m === 'cai')).toHaveLength(2);
  });

  it('keeps null for a member with too many to keep, and counts the ids it keeps', async () => {
    const scope = {};
    const { loads, read } = loader(null);
    expect(await read(scope, 'dee')).toBeNull();
    expect(await read(scope, 'dee')).toBeNull();
    expect(loads).toEqual(['dee']);
    const many = loader({ liked: ['a', 'b', 'c'], reposted: [], bookmarked: ['d'] });
    await many.read(scope, 'eve');
    expect(memberMarks.store(scope).calculatedSize).toBe(1 + 4);
  });

  it('marks the posts and authors of a page as the database would', () => {
    const marks = { liked: new Set(['p1', 'x']), reposted: new Set(['p2']), bookmarked: new Set(['p1']) };
    expect(marksAmong(marks, new Set(['u2', 'u9']), ['p1', 'p2', 'p3'], ['u1', 'u2'])).toEqual({
      liked: new Set(['p1']),
      reposted: new Set(['p2']),
      bookmarked: new Set(['p1']),
      hidden: new Set(['u2']),
    });
  });
});
