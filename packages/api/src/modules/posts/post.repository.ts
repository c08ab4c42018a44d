/**
 * The statements on posts. Post reads are single queries: each post comes with its author's
 * public fields (a join) and the viewer's like (an EXISTS on the likes primary key), so a page
 * costs one round trip, never one per post. Lists page by keyset on (created_at, id), served by
 * the posts indexes. The Following selection is in following.repository.ts, likes in
 * like.repository.ts.
 */
import type { PostImageData } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetKey, keyset } from '../../paging.js';
import { preparedRows } from '../../prepared.js';
import { empty, iso, join, rows, type Sql, sql, uuid, uuids } from '../../sql.js';
import { linkCardColumn } from '../link-cards/link-card.sql.js';
import { postMentionsColumn } from '../mentions/mention.sql.js';
import { shownMember, shownMemberOf } from '../moderation/suspension.sql.js';
import { type PollRow, toPollDto } from '../polls/poll.serializer.js';
import { entitledPollsAmong, pollColumn } from '../polls/poll.sql.js';
import { column, inFeedOf, notBlocked } from '../safety/safety.sql.js';
import type { ViewerMarks } from './feed.cache.js';
import { type PostDto, type PostPage, QUOTE_TEXT_MAX } from './post.schema.js';
import { type PostRow, toPostDto } from './post.serializer.js';

/** A PostRow's columns of the posts `p` joined with their authors `u`, without the viewer's like. */
const POST_ROW_COLUMNS = sql`p.id, p.author_id, u.username, u.display_name, u.avatar_url, p.content, p.content_warning, p.image_url, p.images,
         p.likes_count, p.comments_count, p.reposts_count, ${iso('p.created_at')} as created_at,
         ${iso('p.pinned_at')} as pinned_at, p.quote_of,
         ${iso('p.edited_at')} as edited_at, ${postMentionsColumn('p.id')}, ${linkCardColumn('p.id')}`;

/**
 * The post `p` quotes, as `viewerId` may see it (a JSON object, QuoteRow), or null: none, or it is
 * gone (deleted, removed, its author suspended or blocked either way with the viewer). Its text
 * is read a character past QUOTE_TEXT_MAX, so the serializer knows to cut it. Its own quote is
 * not read: a quote embeds one level.
 */
function quoteColumn(viewerId: string | null): Sql {
  return sql`(select json_build_object(
             'id', q.id, 'author_id', q.author_id, 'username', qu.username, 'display_name', qu.display_name,
             'avatar_url', qu.avatar_url, 'content', left(q.content, ${QUOTE_TEXT_MAX + 1}),
             'content_warning', q.content_warning, 'image_url', q.image_url,
             'image_sensitive', coalesce((q.images -> 0 ->> 'sensitive')::boolean, false),
             'created_at', ${iso('q.created_at')})
           from posts q join users qu on qu.id = q.author_id
          where q.id = p.quote_of and q.removed_at is null and ${shownMember('qu')}
            and ${notBlocked(viewerId, column('q.author_id'))}) as quote`;
}

/**
 * A PostRow's columns of post `p` by author `u` (its quote as `quoteViewerId` may see it: the
 * viewer unless told), with whether `viewerId` (null when logged out) likes and bookmarked it (look-ups on the likes and bookmarks primary keys). For statements
 * whose FROM is their own (search's ranked posts); the others start with selectPosts.
 */
export function postRowColumns(viewerId: string | null, quoteViewerId: string | null = viewerId): Sql {
  return sql`${POST_ROW_COLUMNS}, ${quoteColumn(quoteViewerId)}, ${pollColumn(viewerId)},
         (${uuid(viewerId)} is not null and exists (
           select 1 from likes l where l.user_id = ${uuid(viewerId)} and l.post_id = p.id
         )) as is_liked,
         (${uuid(viewerId)} is not null and exists (
           select 1 from reposts rp where rp.user_id = ${uuid(viewerId)} and rp.post_id = p.id
         )) as is_reposted,
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
    contentWarning: string | null;
    /** in order; the first is also written to image_url */
    images: PostImageData[];
    createdAt: Date;
    /** the post it quotes, checked visible to the author */
    quoteOf: string | null;
  },
): Promise<PostDto> {
  const [row] = await preparedRows<PostRow>(
    em,
    sql`with p as (
       insert into posts (id, author_id, content, content_warning, image_url, images, likes_count, comments_count, created_at, quote_of)
       values (${post.id}, ${post.authorId}, ${post.content}, ${post.contentWarning}, ${post.images[0]?.url ?? null},
               ${JSON.stringify(post.images)}::jsonb, 0, 0, ${post.createdAt}, ${uuid(post.quoteOf)})
       returning *
     )
     select ${POST_ROW_COLUMNS}, ${quoteColumn(post.authorId)}, false as is_liked, false as is_reposted,
            false as is_bookmarked from p join users u on u.id = p.author_id`,
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

/** No marks yet: sets to fill. */
export function emptyMarks(): ViewerMarks {
  return { liked: new Set(), reposted: new Set(), bookmarked: new Set(), hidden: new Set() };
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
  if (postIds.length === 0 && authorIds.length === 0) return emptyMarks();
  const author = column('u.id');
  const found = await preparedRows<{
    id: string;
    mark: 'liked' | 'reposted' | 'bookmarked' | 'hidden' | 'poll';
    poll: PollRow | null;
  }>(
    em,
    sql`select l.post_id as id, 'liked' as mark, null::json as poll from likes l where l.user_id = ${viewerId} and l.post_id = any(${uuids(postIds)})
     union all
     select r.post_id, 'reposted', null from reposts r where r.user_id = ${viewerId} and r.post_id = any(${uuids(postIds)})
     union all
     select b.post_id, 'bookmarked', null from bookmarks b where b.user_id = ${viewerId} and b.post_id = any(${uuids(postIds)})
     union all
     select u.id, 'hidden', null from users u
      where u.id = any(${uuids(authorIds)})
        and not (${hides === 'feed' ? inFeedOf(viewerId, author) : notBlocked(viewerId, author)})
     union all
     ${entitledPollsAmong(viewerId, postIds)}`,
  );
  const marks = emptyMarks();
  marks.polls = new Map();
  for (const row of found) {
    if (row.mark !== 'poll') marks[row.mark].add(row.id);
    else if (row.poll) marks.polls.set(row.id, toPollDto(row.poll)!);
  }
  return marks;
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
