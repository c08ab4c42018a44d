/**
 * Search's SQL: the typo correction of a query's terms, users, posts and AI media matching a
 * query, each ranked by ts_rank_cd times its boosts (likes, comments and recency for posts,
 * followers for users, favourites for media), a viewer's marks on a kept answer, and the
 * suggestions shown before anything is typed. Blocked, suspended and removed content never
 * leaves these statements.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { empty, join, raw, rows, type Sql, sql, uuid, uuids } from '../../sql.js';
import { type MediaRow, selectMedia, toGalleryItem } from '../gallery/gallery.repository.js';
import { shownMember, shownMemberOf } from '../moderation/suspension.sql.js';
import type { PollRow } from '../polls/poll.serializer.js';
import { pollValue } from '../polls/poll.sql.js';
import { postRowColumns } from '../posts/post.repository.js';
import type { PostRow } from '../posts/post.serializer.js';
import { toPostDto } from '../posts/post.serializer.js';
import { column, inFeedOf, notBlocked } from '../safety/safety.sql.js';
import { toUserCard, type UserCardRow } from '../users/user-card.serializer.js';
import { userCardColumns } from '../users/user-card.sql.js';
import { HEADLINE_OPTIONS, highlightsOf, type RankedPosts } from './search.ranking.js';
import type { SearchMedia, SearchPost, SearchUser } from './search.schema.js';
import { matchQuery } from './search.sql.js';
import { CORRECTION, type QueryText } from './search.typo.js';

/**
 * Users and media considered per query: the most relevant by text (rank plus trigram similarity),
 * before the follower and favourite boosts. A common word is similar to hundreds of names and
 * titles; ranking all of them with their boosts was most of a search's time.
 */
const TEXT_CANDIDATES = 50;

/** Posts considered per query: the newest matches, ranked among themselves (bounds a common word). */
const POST_CANDIDATES = 200;

/** The newest posts a query looks at first; enough for any word in more than 1 post of 250. */
const RECENT_WINDOW = 5000;

/** ts_headline's options as the SQL string literal they are passed as. */
const HEADLINE = raw(`'${HEADLINE_OPTIONS}'`);

/** The tsquery of a query's texts: its phrases and exclusions, and every term prefix-matched. */
function tsquery([websearch, terms]: QueryText['q']): Sql {
  return matchQuery(websearch, terms);
}

/**
 * Each term that starts no word of the vocabulary, replaced by its closest word when one is near
 * enough (search.typo.ts). Terms come back lower-cased and unaccented, as the vocabulary is.
 */
export async function correctTerms(em: EntityManager, terms: string[]): Promise<string[]> {
  if (terms.length === 0) return terms;
  const found = await rows<{ ord: string; term: string; fixed: string | null }>(
    em,
    sql`with t as (
       select ord, lower(cubes_unaccent(term)) collate "C" as term
         from unnest(array[${join(terms, ', ')}]::text[]) with ordinality as x(term, ord)
     )
     select t.ord, t.term,
            ${CORRECTION} as fixed
       from t
      order by t.ord`,
  );
  return found.map((r) => r.fixed ?? r.term);
}

interface UserRow extends UserCardRow {
  is_following: boolean;
  headline: string | null;
}

function toSearchUser(row: UserRow): SearchUser {
  return {
    ...toUserCard(row),
    isFollowing: row.is_following,
    highlights: highlightsOf(row.headline),
  };
}

/** The public user card's columns (never the e-mail), with whether `viewerId` follows each. Alias `u`. */
function userColumns(viewerId: string | null): Sql {
  const viewer = uuid(viewerId);
  return sql`
  ${userCardColumns('u')},
  (${viewer} is not null and exists (
    select 1 from follows f where f.follower_id = ${viewer} and f.followee_id = u.id
  )) as is_following`;
}

/** A post of a search answer: the wire's ISO times, and the words that matched. */
function toSearchPost(row: PostRow, headline: string | null): SearchPost {
  const post = toPostDto(row);
  return {
    ...post,
    createdAt: new Date(post.createdAt).toISOString(),
    editedAt: post.editedAt === null ? null : new Date(post.editedAt).toISOString(),
    highlights: highlightsOf(headline),
  };
}

type ScoredPostRow = PostRow & { headline: string | null; score: number };

/**
 * An upper bound of the share of posts that hold every prefix term of `prefix`, from the
 * statistics ANALYZE keeps of `posts.search_vector`: for each lexeme, the summed frequencies of
 * the most common lexemes it starts; for the query, the least of those. A lexeme too rare to be
 * among them counts 0, and so does a query of stop words alone, which has no lexeme. Without
 * statistics (a table never analyzed) it is 1, so a guess never makes a common word take the
 * index. It reads the pg_stats view, not the table.
 */
function estimatedShare(terms: readonly string[]): Sql {
  return sql`coalesce((
    select case when s.most_common_elems is null then 1 else coalesce((
             select min((select coalesce(sum(e.freq), 0)
                           from unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as e(elem, freq)
                          where starts_with(e.elem, l.lexeme)))
               from unnest(tsvector_to_array(to_tsvector('cubes_search', ${terms.join(' ')}))) as l(lexeme)
           ), 0) end
      from pg_stats s
     where s.schemaname = current_schema() and s.tablename = 'posts' and s.attname = 'search_vector'
  ), 1)`;
}

/**
 * The best `limit` posts matching `q`, as `viewerId` (null: a visitor) sees them, in rank order.
 * Candidates are the newest matching posts. A common word finds them at once walking the newest
 * posts; a rare one would walk the whole table that way, so when the newest RECENT_WINDOW posts
 * hold too few matches the GIN index gives them instead (ordering by an expression keeps the
 * planner from walking the created_at index, whose estimate for a prefix term is a guess).
 *
 * Which of the two is decided before the walk, in the walk's statement: a one-time filter skips it
 * when the statistics say the newest RECENT_WINDOW posts cannot hold `limit` matches
 * (estimatedShare), and the index is asked at once. A rare word, and a query of stop words alone
 * ("about", "the"), would otherwise walk all of the window for nothing first, the costliest search
 * statement under load (bench/README.md, "Search"). The estimate only picks the way; both ways
 * give the newest matches.
 *
 * With `among`, only those posts (new ones, for a cached answer to merge in).
 */
export async function searchPosts(
  em: EntityManager,
  q: QueryText['q'],
  viewerId: string | null,
  now: Date,
  limit: number,
  among: string[] | null = null,
): Promise<RankedPosts<SearchPost>> {
  const query = tsquery(q);
  const visible = (author: string) => notBlocked(viewerId, column(author));
  // Prepared (prepared.ts): each variant forces its own plan, so a generic plan loses nothing.
  // Suspended authors are left out in `top`, a look-up per candidate. `hits` is materialized so
  // that check is never pushed into the scan: its cost there made the generic plan of 'among'
  // AND the GIN index into an id look-up.
  const run = async (source: 'recent' | 'index' | 'among') => {
    const hits =
      source === 'among'
        ? sql`select p.id, p.author_id, p.created_at, p.search_vector, p.likes_count, p.comments_count
               from posts p
              where p.id = any(${uuids(among ?? [])}) and p.search_vector @@ ${query} and p.removed_at is null
                and ${visible('p.author_id')}`
        : source === 'recent'
          ? sql`select * from (
               select p.id, p.author_id, p.created_at, p.search_vector, p.likes_count, p.comments_count
                 from posts p
                where p.removed_at is null and ${estimatedShare(q[1])} >= ${limit / RECENT_WINDOW}::float8
                order by p.created_at desc, p.id desc limit ${raw(String(RECENT_WINDOW))}
             ) r
             where r.search_vector @@ ${query} and ${visible('r.author_id')}
             order by r.created_at desc
             limit ${raw(String(POST_CANDIDATES))}`
          : sql`select p.id, p.author_id, p.created_at, p.search_vector, p.likes_count, p.comments_count
               from posts p
              where p.search_vector @@ ${query} and p.removed_at is null
                and ${visible('p.author_id')}
              order by p.created_at + interval '0 s' desc
              limit ${raw(String(POST_CANDIDATES))}`;
    const found = await preparedRows<ScoredPostRow>(
      em,
      sql`with hits as materialized (${hits}),
       top as (
         select id,
                ts_rank_cd(search_vector, ${query})
                  * (1 + ln(1 + likes_count + comments_count))
                  / (1 + extract(epoch from (${now}::timestamptz - created_at)) / 604800) as score,
                created_at
           from hits
          where ${shownMemberOf(column('hits.author_id'))}
          order by score desc, created_at desc, id desc
          limit ${limit}
       )
       select ${postRowColumns(viewerId)}, top.score,
              ts_headline('cubes_search', p.content, ${query}, ${HEADLINE}) as headline
         from top
         join posts p on p.id = top.id
         join users u on u.id = p.author_id
        order by top.score desc, p.created_at desc, p.id desc`,
    );
    return found;
  };
  let found: ScoredPostRow[];
  if (among) found = among.length === 0 ? [] : await run('among');
  else {
    const recent = await run('recent');
    found = recent.length >= limit ? recent : await run('index');
  }
  return {
    posts: found.map(({ score: _, headline, ...row }) => toSearchPost(row, headline)),
    ranks: found.map((row) => ({ score: row.score, createdAt: row.created_at, id: row.id })),
  };
}

/**
 * Users matching the query, as `viewerId` (null: a visitor) sees them. Text relevance picks at
 * most TEXT_CANDIDATES users (a common word is trigram-similar to hundreds of names); only those
 * pay for the follower boost and the headline.
 */
export async function searchUsers(
  em: EntityManager,
  { q, fuzzy }: QueryText,
  viewerId: string | null,
  limit: number,
): Promise<SearchUser[]> {
  const query = tsquery(q);
  const found = await rows<UserRow>(
    em,
    sql`with candidates as (
         select u.id, ts_rank_cd(u.search_vector, ${query}) + similarity(lower(u.username), ${fuzzy}) as relevance
           from users u
          where u.deleted_at is null and ${shownMember('u')} and (u.search_vector @@ ${query}
             ${fuzzy ? sql`or lower(u.username) % ${fuzzy} or lower(cubes_unaccent(u.display_name)) % ${fuzzy}` : empty})
            and ${notBlocked(viewerId, column('u.id'))}
          order by relevance desc, u.username
          limit ${raw(String(TEXT_CANDIDATES))}
       )
       select ${userColumns(viewerId)},
              ts_headline('cubes_search', u.display_name || ' ' || u.username, ${query}, ${HEADLINE}) as headline
         from candidates c
         join users u on u.id = c.id
        order by c.relevance * (1 + ln(1 + (select count(*) from follows f where f.followee_id = u.id))) desc,
                 u.username
        limit ${limit}`,
  );
  return found.map(toSearchUser);
}

/**
 * The most relevant media by text (at most TEXT_CANDIDATES), boosted by favourites, then their
 * creators: joining users before the limit would hash all of them.
 */
export async function searchMedia(
  em: EntityManager,
  { q, fuzzy }: QueryText,
  viewerId: string | null,
  limit: number,
): Promise<SearchMedia[]> {
  const query = tsquery(q);
  const found = await rows<MediaRow & { headline: string | null }>(
    em,
    sql`with candidates as (
         select m.id, m.creator_id, m.created_at, m.favorites_count,
                ts_rank_cd(m.search_vector, ${query}) + similarity(lower(cubes_unaccent(m.title)), ${fuzzy}) as relevance
           from ai_media m
          where (m.search_vector @@ ${query}
             ${fuzzy ? sql`or lower(cubes_unaccent(m.title)) % ${fuzzy}` : empty})
            and ${notBlocked(viewerId, column('m.creator_id'))}
          order by relevance desc, m.created_at desc, m.id desc
          limit ${raw(String(TEXT_CANDIDATES))}
       ),
       top as (
         select id, relevance * (1 + ln(1 + favorites_count)) as score from candidates
          where ${shownMemberOf(column('creator_id'))}
          order by score desc, created_at desc, id desc
          limit ${limit}
       )
       ${selectMedia(viewerId, sql`ts_headline('cubes_search', m.title, ${query}, ${HEADLINE}) as headline,`)}
         join top on top.id = m.id
        order by top.score desc, m.created_at desc, m.id desc`,
  );
  return found.map(({ headline, ...row }) => ({ ...toGalleryItem(row), highlights: highlightsOf(headline) }));
}

/**
 * When the next suspension ends by its date, or null: the suspended (few, in their own partial
 * index) are left out of people search until then, and no event says when they come back.
 */
export async function findNextSuspensionEnd(em: EntityManager): Promise<Date | null> {
  const [row] = await preparedRows<{ at: Date | string | null }>(
    em,
    sql`select min(suspended_until) as at from users
         where suspended_at is not null and suspended_until > now()`,
  );
  return row?.at ? new Date(row.at) : null;
}

/** What a viewer's copy of a kept answer needs to know, in one statement. */
export interface SearchMarks {
  /** of the people in the answer, those blocked either way */
  blocked: string[];
  /** of the users, those the viewer follows */
  following: string[];
  /** of the posts, those the viewer likes */
  liked: string[];
  /** of the posts, those the viewer reposted */
  reposted?: string[];
  /** of the posts, those the viewer bookmarked */
  bookmarked: string[];
  /** of the media, those the viewer favourited */
  favorited: string[];
  /** of the posts' polls, those whose results the viewer sees though a visitor would not, as they see them */
  polls?: { id: string; poll: PollRow }[];
}

/** `viewerId`'s marks among the people, users, posts and media of a kept answer. */
export async function searchMarks(
  em: EntityManager,
  viewerId: string,
  ids: { people: string[]; users: string[]; posts: string[]; media: string[] },
): Promise<SearchMarks> {
  const [marks] = await preparedRows<SearchMarks>(
    em,
    sql`select
       array(select x.id from unnest(${uuids(ids.people)}) as x(id) where not (${notBlocked(viewerId, column('x.id'))})) as blocked,
       array(select f.followee_id from follows f where f.follower_id = ${viewerId} and f.followee_id = any(${uuids(ids.users)})) as following,
       array(select l.post_id from likes l where l.user_id = ${viewerId} and l.post_id = any(${uuids(ids.posts)})) as liked,
       array(select r.post_id from reposts r where r.user_id = ${viewerId} and r.post_id = any(${uuids(ids.posts)})) as reposted,
       array(select b.post_id from bookmarks b where b.user_id = ${viewerId} and b.post_id = any(${uuids(ids.posts)})) as bookmarked,
       array(select v.media_id from favorites v where v.user_id = ${viewerId} and v.media_id = any(${uuids(ids.media)})) as favorited,
       (select coalesce(json_agg(json_build_object('id', p.id, 'poll', ${pollValue(viewerId)})), '[]'::json)
          from posts p join polls po on po.post_id = p.id
         where p.id = any(${uuids(ids.posts)}) and (p.author_id = ${viewerId} or exists (
               select 1 from poll_votes pv where pv.post_id = p.id and pv.user_id = ${viewerId}))) as polls`,
  );
  return marks!;
}

/**
 * Users to follow (never the viewer or whom they follow, most followed first), none blocked
 * either way, muted or suspended.
 */
export async function suggestedUsers(
  em: EntityManager,
  viewerId: string | null,
  limit: number,
): Promise<SearchUser[]> {
  const viewer = uuid(viewerId);
  const found = await rows<UserRow>(
    em,
    sql`select ${userColumns(viewerId)}, null as headline
         from users u
        where u.deleted_at is null and ${shownMember('u')} and (${viewer} is null or (u.id <> ${viewer} and not exists (
                select 1 from follows f where f.follower_id = ${viewer} and f.followee_id = u.id)))
          and ${inFeedOf(viewerId, column('u.id'))}
        order by followers_count desc, u.created_at desc, u.id
        limit ${limit}`,
  );
  return found.map(toSearchUser);
}

/** Posts trending by likes and comments since `since`, by authors the viewer's feeds show. */
export async function trendingPosts(
  em: EntityManager,
  viewerId: string | null,
  since: Date,
  limit: number,
): Promise<SearchPost[]> {
  const found = await rows<PostRow>(
    em,
    sql`with activity as (
         select post_id from likes where created_at >= ${since}
         union all
         select post_id from comments where created_at >= ${since} and removed_at is null
       ),
       trending as (
         select post_id, count(*) as score from activity group by post_id
         order by score desc, post_id limit ${limit}
       )
       select ${postRowColumns(viewerId)}
         from trending t
         join posts p on p.id = t.post_id and p.removed_at is null
         join users u on u.id = p.author_id
        where ${inFeedOf(viewerId, column('p.author_id'))} and ${shownMember('u')}
        order by t.score desc, p.created_at desc, p.id desc`,
  );
  return found.map((row) => toSearchPost(row, null));
}

/** The most favourited media, by creators neither blocked either way nor suspended. */
export async function popularMedia(
  em: EntityManager,
  viewerId: string | null,
  limit: number,
): Promise<SearchMedia[]> {
  const found = await rows<MediaRow>(
    em,
    sql`${selectMedia(viewerId)}
        where ${shownMember('u')} and ${notBlocked(viewerId, column('m.creator_id'))}
        order by m.favorites_count desc, m.created_at desc, m.id desc
        limit ${limit}`,
  );
  return found.map((row) => ({ ...toGalleryItem(row), highlights: [] }));
}
