/**
 * Every statement on tags: replacing a post's tags, a tag's page of posts (keyset on the tag's
 * (created_at, post_id) index, in the post shape), its counts, the live check of one new post,
 * trending (the tags the most distinct people used in a window, from the time index), and the
 * tags starting with what is typed in Search (from the tag in code-point order).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetKey, keyset } from '../../paging.js';
import { preparedRows } from '../../prepared.js';
import { firstRow, iso, rows, type Sql, sql, textArray, uuid } from '../../sql.js';
import { shownMember, shownMemberOf } from '../moderation/suspension.sql.js';
import { selectPosts } from '../posts/post.repository.js';
import type { PostPage } from '../posts/post.schema.js';
import { type PostRow, toPostDto } from '../posts/post.serializer.js';
import { column, inFeedOf } from '../safety/safety.sql.js';
import type { TagCounts, TagSummary, TrendingTag } from './tag.schema.js';

/** Makes `tags` (folded) the tags of post `postId`, keeping the post's author and time beside each. */
export async function replacePostTags(em: EntityManager, postId: string, tags: string[]): Promise<void> {
  await rows(
    em,
    sql`with del as (
      delete from post_tags where post_id = ${uuid(postId)} and not (tag = any(${textArray(tags)}))
    )
    insert into post_tags (post_id, tag, author_id, created_at)
    select p.id, t.tag, p.author_id, p.created_at from posts p cross join unnest(${textArray(tags)}) as t(tag)
     where p.id = ${uuid(postId)}
    on conflict do nothing`,
  );
}

/** A tag's posts page newest first, as the feed's: the same cursor shape, on post_tags' columns. */
export const tagKeyset = keyset({ name: 'tag', order: 'desc', key: { createdAt: 'timestamp', id: 'uuid' } });
export type TagCursor = KeysetKey<typeof tagKeyset>;
const TAG_KEY_COLUMNS = { createdAt: 't.created_at', id: 't.post_id' };

/**
 * The posts the tag page shows `viewerId`: not removed, author not suspended, no block either way
 * and no author the viewer muted.
 */
function shownOnTagPage(viewerId: string | null): Sql {
  return sql`p.removed_at is null and ${shownMember('u')} and ${inFeedOf(viewerId, column('p.author_id'))}`;
}

export async function findTagPage(
  em: EntityManager,
  query: { tag: string; viewerId: string | null; cursor: TagCursor | null; limit: number },
): Promise<PostPage> {
  const after = query.cursor ? sql`and ${tagKeyset.continuing(query.cursor, TAG_KEY_COLUMNS)}` : sql``;
  const found = await preparedRows<PostRow & { tag_created_at: string }>(
    em,
    sql`${selectPosts(query.viewerId)}
      join post_tags t on t.post_id = p.id
     where t.tag = ${query.tag} and ${shownOnTagPage(query.viewerId)} ${after}
     order by ${tagKeyset.ordering(TAG_KEY_COLUMNS)}
     limit ${query.limit + 1}`,
  );
  return tagKeyset.page(found, query.limit, toPostDto, (row) => ({ createdAt: row.created_at, id: row.id }));
}

/**
 * How many shown posts carry the tag, and by how many people (as a visitor sees it). The tag's
 * rows are counted per author from the tag index alone; the few removed posts come from
 * posts_removed_created_at_index, and suspension is checked once per author, not per post.
 */
export async function countTag(em: EntityManager, tag: string): Promise<TagCounts> {
  const row = await firstRow<TagCounts>(
    em,
    sql`with removed as (
      select t.post_id from posts p join post_tags t on t.post_id = p.id and t.tag = ${tag}
       where p.removed_at is not null
    ), per_author as (
      select t.author_id, count(*) as n from post_tags t
       where t.tag = ${tag} and t.post_id not in (select post_id from removed)
       group by t.author_id
    )
    select coalesce(sum(n), 0)::int as "postsCount", count(*)::int as "peopleCount"
      from per_author pa where ${shownMemberOf(column('pa.author_id'))}`,
  );
  return row ?? { postsCount: 0, peopleCount: 0 };
}

/** The post `postId` if it carries `tag` and the tag page would show it to `viewerId`: its cursor. */
export async function findNewTagPost(
  em: EntityManager,
  tag: string,
  postId: string,
  viewerId: string | null,
): Promise<{ id: string; created_at: string } | undefined> {
  return firstRow(
    em,
    sql`select t.post_id as id, ${iso('t.created_at')} as created_at
      from post_tags t join posts p on p.id = t.post_id join users u on u.id = p.author_id
     where t.tag = ${tag} and t.post_id = ${uuid(postId)} and ${shownOnTagPage(viewerId)}`,
  );
}

/**
 * The tags used by the most distinct people since `since`, at most `limit`: removed posts and
 * suspended authors left out. Reads the window from post_tags_created_at_index (which carries
 * the tag and author), the window's few removed posts from posts_removed_created_at_index, and
 * checks each author's suspension once (a hash join on users), never each post.
 */
export function findTrending(em: EntityManager, since: Date, limit: number): Promise<TrendingTag[]> {
  return preparedRows<TrendingTag>(
    em,
    sql`with removed as (
      select p.id from posts p where p.removed_at is not null and p.created_at > ${since}::timestamptz
    ), window_rows as (
      select t.tag, t.author_id from post_tags t
       where t.created_at > ${since}::timestamptz and t.post_id not in (select id from removed)
    ), per_author as (
      select w.tag, w.author_id, count(*) as n from window_rows w group by w.tag, w.author_id
    )
    select pa.tag, sum(pa.n)::int as "postsCount", count(*)::int as "peopleCount"
      from per_author pa join users u on u.id = pa.author_id
     where ${shownMember('u')}
     group by pa.tag
     order by "peopleCount" desc, "postsCount" desc, pa.tag
     limit ${limit}`,
  );
}

/**
 * What `viewerId`'s hidden members (blocked either way, or muted by the viewer) add to `tags`
 * since `since`, counted as findTrending counts (removed posts and suspended authors left out),
 * so that trending can be shown without them. Driven by the few hidden members (their blocks and
 * mutes by primary key or blocks_blocked_index, their tag rows by post_tags_author_id_index):
 * a member who hides nobody costs three index probes.
 */
export function findHiddenTagUse(
  em: EntityManager,
  viewerId: string,
  tags: readonly string[],
  since: Date,
): Promise<TrendingTag[]> {
  return preparedRows<TrendingTag>(
    em,
    sql`with hidden as (
      select blocked_id as id from blocks where blocker_id = ${uuid(viewerId)}
      union select blocker_id from blocks where blocked_id = ${uuid(viewerId)}
      union select muted_id from mutes where muter_id = ${uuid(viewerId)}
    )
    select t.tag, count(*)::int as "postsCount", count(distinct t.author_id)::int as "peopleCount"
      from hidden h
      join users u on u.id = h.id
      join post_tags t on t.author_id = h.id
     where ${shownMember('u')} and t.created_at > ${since}::timestamptz and t.tag = any(${textArray(tags)})
       and not exists (select 1 from posts p where p.id = t.post_id and p.removed_at is not null)
     group by t.tag`,
  );
}

/**
 * Search's tags: those whose folded name starts with `prefix`, with their counts as a visitor
 * sees them (removed posts and suspended authors left out; a tag only they carry is not listed),
 * most people first, at most `limit`. The distinct tags of the prefix are walked on
 * post_tags_tag_prefix_index (code-point order), one index probe per tag however many posts it
 * carries, and only the first `candidates` of them are counted: each from its own rows of the
 * tag index, per author; the removed posts (their partial index) and the suspended members
 * (users_suspended_index) are each read once, as a set.
 */
export function findTagsStartingWith(
  em: EntityManager,
  prefix: string,
  candidates: number,
  limit: number,
): Promise<TagSummary[]> {
  // Every tag starting with `prefix` sorts below `prefix` followed by the last code point.
  const end = `${prefix}\u{10FFFF}`;
  return preparedRows<TagSummary>(
    em,
    sql`with recursive walk(tag) as (
      select min(t.tag collate "C") from post_tags t
       where t.tag collate "C" >= ${prefix} and t.tag collate "C" < ${end}
      union all
      select (select min(t.tag collate "C") from post_tags t
               where t.tag collate "C" > w.tag and t.tag collate "C" < ${end})
        from walk w where w.tag is not null
    ), found as (
      select w.tag::text collate "default" as tag from walk w where w.tag is not null limit ${candidates}
    ), removed as (
      select p.id from posts p where p.removed_at is not null
    ), hidden as (
      select u.id from users u where u.suspended_at is not null and not ${shownMember('u')}
    )
    select f.tag, c."postsCount", c."peopleCount" from found f cross join lateral (
      select coalesce(sum(pa.n), 0)::int as "postsCount", count(*)::int as "peopleCount" from (
        select t.author_id, count(*) as n from post_tags t
         where t.tag = f.tag and t.post_id not in (select id from removed)
         group by t.author_id
      ) pa where pa.author_id not in (select id from hidden)
    ) c
     where c."peopleCount" > 0
     order by c."peopleCount" desc, c."postsCount" desc, f.tag collate "C"
     limit ${limit}`,
  );
}
