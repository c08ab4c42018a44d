/**
 * The `poll` column of a post read: the post's poll as `viewerId` (null: a visitor) sees it, as
 * one JSON value (null when the post has none), read through the polls primary key and, for the
 * viewer's own choices, the poll_votes primary key. The serializer (poll.serializer.ts) hides
 * the counts from a viewer not entitled to them yet.
 */
import { iso, raw, type Sql, sql, uuid, uuids } from '../../sql.js';

/** `poll` of the post whose id is the column `postId` and whose author is the column `authorId`. */
export function pollColumn(viewerId: string | null, postId = 'p.id', authorId = 'p.author_id'): Sql {
  return sql`${pollValue(viewerId, postId, authorId)} as poll`;
}

/** The value of pollColumn, without its name. */
export function pollValue(viewerId: string | null, postId = 'p.id', authorId = 'p.author_id'): Sql {
  return sql`(select json_build_object(
        'options', po.options, 'votesCounts', po.votes_counts, 'votersCount', po.voters_count,
        'multiple', po.multiple, 'expiresAt', ${iso('po.expires_at')}, 'expired', po.expires_at <= now(),
        'isAuthor', coalesce(${raw(authorId)} = ${uuid(viewerId)}, false),
        'ownChoices', (select pv.choices from poll_votes pv
                        where pv.post_id = po.post_id and pv.user_id = ${uuid(viewerId)}))
      from polls po where po.post_id = ${raw(postId)})`;
}

/**
 * The posts among `postIds` whose poll `viewerId` sees otherwise than a visitor (theirs, or voted
 * in): `id` and `poll` as they see it; the rows a viewer's marks on a kept page add (kept pages
 * hold a visitor's poll: feed.cache.ts). `mark` names the rows in a union of marks.
 */
export function entitledPollsAmong(viewerId: string, postIds: readonly string[]): Sql {
  return sql`select p.id, 'poll' as mark, ${pollValue(viewerId)} as poll
      from posts p join polls po on po.post_id = p.id
     where p.id = any(${uuids(postIds)})
       and (p.author_id = ${viewerId} or exists (
             select 1 from poll_votes pv where pv.post_id = p.id and pv.user_id = ${viewerId}))`;
}
