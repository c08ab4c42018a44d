/**
 * Post reads as single SQL queries: each post comes with its author's public fields (a join) and
 * the viewer's like (an EXISTS on the likes primary key), so a page costs one round trip, never
 * one per post. Lists page by keyset on (created_at, id), served by the posts indexes.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type KeysetKey, keyset } from '../../paging.js';
import { executePrepared, pgArray } from '../../prepared.js';
import { isoTime } from '../../sql.js';
import { shownMemberSql } from '../moderation/suspension.js';
import {
  feedVisibleAuthor,
  feedVisibleParams,
  notBlockedBetween,
  notBlockedParams,
} from '../safety/safety.sql.js';
import type { ViewerMarks } from './feed-cache.js';
import { type PostDto, type PostPage, type PostRow, toPostDto } from './post.serializer.js';

/** A PostRow's columns of the posts `p` joined with their authors `u`, without the viewer's like. */
const POST_ROW_COLUMNS = `p.id, p.author_id, u.username, u.display_name, u.avatar_url, p.content, p.image_url,
         p.likes_count, p.comments_count, ${isoTime('p.created_at')} as created_at,
         ${isoTime('p.edited_at')} as edited_at`;

/** Takes two parameters first: the viewer id twice (null when logged out). */
const SELECT_POSTS = `
  select ${POST_ROW_COLUMNS},
         (?::uuid is not null and exists (
           select 1 from likes l where l.user_id = ?::uuid and l.post_id = p.id
         )) as is_liked
    from posts p
    join users u on u.id = p.author_id`;

/** A new post by `authorId`, written and read back as its author sees it in one statement. */
export async function insertPost(
  em: EntityManager,
  post: { id: string; authorId: string; content: string; imageUrl: string | null; createdAt: Date },
): Promise<PostDto> {
  const [row] = await executePrepared<PostRow[]>(
    em,
    `with p as (
       insert into posts (id, author_id, content, image_url, likes_count, comments_count, created_at)
       values (?, ?, ?, ?, 0, 0, ?)
       returning *
     )
     select ${POST_ROW_COLUMNS}, false as is_liked from p join users u on u.id = p.author_id`,
    [post.id, post.authorId, post.content, post.imageUrl, post.createdAt],
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
  const rows = await executePrepared<PostRow[]>(
    em,
    `${SELECT_POSTS} where p.id = ? and p.removed_at is null and ${shownMemberSql('u')}
       and ${notBlockedBetween('?::uuid', 'p.author_id')}`,
    [viewerId, viewerId, postId, ...notBlockedParams(viewerId)],
  );
  return rows[0] ? toPostDto(rows[0]) : null;
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
  /** only posts by the people this user follows, and their own (the Following feed) */
  followedBy?: string;
  cursor: PostCursor | null;
  limit: number;
}

/** Newest first; posts written while a client pages land before its cursor, so none repeat or go missing. */
export async function findPostPage(em: EntityManager, query: PostPageQuery): Promise<PostPage> {
  // Posts a moderator removed, and those of suspended members, are hidden from every list.
  const where: string[] = ['p.removed_at is null', shownMemberSql('u')];
  const params: unknown[] = [query.viewerId, query.viewerId];
  if (query.authorId) {
    where.push('p.author_id = ?');
    params.push(query.authorId);
  }
  if (query.withImages) where.push('p.image_url is not null');
  if (query.viewerId !== null) {
    where.push(query.feed ? feedVisibleAuthor('p.author_id') : notBlockedBetween('?::uuid', 'p.author_id'));
    params.push(...(query.feed ? feedVisibleParams(query.viewerId) : notBlockedParams(query.viewerId)));
  }
  if (query.followedBy) {
    where.push(
      `(p.author_id = ? or p.author_id in (select f.followee_id from follows f where f.follower_id = ?))`,
    );
    params.push(query.followedBy, query.followedBy);
  }
  if (query.cursor) {
    const after = postKeyset.after(query.cursor, POST_KEY_COLUMNS);
    where.push(after.sql);
    params.push(...after.params);
  }
  params.push(query.limit + 1); // one extra row tells whether a next page exists
  // One statement text per combination of filters: prepared.
  const rows = await executePrepared<PostRow[]>(
    em,
    `${SELECT_POSTS}
     where ${where.join(' and ')}
     order by ${postKeyset.orderBy(POST_KEY_COLUMNS)}
     limit ?`,
    params,
  );
  return postKeyset.page(rows, query.limit, toPostDto, (row) => ({ createdAt: row.created_at, id: row.id }));
}

/**
 * From this many followees on, the Following feed walks the newest posts of everyone and keeps
 * those of followees: with a tenth of the authors followed, a page is found after a few hundred
 * rows. Below it that walk could read most of the table for one page, so the feed takes each
 * followee's newest posts from the author index and merges them instead. bench/README.md
 * ("The Following feed") has the figures behind both and the crossover.
 */
export const FOLLOWING_DENSE_FROM = 100;

const SPARSE_KEY_COLUMNS = { createdAt: 'a.created_at', id: 'a.id' };

/**
 * The Following feed: posts by the people `viewerId` follows and their own, newest first, in
 * the same keyset as the other lists. Fan-out on read, no timeline table.
 */
export async function findFollowingPage(
  em: EntityManager,
  query: { viewerId: string; cursor: PostCursor | null; limit: number },
): Promise<PostPage> {
  const [followees] = await em.execute<{ n: number }[]>(
    'select count(*)::int as n from follows where follower_id = ?',
    [query.viewerId],
  );
  if ((followees?.n ?? 0) >= FOLLOWING_DENSE_FROM) {
    return findPostPage(em, { ...query, followedBy: query.viewerId, feed: true });
  }
  const after = query.cursor ? postKeyset.after(query.cursor, SPARSE_KEY_COLUMNS) : null;
  const rows = await em.execute<PostRow[]>(
    `${SELECT_POSTS}
      where p.id in (
        select newest.id
          from (select f.followee_id as author_id from follows f where f.follower_id = ?
                union all select ?::uuid) authors
          cross join lateral (
            select a.id from posts a
             where a.author_id = authors.author_id and a.removed_at is null ${after ? `and ${after.sql}` : ''}
             order by ${postKeyset.orderBy(SPARSE_KEY_COLUMNS)}
             limit ?
          ) newest
         where ${feedVisibleAuthor('authors.author_id')}
      )
      and ${shownMemberSql('u')}
      order by ${postKeyset.orderBy(POST_KEY_COLUMNS)}
      limit ?`,
    [
      query.viewerId,
      query.viewerId,
      query.viewerId,
      query.viewerId,
      ...(after?.params ?? []),
      query.limit + 1,
      ...feedVisibleParams(query.viewerId),
      query.limit + 1,
    ],
  );
  return postKeyset.page(rows, query.limit, toPostDto, (row) => ({ createdAt: row.created_at, id: row.id }));
}

/**
 * A viewer's marks on a kept page (feed-cache.ts), in one statement: which of `postIds` they like
 * (a look-up on the likes primary key) and which of `authorIds` their copy leaves out: on the
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
  if (postIds.length === 0 && authorIds.length === 0) return { liked: new Set(), hidden: new Set() };
  const rows = await executePrepared<{ id: string; liked: boolean }[]>(
    em,
    `select l.post_id as id, true as liked from likes l where l.user_id = ? and l.post_id = any(?::uuid[])
     union all
     select u.id, false from users u
      where u.id = any(?::uuid[])
        and not (${hides === 'feed' ? feedVisibleAuthor('u.id') : notBlockedBetween('?::uuid', 'u.id')})`,
    [
      viewerId,
      pgArray(postIds),
      pgArray(authorIds),
      ...(hides === 'feed' ? feedVisibleParams(viewerId) : notBlockedParams(viewerId)),
    ],
  );
  const marks: ViewerMarks = { liked: new Set(), hidden: new Set() };
  for (const row of rows) (row.liked ? marks.liked : marks.hidden).add(row.id);
  return marks;
}
