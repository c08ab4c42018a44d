/**
 * Each member's likes, reposts and bookmarks, as sets of post ids, kept so that a kept page a
 * member has not read yet is marked for them from memory (feed.cache.ts's `keptMarks`): a
 * profile's first page is kept for many readers, and without this each new reader of each page
 * cost a statement (issue #45's miss path, bench/README.md).
 *
 * Any like, repost or bookmark of the member drops their sets (a like's event does not say which
 * way it went), before the write answers here; other instances' likes reach this one as the
 * `feed` event, which drops every member's. A member with more than MEMBER_MARKS_MAX_PER_KIND of
 * a kind is not kept (null): their pages are marked by a statement per page, as before. Sets are
 * bounded by the ids they hold in all (MEMBER_MARKS_MAX_IDS), least recently asked first out.
 */
import { LRUCache } from 'lru-cache';
import { keptRead, type Loading, track } from '../../kept-reads.js';
import type { ViewerMarks } from './feed.cache.js';
import type { MemberMarkIds } from './member-marks.repository.js';

/**
 * More of one kind than this, and a member's marks are looked up per page. Their sets are read
 * again after each of their toggles, and on every instance after each `feed` event (at most one
 * per 100 ms while others like elsewhere): a cap keeps each such read near a page's own lookup.
 */
export const MEMBER_MARKS_MAX_PER_KIND = 1_000;
/** Post ids kept in all, over every member (about 100 bytes each). */
export const MEMBER_MARKS_MAX_IDS = 250_000;

export interface MemberMarks {
  liked: ReadonlySet<string>;
  reposted: ReadonlySet<string>;
  bookmarked: ReadonlySet<string>;
}

interface Entry extends Loading {
  marks: Promise<MemberMarks | null>;
}

const dropMember = (members: LRUCache<string, Entry>, { userId }: { userId: string }) => {
  members.delete(userId);
};

export const memberMarks = keptRead<LRUCache<string, Entry>>({
  name: "each member's likes, reposts and bookmarks",
  ttlMs: 5 * 60_000,
  // A loading entry counts 1; its size is set when its ids arrive.
  make: () => new LRUCache({ maxSize: MEMBER_MARKS_MAX_IDS, sizeCalculation: () => 1 }),
  dependsOn: {
    likes: dropMember,
    reposts: dropMember,
    bookmarks: dropMember,
    feed: (members) => members.clear(),
  },
  clear: (members) => members.clear(),
});

/**
 * `memberId`'s likes, reposts and bookmarks: from memory, or `load`ed once (concurrent callers
 * share the load) and kept; null for a member with too many to keep.
 */
export function cachedMemberMarks(
  scope: object,
  memberId: string,
  load: () => Promise<MemberMarkIds | null>,
): Promise<MemberMarks | null> {
  const members = memberMarks.store(scope);
  const known = members.get(memberId);
  if (known && memberMarks.isFresh(known)) return known.marks;
  const marks = load().then(
    (ids): MemberMarks | null =>
      ids && {
        liked: new Set(ids.liked),
        reposted: new Set(ids.reposted),
        bookmarked: new Set(ids.bookmarked),
      },
  );
  const entry: Entry = { marks, loadedAt: null };
  track(members, memberId, entry, marks, (arrived) => {
    const size = arrived ? arrived.liked.size + arrived.reposted.size + arrived.bookmarked.size : 0;
    if (members.get(memberId) !== entry) return;
    // Set again to be counted at its size (lru-cache keeps the size of a value set again as it was).
    members.delete(memberId);
    members.set(memberId, entry, { size: Math.max(1, size) });
  });
  return marks;
}

/**
 * What `viewerMarksAmong(…, 'blocks')` answers for these posts and authors, from a member's kept
 * marks and blocks: the posts among them they like, reposted and bookmarked, and the authors
 * blocked either way with them. No polls: a page with one asks the database.
 */
export function marksAmong(
  marks: MemberMarks,
  blocks: ReadonlySet<string>,
  postIds: readonly string[],
  authorIds: readonly string[],
): ViewerMarks {
  return {
    liked: new Set(postIds.filter((id) => marks.liked.has(id))),
    reposted: new Set(postIds.filter((id) => marks.reposted.has(id))),
    bookmarked: new Set(postIds.filter((id) => marks.bookmarked.has(id))),
    hidden: new Set(authorIds.filter((id) => blocks.has(id))),
  };
}
