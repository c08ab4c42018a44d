/**
 * Who to follow, in one statement with bounded reads. First the members followed by those the
 * viewer follows (at most FOLLOWEES_READ of the viewer's follows, and FOLLOWS_READ of each of
 * theirs, all from the follows primary key), most shared first; then members who posted lately
 * (the authors of the newest RECENT_POSTS posts, from posts_created_at_id_index), newest first.
 * Never the viewer, nor whom they follow, nor anyone blocked either way, muted by the viewer,
 * suspended or deleted.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { sql, uuid } from '../../sql.js';
import { shownMember } from '../moderation/suspension.sql.js';
import { column, inFeedOf } from '../safety/safety.sql.js';
import type { UserCardRow } from './user-card.serializer.js';
import { userCardColumns } from './user-card.sql.js';

/** How many of the viewer's follows, and of each of theirs, the first part reads. */
export const FOLLOWEES_READ = 200;
export const FOLLOWS_READ = 200;
/** How many of the newest posts the second part reads for their authors. */
export const RECENT_POSTS = 500;

export interface SuggestionRow extends UserCardRow {
  reason: 'followed' | 'active';
  followed_by: number;
}

export async function findSuggestions(
  em: EntityManager,
  viewerId: string | null,
  limit: number,
): Promise<SuggestionRow[]> {
  const viewer = uuid(viewerId);
  return preparedRows<SuggestionRow>(
    em,
    sql`with mine as (
       select f.followee_id from follows f where f.follower_id = ${viewer} limit ${FOLLOWEES_READ}
     ), second as (
       select theirs.followee_id as id, count(*)::int as followed_by
         from mine
         cross join lateral (
           select f2.followee_id from follows f2 where f2.follower_id = mine.followee_id limit ${FOLLOWS_READ}
         ) theirs
        group by theirs.followee_id
     ), recent as (
       select r.author_id as id, max(r.created_at) as last_post
         from (select p.author_id, p.created_at from posts p where p.removed_at is null
                order by p.created_at desc, p.id desc limit ${RECENT_POSTS}) r
        group by r.author_id
     ), candidates as (
       select s.id, 'followed' as reason, s.followed_by, 0 as rank_group, null::timestamptz as last_post from second s
       union all
       select r.id, 'active', 0, 1, r.last_post from recent r
     ), best as (
       select distinct on (c.id) c.* from candidates c order by c.id, c.rank_group
     )
     -- The follower count only for the rows shown: one look-up each, after the limit.
     select ${userCardColumns('t')}, t.reason, t.followed_by
       from (
         select u.id, u.username, u.display_name, u.avatar_url, u.bio,
                b.reason, b.followed_by, b.rank_group, b.last_post
           from best b
           join users u on u.id = b.id
          where u.deleted_at is null and ${shownMember('u')}
            and (${viewer} is null or (u.id <> ${viewer} and not exists (
                  select 1 from follows f where f.follower_id = ${viewer} and f.followee_id = u.id)))
            and ${inFeedOf(viewerId, column('u.id'))}
          order by b.rank_group, b.followed_by desc, b.last_post desc nulls last, u.id
          limit ${limit}
       ) t
      order by t.rank_group, t.followed_by desc, t.last_post desc nulls last, t.id`,
  );
}
