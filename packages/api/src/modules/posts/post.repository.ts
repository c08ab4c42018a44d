/**
 * Every statement on posts and likes. Post reads are single queries: each post comes with its
 * author's public fields (a join) and the viewer's like (an EXISTS on the likes primary key), so a
 * page costs one round trip, never one per post. Lists page by keyset on (created_at, id), served
 * by the posts indexes. A like or unlike is one statement with its counter and notification.
 */
import type { PostImageData } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetKey, keyset } from '../../paging.js';
import { preparedRows } from '../../prepared.js';
import { empty, firstRow, iso, join, rows, type Sql, sql, uuid, uuids } from '../../sql.js';
import { postMentionsColumn } from '../mentions/mention.sql.js';
import { notSuspendedMember, shownMember, shownMemberOf } from '../moderation/suspension.sql.js';
import { column, inFeedOf, notBlocked, notMuted } from '../safety/safety.sql.js';
import type { ViewerMarks } from './feed.cache.js';
import type { PostDto, PostPage } from './post.schema.js';
import { type PostRow, toPostDto } from './post.serializer.js';

/** A PostRow's columns of the posts `p` joined with their authors `u`, without the viewer's like. */
const POST_ROW_COLUMNS = sql`p.id, p.author_id, u.username, u.display_name, u.avatar_url, p.content, p.image_url, p.images,
         p.likes_count, p.comments_count, ${iso('p.created_at')} as created_at,
         ${iso('p.edited_at')} as edited_at, ${postMentionsColumn('p.id')}`;

/**
 * A PostRow's columns of post `p` by author `u`, with whether `viewerId` (null when logged out)
 * likes and bookmarked it (look-ups on the likes and bookmarks primary keys). For statements
 * whose FROM is their own (search's ranked posts); the others start with selectPosts.
 */
export function postRowColumns(viewerId: string | null): Sql {
  return sql`${POST_ROW_COLUMNS},
         (${uuid(viewerId)} is not null and exists (
           select 1 from likes l where l.user_id = ${uuid(viewerId)} and l.post_id = p.id
         )) as is_liked,
         (${uuid(viewerId)} is not null and exists (
           select 1 from bookmarks bm where bm.user_id = ${uuid(viewerId)} and bm.post_id = p.id
         )) as is_bookmarked`;
}

/**
 * Posts `p` with their authors `u`, as postRowColumns reads them. The bookmarks module lists a
 * member's bookmarks with it too (`extraColumns`, each after a comma: its sort key).
 */
export function selectPosts(viewerId: string | null, extraColumns: Sql = empty): Sql {
  return sql`
  select ${postRowColumns(viewerId)}${extraColumns}
    from posts p
    join users u on u.id = p.author_id`;
}

/** A new post by `authorId`, written and read back as its author sees it in one statement. */
export async function insertPost(
  em: EntityManager,
  post: {
    id: string;
    authorId: string;
    content: string;
    /** in order; the first is also written to image_url */
    images: PostImageData[];
    createdAt: Date;
  },
): Promise<PostDto> {
  const [row] = await preparedRows<PostRow>(
    em,
    sql`with p as (
       insert into posts (id, author_id, content, image_url, images, likes_count, comments_count, created_at)
       values (${post.id}, ${post.authorId}, ${post.content}, ${post.images[0]?.url ?? null},
               ${JSON.stringify(post.images)}::jsonb, 0, 0, ${post.createdAt})
       returning *
     )
     select ${POST_ROW_COLUMNS}, false as is_liked, false as is_bookmarked from p join users u on u.id = p.author_id`,
  );
  if (!row) throw new Error('the new post was not written'); // the author's row is there: they are logged in
  return toPostDto(row);
}

export async function findPostById(
  em: EntityManager,
  postId: string,
  viewerId: string | null,
): Promise<PostDto | null> {
  // A block either way hides the post, as if it did not exist; so do a moderator's removal and
  // its author's suspension.
  const [row] = await preparedRows<PostRow>(
    em,
    sql`${selectPosts(viewerId)} where p.id = ${postId} and p.removed_at is null and ${shownMember('u')}
       and ${notBlocked(viewerId, column('p.author_id'))}`,
  );
  return row ? toPostDto(row) : null;
}

/** Posts page newest first, ties broken by id; the feed and a profile's posts share this order. */
export const postKeyset = keyset({
  name: 'posts',
  order: 'desc',
  key: { createdAt: 'timestamp', id: 'uuid' },
});
export type PostCursor = KeysetKey<typeof postKeyset>;
const POST_KEY_COLUMNS = { createdAt: 'p.created_at', id: 'p.id' };

export interface PostPageQuery {
  viewerId: string | null;
  /** only this author's posts (a profile); all posts otherwise (the feed) */
  authorId?: string;
  /** only posts with an image (a profile's Media tab) */
  withImages?: boolean;
  /** a feed: also leave out the authors the viewer muted (blocks are always left out) */
  feed?: boolean;
  cursor: PostCursor | null;
  limit: number;
}

const postPageOf = (rows: PostRow[], limit: number): PostPage =>
  postKeyset.page(rows, limit, toPostDto, (row) => ({ createdAt: row.created_at, id: row.id }));

/** Newest first; posts written while a client pages land before its cursor, so none repeat or go missing. */
export async function findPostPage(em: EntityManager, query: PostPageQuery): Promise<PostPage> {
  const { viewerId } = query;
  // Posts a moderator removed, and those of suspended members, are hidden from every list.
  const where: Sql[] = [sql`p.removed_at is null`, shownMember('u')];
  if (query.authorId) where.push(sql`p.author_id = ${query.authorId}`);
  if (query.withImages) where.push(sql`p.image_url is not null`);
  if (viewerId !== null) {
    const author = column('p.author_id');
    where.push(query.feed ? inFeedOf(viewerId, author) : notBlocked(viewerId, author));
  }
  if (query.cursor) where.push(postKeyset.continuing(query.cursor, POST_KEY_COLUMNS));
  // One statement text per combination of filters: prepared. One extra row tells whether a next
  // page exists.
  const found = await preparedRows<PostRow>(
    em,
    sql`${selectPosts(viewerId)}
     where ${join(where, ' and ')}
     order by ${postKeyset.ordering(POST_KEY_COLUMNS)}
     limit ${query.limit + 1}`,
  );
  return postPageOf(found, query.limit);
}

/**
 * The first page of `authorId`'s posts as a visitor sees it (what the profile's kept page holds)
 * and `viewerId`'s marks on it, in one statement: which of its posts they like and bookmarked,
 * and whether a block stands between them and the author (their copy is then empty). A member
 * opening a profile nobody opened this second costs one round trip, not two (feed.cache.ts).
 */
export async function findProfilePageWithMarks(
  em: EntityManager,
  query: { authorId: string; viewerId: string; limit: number },
): Promise<{ page: PostPage; marks: ViewerMarks }> {
  const { authorId, viewerId } = query;
  const found = await preparedRows<PostRow & { hidden: boolean }>(
    em,
    // The block is asked of the author given, once, not of each row's.
    sql`${selectPosts(viewerId, sql`, not (${notBlocked(viewerId, authorId)}) as hidden`)}
     where p.removed_at is null and ${shownMember('u')} and p.author_id = ${uuid(authorId)}
     order by ${postKeyset.ordering(POST_KEY_COLUMNS)}
     limit ${query.limit + 1}`,
  );
  const marks: ViewerMarks = { liked: new Set(), bookmarked: new Set(), hidden: new Set() };
  for (const row of found) {
    if (row.is_liked) marks.liked.add(row.id);
    if (row.is_bookmarked) marks.bookmarked.add(row.id);
    if (row.hidden) marks.hidden.add(row.author_id);
  }
  const asVisitor = found.map(({ hidden: _hidden, ...row }) => ({
    ...row,
    is_liked: false,
    is_bookmarked: false,
  }));
  return { page: postPageOf(asVisitor, query.limit), marks };
}

/**
 * Which way a Following page is read. Walking the newest posts of everyone and keeping the
 * followees' finds one of theirs about every members / followees rows, so a page costs about
 * limit × members / followees rows; taking each followee's newest posts from the author index and
 * merging them costs about one index probe per followee. The walk is the cheaper once
 * followees² ≥ members, and never below FOLLOWING_DENSE_FROM followees (the crossover measured
 * with 10,000 members; with 100,000 the walk took 850 ms under load for 200 followees).
 * bench/history.md ("The Following feed") and bench/README.md have the figures.
 */
export const FOLLOWING_DENSE_FROM = 100;

export function followingIsDense(followees: number, members: number): boolean {
  return followees >= Math.max(FOLLOWING_DENSE_FROM, Math.sqrt(members));
}

/** PostgreSQL's estimate of the members (users' row count), read at most every 10 minutes. */
const MEMBERS_ESTIMATE_MS = 10 * 60_000;
let membersEstimate: { n: number; at: number } | null = null;
async function estimatedMembers(em: EntityManager): Promise<number> {
  if (membersEstimate && Date.now() - membersEstimate.at < MEMBERS_ESTIMATE_MS) return membersEstimate.n;
  const row = await firstRow<{ n: number }>(
    em,
    sql`select greatest(reltuples, 0)::float8 as n from pg_class where oid = 'users'::regclass`,
  );
  membersEstimate = { n: row?.n ?? 0, at: Date.now() };
  return membersEstimate.n;
}

const CHOSEN_KEY_COLUMNS = { createdAt: 'c.created_at', id: 'c.id' };
const SPARSE_KEY_COLUMNS = { createdAt: 'a.created_at', id: 'a.id' };
const NEWEST_KEY_COLUMNS = { createdAt: 'newest.created_at', id: 'newest.id' };

/** A post chosen for a Following page: its id, sort key and author, before it is read. */
export interface ChosenPost {
  id: string;
  created_at: string;
  author_id: string;
}

/**
 * The Following feed: posts by the people `viewerId` follows and their own, newest first, in
 * the same keyset as the other lists. Fan-out on read, no timeline table.
 *
 * Two statements: the page's ids are chosen from index entries alone (the live posts' indexes
 * carry the author; chooseFollowing), then only those posts are read in full (readFollowingPage).
 * As one statement, PostgreSQL planned the whole read again for each cursor (its plan for any
 * cursor looked dearer than the custom one): 1.8 ms of a page's 4.5. The small choosing statement
 * plans in about 0.6 ms, and the read by ids keeps one plan. Every filter that can leave a post
 * out (blocks, mutes, suspensions) is applied while choosing, so a page is never cut short by rows
 * dropped after the limit (a suspended followee's newest posts used to empty the page and end the
 * feed there).
 */
export async function findFollowingPage(
  em: EntityManager,
  query: {
    viewerId: string;
    cursor: PostCursor | null;
    limit: number;
    /** how many members the viewer follows, when the caller has counted them */
    followees?: number;
  },
): Promise<PostPage> {
  const chosen = await chooseFollowing(em, { ...query, count: query.limit + 1 });
  return readFollowingPage(em, query.viewerId, chosen, query.limit);
}

/**
 * The ids, sort keys and authors of the next `count` posts of `viewerId`'s Following feed after `cursor`
 * (from the top when null), every filter applied.
 */
export async function chooseFollowing(
  em: EntityManager,
  query: {
    viewerId: string;
    cursor: PostCursor | null;
    count: number;
    /** how many members the viewer follows, when the caller has counted them */
    followees?: number;
  },
): Promise<ChosenPost[]> {
  const { viewerId, cursor, count } = query;
  const followees =
    query.followees ??
    (
      await preparedRows<{ n: number }>(
        em,
        sql`select count(*)::int as n from follows where follower_id = ${uuid(viewerId)}`,
      )
    )[0]?.n ??
    0;
  const viewer = uuid(viewerId);
  const shown = (author: string) =>
    sql`${inFeedOf(viewerId, column(author))} and ${notSuspendedMember(column(author))}`;
  return followingIsDense(followees, await estimatedMembers(em))
    ? // Everyone's newest live posts, walked in the index that carries their authors.
      await preparedRows<ChosenPost>(
        em,
        sql`select c.id, ${iso('c.created_at')} as created_at, c.author_id from posts c
             where c.removed_at is null
               ${cursor ? sql`and ${postKeyset.continuing(cursor, CHOSEN_KEY_COLUMNS)}` : empty}
               and (c.author_id = ${viewer}
                    or c.author_id in (select f.followee_id from follows f where f.follower_id = ${viewer}))
               and ${shown('c.author_id')}
             order by ${postKeyset.ordering(CHOSEN_KEY_COLUMNS)}
             limit ${count}`,
      )
    : // Each shown followee's newest live posts (their author index), merged.
      await preparedRows<ChosenPost>(
        em,
        // The timestamps are written out for the chosen rows only, after the sort.
        sql`select chosen.id, ${iso('chosen.created_at')} as created_at, chosen.author_id from (
            select newest.id, newest.created_at, authors.author_id
              from (select f.followee_id as author_id from follows f where f.follower_id = ${viewer}
                    union all select ${viewer}) authors
              cross join lateral (
                select a.id, a.created_at from posts a
                 where a.author_id = authors.author_id and a.removed_at is null
                   ${cursor ? sql`and ${postKeyset.continuing(cursor, SPARSE_KEY_COLUMNS)}` : empty}
                 order by ${postKeyset.ordering(SPARSE_KEY_COLUMNS)}
                 limit ${count}
              ) newest
             where ${shown('authors.author_id')}
             order by ${postKeyset.ordering(NEWEST_KEY_COLUMNS)}
             limit ${count}) chosen
            order by ${postKeyset.ordering({ createdAt: 'chosen.created_at', id: 'chosen.id' })}`,
      );
}

/**
 * A Following page of `limit` posts from `chosen` (the page's posts, then at least one more when
 * there is a next page), read in full by id as `viewerId` sees them.
 */
export async function readFollowingPage(
  em: EntityManager,
  viewerId: string,
  chosen: readonly ChosenPost[],
  limit: number,
): Promise<PostPage> {
  const ids = chosen.slice(0, limit).map((row) => row.id);
  return { items: await findPostsByIds(em, ids, viewerId), nextCursor: followingNextCursor(chosen, limit) };
}

/**
 * The cursor after a Following page of `limit` posts from `chosen`, null when none follow. It
 * comes from what was chosen: a post removed before it was read leaves its page one short, never
 * the feed cut off.
 */
export function followingNextCursor(chosen: readonly ChosenPost[], limit: number): string | null {
  const last = chosen.length > limit ? chosen[limit - 1] : undefined;
  return last ? postKeyset.encode({ createdAt: last.created_at, id: last.id }) : null;
}

/**
 * The posts of `ids` still shown (not removed, their author not suspended), newest first, as
 * `viewerId` sees them (null: without anyone's like or bookmark).
 */
export async function findPostsByIds(
  em: EntityManager,
  ids: readonly string[],
  viewerId: string | null,
): Promise<PostDto[]> {
  if (ids.length === 0) return [];
  const found = await preparedRows<PostRow>(
    em,
    sql`${selectPosts(viewerId)}
         where p.id = any(${uuids(ids)}) and p.removed_at is null and ${shownMember('u')}
         order by ${postKeyset.ordering(POST_KEY_COLUMNS)}`,
  );
  return found.map(toPostDto);
}

/** Whom `followerId` follows: what their kept Following page depends on (following.cache.ts). */
export async function findFolloweeIds(em: EntityManager, followerId: string): Promise<string[]> {
  const found = await preparedRows<{ id: string }>(
    em,
    sql`select followee_id as id from follows where follower_id = ${uuid(followerId)}`,
  );
  return found.map((row) => row.id);
}

/**
 * A viewer's marks on a kept page (feed.cache.ts), in one statement: which of `postIds` they like
 * and bookmarked (look-ups on the likes and bookmarks primary keys) and which of `authorIds` their copy leaves out: on the
 * feed (`hides: 'feed'`) members blocked either way or muted, on a profile (`'blocks'`) members
 * blocked either way.
 */
export async function viewerMarksAmong(
  em: EntityManager,
  viewerId: string,
  postIds: string[],
  authorIds: string[],
  hides: 'feed' | 'blocks',
): Promise<ViewerMarks> {
  if (postIds.length === 0 && authorIds.length === 0) {
    return { liked: new Set(), bookmarked: new Set(), hidden: new Set() };
  }
  const author = column('u.id');
  const found = await preparedRows<{ id: string; mark: 'liked' | 'bookmarked' | 'hidden' }>(
    em,
    sql`select l.post_id as id, 'liked' as mark from likes l where l.user_id = ${viewerId} and l.post_id = any(${uuids(postIds)})
     union all
     select b.post_id, 'bookmarked' from bookmarks b where b.user_id = ${viewerId} and b.post_id = any(${uuids(postIds)})
     union all
     select u.id, 'hidden' from users u
      where u.id = any(${uuids(authorIds)})
        and not (${hides === 'feed' ? inFeedOf(viewerId, author) : notBlocked(viewerId, author)})`,
  );
  const marks: ViewerMarks = { liked: new Set(), bookmarked: new Set(), hidden: new Set() };
  for (const row of found) marks[row.mark].add(row.id);
  return marks;
}

/** What a like or unlike statement found and did. */
export interface ToggleRow {
  /**
   * the post exists, is not removed and (for a like) no block stands between liker and author,
   * nor is the author suspended
   */
  visible: boolean;
  /** likes_count after this statement's change; null when it changed nothing */
  changed_count: number | null;
  /** likes_count as the statement found it (when it changed nothing) */
  current_count: number | null;
  /** the author, when the statement changed something */
  author_id: string | null;
}

/**
 * Like and unlike are each one statement, one round trip: the insert or delete of the like
 * decides (on conflict do nothing / returning), only a like that really changed moves the counter
 * (atomically, `likes_count ± 1` under the row lock, so concurrent toggles never lose a count),
 * and the author's notification is written or taken back in the same statement. Data-modifying
 * CTEs all run, referenced or not, and the statement is its own transaction.
 */
export async function insertLike(
  em: EntityManager,
  like: { postId: string; userId: string; now: Date; notificationId: string },
): Promise<ToggleRow | undefined> {
  const { postId, userId, now } = like;
  const author = column('p.author_id');
  const [row] = await preparedRows<ToggleRow>(
    em,
    sql`
  with target as (
    select p.id, p.author_id, p.likes_count from posts p
     where p.id = ${uuid(postId)} and p.removed_at is null and ${notBlocked(userId, author)}
       and ${shownMemberOf(author)}
  ), ins as (
    insert into likes (user_id, post_id, created_at)
    select ${uuid(userId)}, target.id, ${now}::timestamptz from target
    on conflict do nothing
    returning post_id
  ), upd as (
    update posts set likes_count = likes_count + 1
     where id in (select post_id from ins)
    returning likes_count, author_id
  ), note as (
    -- As notify(): none to oneself, none to an author who muted the liker; duplicates dropped.
    insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at)
    select ${uuid(like.notificationId)}, upd.author_id, ${uuid(userId)}, 'like', ${uuid(postId)}, null, ${now}::timestamptz from upd
     where upd.author_id <> ${uuid(userId)} and ${notMuted(column('upd.author_id'), userId)}
    on conflict do nothing
  )
  select exists (select 1 from target) as visible,
         (select likes_count from upd) as changed_count,
         (select likes_count from target) as current_count,
         (select author_id from upd) as author_id`,
  );
  return row;
}

/** `insertLike`'s counterpart: the like, its count and its notification go in one statement. */
export async function deleteLike(
  em: EntityManager,
  like: { postId: string; userId: string },
): Promise<ToggleRow | undefined> {
  const { postId, userId } = like;
  const [row] = await preparedRows<ToggleRow>(
    em,
    sql`
  with target as (
    select p.likes_count from posts p where p.id = ${uuid(postId)} and p.removed_at is null
  ), del as (
    delete from likes where user_id = ${uuid(userId)} and post_id = ${uuid(postId)} returning post_id
  ), upd as (
    update posts set likes_count = likes_count - 1
     where id in (select post_id from del)
    returning likes_count, author_id
  ), retract as (
    delete from notifications
     where type = 'like' and actor_id = ${uuid(userId)} and post_id in (select post_id from del)
  )
  select exists (select 1 from target) as visible,
         (select likes_count from upd) as changed_count,
         (select likes_count from target) as current_count,
         (select author_id from upd) as author_id`,
  );
  return row;
}

/** A published post as the live feed announces it; `created_at` as ISO text with microseconds. */
export interface NewPostRow {
  id: string;
  author_id: string;
  created_at: string;
}

/** The posts the feed would show `viewerId` (no removed post, no author hidden from them or suspended), oldest first. */
function newPosts(
  em: EntityManager,
  viewerId: string | null,
  where: Sql,
  limit: number,
): Promise<NewPostRow[]> {
  const author = column('author_id');
  return rows<NewPostRow>(
    em,
    sql`select id, author_id, ${iso('created_at')} as created_at from posts
        where removed_at is null and ${where} and ${inFeedOf(viewerId, author)}
          and ${shownMemberOf(author)}
        order by created_at, id limit ${limit}`,
  );
}

/** Up to `limit` posts published after `since` that the feed would show `viewerId`. */
export function findNewPostsSince(
  em: EntityManager,
  viewerId: string | null,
  since: PostCursor,
  limit: number,
): Promise<NewPostRow[]> {
  return newPosts(
    em,
    viewerId,
    sql`(created_at, id) > (${since.createdAt}::timestamptz, ${since.id}::uuid)`,
    limit,
  );
}

/** The post `postId` if the feed would show it to `viewerId`. */
export async function findNewPost(
  em: EntityManager,
  viewerId: string | null,
  postId: string,
): Promise<NewPostRow | undefined> {
  return (await newPosts(em, viewerId, sql`id = ${postId}`, 1))[0];
}
