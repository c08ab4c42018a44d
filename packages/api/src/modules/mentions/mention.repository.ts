/**
 * Every statement on mentions: replacing what a post or comment mentions, with the notifications
 * of the newly mentioned in the same statement, and the members offered while typing `@`.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, rows, type Sql, sql, textArray, uuid } from '../../sql.js';
import { MENTIONS_MAX } from '../../text-links.js';
import { shownMember } from '../moderation/suspension.sql.js';
import { column, notBlocked, notMuted } from '../safety/safety.sql.js';
import type { MentionDto, MentionSuggestion } from './mention.schema.js';

interface ReplaceRow {
  mentions: MentionDto[] | null;
  notified: string[] | null;
}

/**
 * A newly mentioned member (`ins.user_id`) is notified unless it is the author, a block stands
 * between them either way, or the member muted the author (`extra` adds conditions).
 */
function notifiable(authorId: string, extra: Sql): Sql {
  const member = column('ins.user_id');
  return sql`ins.user_id <> ${uuid(authorId)} and ${notBlocked(member, authorId)}
    and ${notMuted(member, authorId)} and ${extra}`;
}

/**
 * Makes `usernames` (lower case, at most MENTIONS_MAX) the members post `postId` mentions, and
 * notifies those it did not mention before: one statement. A member mentioned, unmentioned and
 * mentioned again by an edit is not notified twice (notifications_post_mention_unique), and a
 * post never notifies more than MENTIONS_MAX members in all.
 */
export async function replacePostMentions(
  em: EntityManager,
  m: { postId: string; authorId: string; usernames: string[]; now: Date },
): Promise<{ mentions: MentionDto[]; notified: string[] }> {
  const row = await firstRow<ReplaceRow>(
    em,
    sql`with wanted as (
      select u.id, u.username from users u
       where lower(u.username) = any(${textArray(m.usernames)}) and ${shownMember('u')}
       limit ${MENTIONS_MAX}
    ), del as (
      delete from post_mentions where post_id = ${uuid(m.postId)} and user_id not in (select id from wanted)
    ), ins as (
      insert into post_mentions (post_id, user_id) select ${uuid(m.postId)}, id from wanted
      on conflict do nothing returning user_id
    ), note as (
      insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at)
      select gen_random_uuid(), ins.user_id, ${uuid(m.authorId)}, 'mention', ${uuid(m.postId)}, null, ${m.now}::timestamptz
        from ins where ${notifiable(m.authorId, sql`true`)}
       limit greatest(0, ${MENTIONS_MAX} - (select count(*) from notifications n
         where n.type = 'mention' and n.post_id = ${uuid(m.postId)} and n.comment_id is null))
      on conflict do nothing returning recipient_id
    )
    select (select json_agg(json_build_object('id', id, 'username', username) order by username) from wanted) as mentions,
           (select array_agg(recipient_id) from note) as notified`,
  );
  return { mentions: row?.mentions ?? [], notified: row?.notified ?? [] };
}

/**
 * The members comment `commentId` (on post `postId`) mentions, and their notifications: not to
 * a member a block separates from the post's author either (the post is not there for them).
 */
export async function insertCommentMentions(
  em: EntityManager,
  m: { commentId: string; postId: string; authorId: string; usernames: string[]; now: Date },
): Promise<{ mentions: MentionDto[]; notified: string[] }> {
  const postAuthor = sql`(select p.author_id from posts p where p.id = ${uuid(m.postId)})`;
  const row = await firstRow<ReplaceRow>(
    em,
    sql`with wanted as (
      select u.id, u.username from users u
       where lower(u.username) = any(${textArray(m.usernames)}) and ${shownMember('u')}
       limit ${MENTIONS_MAX}
    ), ins as (
      insert into comment_mentions (comment_id, user_id) select ${uuid(m.commentId)}, id from wanted
      on conflict do nothing returning user_id
    ), note as (
      insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at)
      select gen_random_uuid(), ins.user_id, ${uuid(m.authorId)}, 'mention', ${uuid(m.postId)}, ${uuid(m.commentId)}, ${m.now}::timestamptz
        from ins where ${notifiable(m.authorId, notBlocked(column('ins.user_id'), postAuthor))}
      on conflict do nothing returning recipient_id
    )
    select (select json_agg(json_build_object('id', id, 'username', username) order by username) from wanted) as mentions,
           (select array_agg(recipient_id) from note) as notified`,
  );
  return { mentions: row?.mentions ?? [], notified: row?.notified ?? [] };
}

/**
 * Members whose username starts with `prefix` (case-insensitive), those `viewerId` follows
 * first, then others by username (only followees for an empty prefix); never the viewer, anyone
 * blocked either way, or a suspended member. The prefix match uses the username trigram index.
 */
export function findMentionSuggestions(
  em: EntityManager,
  viewerId: string,
  prefix: string,
  limit: number,
): Promise<MentionSuggestion[]> {
  const pattern = `${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const columns = sql`u.id, u.username, u.display_name as "displayName", u.avatar_url as "avatarUrl"`;
  const shown = sql`lower(u.username) like ${pattern} and u.id <> ${uuid(viewerId)} and u.username not like '~%'
        and ${shownMember('u')} and ${notBlocked(viewerId, column('u.id'))}`;
  return rows<MentionSuggestion>(
    em,
    sql`select * from (
      (select ${columns}, true as "isFollowing" from follows f join users u on u.id = f.followee_id
        where f.follower_id = ${uuid(viewerId)} and ${shown}
        order by lower(u.username) limit ${limit})
      union all
      (select ${columns}, false from users u
        where ${prefix.length > 0} and ${shown}
          and not exists (select 1 from follows f where f.follower_id = ${uuid(viewerId)} and f.followee_id = u.id)
        order by lower(u.username) limit ${limit})
    ) s order by "isFollowing" desc, lower(username) limit ${limit}`,
  );
}
