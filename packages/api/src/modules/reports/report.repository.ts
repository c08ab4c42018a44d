/**
 * Every SQL statement of reports: who an item is about (if the reporter can see it, under the
 * same hidden-content rules as a like or a comment) and the report's insert, which the unique
 * index on (reporter, target type, target) makes at most once.
 */
import type { IReport, Row } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, type Sql, sql } from '../../sql.js';
import { shownMemberOf } from '../moderation/suspension.sql.js';
import { column, notBlocked } from '../safety/safety.sql.js';
import type { ReportTargetTypeValue } from './report.schema.js';

/** The statement that finds whom an item of each type is about, as `viewerId` may see it. */
const targetUserQueries: Record<ReportTargetTypeValue, (id: string, viewerId: string) => Sql> = {
  // As for a like or a comment: a block either way, or a suspended author, hides it.
  post: (id, viewerId) => {
    const author = column('p.author_id');
    return sql`select p.author_id as user_id from posts p
        where p.id = ${id} and p.removed_at is null and ${shownMemberOf(author)}
          and ${notBlocked(viewerId, author)}`;
  },
  comment: (id, viewerId) => {
    const author = column('c.author_id');
    const postAuthor = column('p.author_id');
    return sql`select c.author_id as user_id from comments c join posts p on p.id = c.post_id
        where c.id = ${id} and c.removed_at is null and p.removed_at is null
          and ${shownMemberOf(author)} and ${shownMemberOf(postAuthor)}
          and ${notBlocked(viewerId, author)} and ${notBlocked(viewerId, postAuthor)}`;
  },
  // Only its receiver can report a message: the sender has nothing to report.
  message: (id, viewerId) =>
    sql`select sender_id as user_id from direct_messages where id = ${id} and receiver_id = ${viewerId} and removed_at is null`,
  user: (id) => sql`select id as user_id from users where id = ${id}`,
};

/**
 * Whom item `id` of `type` is about (its author, or the member), if `viewerId` can see it:
 * removed content, and a post or comment hidden by a block either way or by its author's
 * suspension, is not there.
 */
export async function findTargetUser(
  em: EntityManager,
  type: ReportTargetTypeValue,
  id: string,
  viewerId: string,
): Promise<string | null> {
  const row = await firstRow<{ user_id: string }>(em, targetUserQueries[type](id, viewerId));
  return row?.user_id ?? null;
}

export type NewReport = Pick<
  Row<IReport>,
  'id' | 'reporter_id' | 'target_type' | 'target_id' | 'target_user_id' | 'reason' | 'created_at'
>;

/** Stores an open report; false when the reporter already reported the item. */
export async function insertReport(em: EntityManager, report: NewReport): Promise<boolean> {
  const row = await firstRow<{ id: string }>(
    em,
    sql`insert into reports (id, reporter_id, target_type, target_id, target_user_id, reason, status, created_at)
     values (${report.id}, ${report.reporter_id}, ${report.target_type}, ${report.target_id}, ${report.target_user_id}, ${report.reason}, 'open', ${report.created_at})
     on conflict (reporter_id, target_type, target_id) do nothing
     returning id`,
  );
  return row !== undefined;
}
