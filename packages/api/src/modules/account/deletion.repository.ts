/**
 * Deleting an account: the held usernames, and the deletion's one transaction of updates and
 * deletes (account.service.ts runs them in order).
 */
import { type IUser, User } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, raw, rows, type Sql, sql } from '../../sql.js';

export async function isHeld(em: EntityManager, usernameHash: string, now: Date): Promise<boolean> {
  const found = await rows(
    em,
    sql`select 1 from held_usernames where username_hash = ${usernameHash} and free_at > ${now}`,
  );
  return found.length > 0;
}

/** Forgets the usernames whose hold ended by `now` (isHeld already ignores them); how many went. */
export async function deleteFreedUsernames(em: EntityManager, now: Date): Promise<number> {
  const gone = await rows(em, sql`delete from held_usernames where free_at <= ${now} returning 1`);
  return gone.length;
}

/** The member with their password hash, unless deleted. */
export function findLiveUser(em: EntityManager, userId: string): Promise<IUser | null> {
  return em.findOne(User, { id: userId, deletedAt: null }, { populate: ['passwordHash'] });
}

/** Locks the member's row for the deletion; undefined when already deleted. */
export function lockLiveUser(
  em: EntityManager,
  userId: string,
): Promise<{ username: string; display_name: string } | undefined> {
  return firstRow(
    em,
    sql`select username, display_name from users where id = ${userId} and deleted_at is null for update`,
  );
}

/** What must go after the commit, and whose bells change: the member's files and notified members. */
export async function deletionLeftovers(
  em: EntityManager,
  userId: string,
): Promise<{
  uploads: { key: string; thumb_key: string | null }[];
  exports: { object_key: string }[];
  recipients: string[];
}> {
  const uploads = await rows<{ key: string; thumb_key: string | null }>(
    em,
    sql`select key, thumb_key from uploaded_objects where owner_id = ${userId}`,
  );
  const exports = await rows<{ object_key: string }>(
    em,
    sql`select object_key from account_exports where user_id = ${userId} and object_key is not null`,
  );
  // Members whose bell changes: notifications the member caused on their side go.
  const recipients = await rows<{ recipient_id: string }>(
    em,
    sql`select distinct recipient_id from notifications where actor_id = ${userId}`,
  );
  return { uploads, exports, recipients: recipients.map((r) => r.recipient_id) };
}

/**
 * The words of the member's names, posts and gallery titles, as the search vocabulary
 * (search_words) stores them, kept in a temporary table until the rows are gone.
 */
export async function collectGoneWords(em: EntityManager, names: string, userId: string): Promise<void> {
  await rows(
    em,
    sql`create temporary table account_gone_words on commit drop as
  select distinct w as word
    from (select regexp_split_to_table(lower(cubes_unaccent(coalesce(body, ''))), '[^[:alnum:]]+') as w
            from (select ${names} as body
                  union all select content from posts where author_id = ${userId}
                  union all select title from ai_media where creator_id = ${userId}) bodies) words
   where char_length(w) between 3 and 40 and w !~ '[0-9]'`,
  );
}

/**
 * Vocabulary words no remaining row uses (by its search vector) leave with the member. A word
 * whose query is empty (a stop word) is kept: it cannot be told apart.
 */
export async function pruneGoneWords(em: EntityManager): Promise<void> {
  await rows(
    em,
    sql`delete from search_words s using account_gone_words g
  where s.word = g.word
    and numnode(plainto_tsquery('cubes_search', g.word)) > 0
    and not exists (select 1 from posts p where p.search_vector @@ plainto_tsquery('cubes_search', g.word))
    and not exists (select 1 from users u where u.search_vector @@ plainto_tsquery('cubes_search', g.word))
    and not exists (select 1 from ai_media m where m.search_vector @@ plainto_tsquery('cubes_search', g.word))`,
  );
}

/** Counters on what stays (other members' posts and gallery items) go down with the member's rows. */
export async function lowerCountersOfOthers(em: EntityManager, userId: string): Promise<void> {
  await rows(
    em,
    sql`update posts p set likes_count = p.likes_count - l.n
         from (select post_id, count(*)::int as n from likes where user_id = ${userId} group by post_id) l
        where p.id = l.post_id and p.author_id <> ${userId}`,
  );
  await rows(
    em,
    sql`update posts p set reposts_count = p.reposts_count - r.n
         from (select post_id, count(*)::int as n from reposts where user_id = ${userId} group by post_id) r
        where p.id = r.post_id and p.author_id <> ${userId}`,
  );
  await rows(
    em,
    sql`update posts p set comments_count = p.comments_count - c.n
         from (select post_id, count(*)::int as n from comments where author_id = ${userId} group by post_id) c
        where p.id = c.post_id and p.author_id <> ${userId}`,
  );
  await rows(
    em,
    sql`update ai_media m set favorites_count = m.favorites_count - f.n
         from (select media_id, count(*)::int as n from favorites where user_id = ${userId} group by media_id) f
        where m.id = f.media_id and m.creator_id <> ${userId}`,
  );
}

/** `table`'s rows where any of `columns` is the member, in the order the deletion needs. */
const MEMBER_ROWS: [table: string, columns: string[]][] = [
  ['notifications', ['actor_id', 'recipient_id']],
  ['likes', ['user_id']],
  ['reposts', ['user_id']],
  ['bookmarks', ['user_id']],
  ['comments', ['author_id']],
  // Their posts take the likes, comments and notifications on them along (foreign keys).
  ['posts', ['author_id']],
  ['follows', ['follower_id', 'followee_id']],
  ['favorites', ['user_id']],
  ['ai_media', ['creator_id']],
  ['chat_sessions', ['owner_id']],
  ['password_resets', ['user_id']],
  ['uploaded_objects', ['owner_id']],
  ['account_exports', ['user_id']],
  ['sessions', ['user_id']],
  ['blocks', ['blocker_id', 'blocked_id']],
  ['mutes', ['muter_id', 'muted_id']],
  ['push_subscriptions', ['user_id']],
  ['push_preferences', ['user_id']],
  // Reports they filed, and reports about them (the reported content is gone with them).
  ['reports', ['reporter_id', 'target_user_id']],
];

/** The deletions of every row of the member's, one statement per table, in order. */
export function memberRowDeletions(userId: string): Sql[] {
  return MEMBER_ROWS.map(([table, columns]) => {
    const where = columns.map((column) => sql`${raw(column)} = ${userId}`);
    return sql`delete from ${raw(table)} where ${where.reduce((a, b) => sql`${a} or ${b}`)}`;
  });
}

/** Every row of the member's, table by table. */
export async function deleteMemberRowsEverywhere(em: EntityManager, userId: string): Promise<void> {
  for (const deletion of memberRowDeletions(userId)) await rows(em, deletion);
}

/** The moderators' audit log keeps what was done, but not the member's name. */
export async function forgetInAuditLog(em: EntityManager, userId: string, name: string): Promise<void> {
  await rows(
    em,
    sql`update moderation_actions set moderator_username = ${name} where moderator_id = ${userId}`,
  );
  await rows(
    em,
    sql`update moderation_actions set target_username = ${name} where target_user_id = ${userId}`,
  );
}

/** The tombstone: `username` and '@deleted.invalid' cannot be registered, '!' is no password hash. */
export async function makeTombstone(
  em: EntityManager,
  userId: string,
  tombstone: { username: string; displayName: string; email: string; at: Date },
): Promise<void> {
  await rows(
    em,
    sql`update users set username = ${tombstone.username}, display_name = ${tombstone.displayName}, email = ${tombstone.email}, password_hash = '!', bio = null,
              avatar_url = null, header_url = null, email_visible = false, messages_from = 'nobody',
              deleted_at = ${tombstone.at}
        where id = ${userId}`,
  );
}

export async function holdUsername(em: EntityManager, usernameHash: string, freeAt: Date): Promise<void> {
  await rows(
    em,
    sql`insert into held_usernames (username_hash, free_at) values (${usernameHash}, ${freeAt})
       on conflict (username_hash) do update set free_at = excluded.free_at`,
  );
}
