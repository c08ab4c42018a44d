/**
 * A member's likes, reposts and bookmarks, every one (up to a cap per kind), in one statement:
 * what member-marks.cache.ts keeps so that a kept page is marked for a member who has not read it
 * yet without a statement. Each part runs on its table's primary key (user_id, post_id).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { sql, uuid } from '../../sql.js';

export interface MemberMarkIds {
  liked: string[];
  reposted: string[];
  bookmarked: string[];
}

/**
 * `memberId`'s liked, reposted and bookmarked post ids; null when they have more than `max` of
 * any kind (such a member's marks are looked up per page instead).
 */
export async function findMemberMarks(
  em: EntityManager,
  memberId: string,
  max: number,
): Promise<MemberMarkIds | null> {
  const member = uuid(memberId);
  const rows = await preparedRows<{ id: string; mark: keyof MemberMarkIds }>(
    em,
    sql`(select post_id as id, 'liked' as mark from likes where user_id = ${member} limit ${max + 1})
        union all
        (select post_id, 'reposted' from reposts where user_id = ${member} limit ${max + 1})
        union all
        (select post_id, 'bookmarked' from bookmarks where user_id = ${member} limit ${max + 1})`,
  );
  const marks: MemberMarkIds = { liked: [], reposted: [], bookmarked: [] };
  for (const row of rows) marks[row.mark].push(row.id);
  return Object.values(marks).some((ids) => ids.length > max) ? null : marks;
}
