/**
 * The `mentions` column of a post or comment read: the members it mentions as a JSON array of
 * `{id, username}`, ordered by username; suspended members are left out as everywhere else.
 */
import { raw, type Sql, sql } from '../../sql.js';
import { shownMember } from '../moderation/suspension.sql.js';

/** `mentions` of the post whose id is the column `postId` (e.g. 'p.id'). */
export function postMentionsColumn(postId: string): Sql {
  return sql`(select coalesce(json_agg(json_build_object('id', mu.id, 'username', mu.username) order by mu.username), '[]'::json)
      from post_mentions pm join users mu on mu.id = pm.user_id
     where pm.post_id = ${raw(postId)} and ${shownMember('mu')}) as mentions`;
}

/** `mentions` of the comment whose id is the column `commentId` (e.g. 'c.id'). */
export function commentMentionsColumn(commentId: string): Sql {
  return sql`(select coalesce(json_agg(json_build_object('id', mu.id, 'username', mu.username) order by mu.username), '[]'::json)
      from comment_mentions cm join users mu on mu.id = cm.user_id
     where cm.comment_id = ${raw(commentId)} and ${shownMember('mu')}) as mentions`;
}
