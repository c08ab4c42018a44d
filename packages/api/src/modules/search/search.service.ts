/**
 * Search over users, posts and AI media, all in PostgreSQL: generated tsvector columns with GIN
 * indexes in the `cubes_search` configuration (English stemming, accents ignored), every plain
 * word prefix-matched, phrases and exclusions through websearch_to_tsquery, and typo tolerance:
 * a term of 3+ characters that starts no known word is replaced by the closest word of the
 * vocabulary (trigram nearest neighbours, then edit distance ≤ 1, or ≤ 2 from 5 characters).
 * Usernames, display names and titles also match by trigram similarity.
 *
 * Ranking: ts_rank_cd × boosts — likes and comments and recency for posts, followers for users,
 * favourites for media. Suggestions (an empty query) share the answer's shape.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Context, readEm } from '../../context.js';
import { executePrepared, pgArray } from '../../prepared.js';
import { markShared } from '../../shared-json.js';
import { isoTime } from '../../sql.js';
import { type MediaRow, selectMedia, toGalleryItem } from '../gallery/gallery.service.js';
import { shownMemberById, shownMemberSql } from '../moderation/suspension.js';
import type { PostRow } from '../posts/post.serializer.js';
import { toPostDto } from '../posts/post.serializer.js';
import {
  feedVisibleAuthor,
  feedVisibleParams,
  notBlockedBetween,
  notBlockedParams,
} from '../safety/safety.sql.js';
import { MAX_WORD_LENGTH, parseQuery, prefixQueryText } from './search.query.js';
import { SEARCH_LIMITS, type SearchInput } from './search.schema.js';
import { cachedSearch, cachedSearchFor } from './search-cache.js';

type PostDto = ReturnType<typeof toPostDto>;
type GalleryItemDto = ReturnType<typeof toGalleryItem>;

export interface SearchUserDto {
  id: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  bio: string | null;
  followersCount: number;
  isFollowing: boolean;
  highlights: string[];
}

export interface SearchResult {
  users: SearchUserDto[];
  posts: (PostDto & { highlights: string[] })[];
  aiMedia: (GalleryItemDto & { highlights: string[] })[];
}

const EMPTY: SearchResult = { users: [], posts: [], aiMedia: [] };

/**
 * Users and media considered per query: the most relevant by text (rank plus trigram similarity),
 * before the follower and favourite boosts. A common word is similar to hundreds of names and
 * titles; ranking all of them with their boosts was most of a search's time.
 */
const TEXT_CANDIDATES = 50;

/** Posts considered per query: the newest matches, ranked among themselves (bounds a common word). */
const POST_CANDIDATES = 200;

// ts_headline marks matched words with control characters, which no stored text can contain
// (the text rule refuses them on input), so the marks cannot be forged.
const START = '\u0001';
const STOP = '\u0002';
const HEADLINE_OPTIONS = `StartSel=${START}, StopSel=${STOP}, HighlightAll=true`;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the headline marks are control characters
const MARKED = /\u0001([^\u0002]*)\u0002/g;

/** The distinct words ts_headline marked, as they appear in the text. */
function highlightsOf(headline: string | null): string[] {
  if (!headline) return [];
  return [...new Set([...headline.matchAll(MARKED)].map((m) => m[1]!).filter((w) => w.length > 0))];
}

interface Corrected {
  terms: string[];
}

/**
 * Each term that starts no word of the vocabulary, replaced by its closest word when one is near
 * enough. Terms are lower-cased and unaccented as the vocabulary is.
 */
async function correctTerms(em: EntityManager, terms: string[]): Promise<Corrected> {
  if (terms.length === 0) return { terms };
  const rows = await em.execute<{ ord: string; term: string; fixed: string | null }[]>(
    `with t as (
       select ord, lower(cubes_unaccent(term)) collate "C" as term
         from unnest(array[${terms.map(() => '?').join(', ')}]::text[]) with ordinality as x(term, ord)
     )
     select t.ord, t.term,
            case
              when char_length(t.term) < 3 or t.term ~ '^[0-9]+$' then null
              when exists (
                select 1 from search_words w
                 where w.word >= t.term and w.word < t.term || chr(1114111)
              ) then null
              else (
                select c.word from (
                  select w.word from search_words w order by w.word <-> t.term limit 8
                ) c
                where levenshtein(c.word, t.term) <= case when char_length(t.term) >= 5 then 2 else 1 end
                order by levenshtein(c.word, t.term), similarity(c.word, t.term) desc, c.word
                limit 1
              )
            end as fixed
       from t
      order by t.ord`,
    terms,
  );
  return { terms: rows.map((r) => (r.fixed ?? r.term).slice(0, MAX_WORD_LENGTH)) };
}

/** The tsquery expression (two parameters: websearch text, prefix text). */
const TSQUERY = `(websearch_to_tsquery('cubes_search', ?) && to_tsquery('cubes_search', ?))`;

interface UserRow {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  bio: string | null;
  followers_count: number;
  is_following: boolean;
  headline: string | null;
}

function toSearchUser(row: UserRow): SearchUserDto {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    bio: row.bio,
    followersCount: row.followers_count,
    isFollowing: row.is_following,
    highlights: highlightsOf(row.headline),
  };
}

/** Public user columns (never the e-mail); takes two parameters: the viewer id twice. Alias `u`. */
const USER_COLUMNS = `
  u.id, u.username, u.display_name, u.avatar_url, u.bio,
  (select count(*) from follows f where f.followee_id = u.id)::int as followers_count,
  (?::uuid is not null and exists (
    select 1 from follows f where f.follower_id = ?::uuid and f.followee_id = u.id
  )) as is_following`;

const POST_COLUMNS = `
  p.id, p.author_id, u.username, u.display_name, u.avatar_url, p.content, p.image_url,
  p.likes_count, p.comments_count, ${isoTime('p.created_at')} as created_at,
  (?::uuid is not null and exists (
    select 1 from likes l where l.user_id = ?::uuid and l.post_id = p.id
  )) as is_liked`;

type ScoredPostRow = PostRow & { headline: string | null; score: number };

/** The newest posts a query looks at first; enough for any word in more than 1 post of 250. */
const RECENT_WINDOW = 5000;

/**
 * An upper bound of the share of posts that hold every prefix term of the prefix query text (one
 * parameter), from the statistics ANALYZE keeps of `posts.search_vector`: for each lexeme, the
 * summed frequencies of the most common lexemes it starts; for the query, the least of those. A
 * lexeme too rare to be among them counts 0, and so does a query of stop words alone, which has
 * no lexeme. Without statistics (a table never analyzed) it is 1, so a guess never makes a common
 * word take the index. It reads the pg_stats view, not the table: 0.2 ms.
 */
const ESTIMATED_SHARE = `coalesce((
    select case when s.most_common_elems is null then 1 else coalesce((
             select min((select coalesce(sum(e.freq), 0)
                           from unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as e(elem, freq)
                          where starts_with(e.elem, l.lexeme)))
               from unnest(tsvector_to_array(to_tsvector('cubes_search', ?))) as l(lexeme)
           ), 0) end
      from pg_stats s
     where s.schemaname = current_schema() and s.tablename = 'posts' and s.attname = 'search_vector'
  ), 1)`;

/**
 * Candidates are the newest matching posts. A common word finds them at once walking the newest
 * posts; a rare one would walk the whole table that way, so when the newest RECENT_WINDOW posts
 * hold too few matches the GIN index gives them instead (ordering by an expression keeps the
 * planner from walking the created_at index, whose estimate for a prefix term is a guess).
 *
 * Which of the two is decided before the walk, in the walk's statement: a one-time filter skips it
 * when the statistics say the newest RECENT_WINDOW posts cannot hold `limit` matches
 * (ESTIMATED_SHARE), and the index is asked at once. A rare word, and a query of stop words alone
 * ("about", "the"), used to walk all 5,000 posts for nothing first: under the mixed benchmark's
 * load that made search's posts statement the most database time of any (17–19 ms a call). The
 * estimate only picks the way; both ways give the newest matches.
 */
async function searchPosts(
  em: EntityManager,
  q: string[],
  viewerId: string | null,
  now: Date,
  limit: number,
  /** only these posts (new ones, for a cached answer to merge in) */
  among: string[] | null = null,
): Promise<ScoredPostRow[]> {
  // Prepared (prepared.ts): each variant forces its own plan, so a generic plan loses nothing.
  // Suspended authors are left out in `top`, a look-up per candidate. `hits` is materialized so
  // that check is never pushed into the scan: its cost there made the generic plan of 'among'
  // AND the GIN index into an id look-up (49 ms instead of 1.5 ms for 64 ids).
  const run = (source: 'recent' | 'index' | 'among') =>
    executePrepared<ScoredPostRow[]>(
      em,
      `with hits as materialized (${
        source === 'among'
          ? `select p.id, p.author_id, p.created_at, p.search_vector, p.likes_count, p.comments_count
               from posts p
              where p.id = any(?::uuid[]) and p.search_vector @@ ${TSQUERY} and p.removed_at is null
                and ${notBlockedBetween('?::uuid', 'p.author_id')}`
          : source === 'recent'
            ? `select * from (
               select p.id, p.author_id, p.created_at, p.search_vector, p.likes_count, p.comments_count
                 from posts p
                where p.removed_at is null and ${ESTIMATED_SHARE} >= ?::float8
                order by p.created_at desc, p.id desc limit ${RECENT_WINDOW}
             ) r
             where r.search_vector @@ ${TSQUERY} and ${notBlockedBetween('?::uuid', 'r.author_id')}
             order by r.created_at desc
             limit ${POST_CANDIDATES}`
            : `select p.id, p.author_id, p.created_at, p.search_vector, p.likes_count, p.comments_count
               from posts p
              where p.search_vector @@ ${TSQUERY} and p.removed_at is null
                and ${notBlockedBetween('?::uuid', 'p.author_id')}
              order by p.created_at + interval '0 s' desc
              limit ${POST_CANDIDATES}`
      }),
       top as (
         select id,
                ts_rank_cd(search_vector, ${TSQUERY})
                  * (1 + ln(1 + likes_count + comments_count))
                  / (1 + extract(epoch from (?::timestamptz - created_at)) / 604800) as score,
                created_at
           from hits
          where ${shownMemberById('hits.author_id')}
          order by score desc, created_at desc, id desc
          limit ?
       )
       select ${POST_COLUMNS}, top.score,
              ts_headline('cubes_search', p.content, ${TSQUERY}, '${HEADLINE_OPTIONS}') as headline
         from top
         join posts p on p.id = top.id
         join users u on u.id = p.author_id
        order by top.score desc, p.created_at desc, p.id desc`,
      [
        ...(source === 'among' ? [pgArray(among ?? [])] : []),
        ...(source === 'recent' ? [q[1], limit / RECENT_WINDOW] : []),
        ...q,
        ...notBlockedParams(viewerId),
        ...q,
        now,
        limit,
        viewerId,
        viewerId,
        ...q,
      ],
    );
  if (among) return among.length === 0 ? [] : run('among');
  const recent = await run('recent');
  return recent.length >= limit ? recent : run('index');
}

/**
 * Results of each kind kept beyond the page in a cached answer, so that a viewer's copy can leave
 * out members they blocked (or who blocked them) and still be full.
 */
const SPARE = 5;
const CACHED_LIMITS = {
  users: SEARCH_LIMITS.users + SPARE,
  posts: SEARCH_LIMITS.posts + SPARE,
  aiMedia: SEARCH_LIMITS.aiMedia + SPARE,
};

interface CachedAnswer {
  /** what a visitor gets: the first SEARCH_LIMITS of each kind */
  visitor: SearchResult;
  /** the same answer with the spare results */
  full: SearchResult;
  /** the query as searched, and where each of full.posts stands: new posts are merged by it */
  text: QueryText;
  ranks: PostRank[];
}

function cachedAnswer(
  people: { text: QueryText; users: SearchUserDto[]; aiMedia: SearchResult['aiMedia'] },
  posts: RankedPosts,
): CachedAnswer {
  const full = { users: people.users, posts: posts.posts, aiMedia: people.aiMedia };
  const visitor = {
    users: full.users.slice(0, SEARCH_LIMITS.users),
    posts: full.posts.slice(0, SEARCH_LIMITS.posts),
    aiMedia: full.aiMedia.slice(0, SEARCH_LIMITS.aiMedia),
  };
  return { visitor: markShared(visitor), full, text: people.text, ranks: posts.ranks };
}

/**
 * The answer to a query: from the shared cache (search-cache.ts) as a visitor sees it, with the
 * viewer's follows, likes, favourites and blocks laid over it in one statement. A viewer whose
 * blocks leave a kind short while more results exist gets the answer computed for them alone.
 */
export async function search(ctx: Context, input: SearchInput): Promise<SearchResult> {
  const parsed = parseQuery(input.q);
  if (!parsed.hasPositive) return EMPTY;
  // The heaviest read there is: on the read replica when there is one.
  const em = readEm(ctx);
  const key = JSON.stringify([parsed.terms, parsed.websearch]);
  const parts = {
    // Users and media (and the typo correction) live their TTL; the posts are read again after
    // most writes to posts, and new posts merged in (search-cache.ts).
    people: async () => {
      const text = await queryText(em, parsed);
      const [users, aiMedia] = await Promise.all([
        searchUsers(em, text, null, CACHED_LIMITS.users),
        searchMedia(em, text, null, CACHED_LIMITS.aiMedia),
      ]);
      return { text, users, aiMedia };
    },
    answer: async (people: {
      text: QueryText;
      users: SearchUserDto[];
      aiMedia: SearchResult['aiMedia'];
    }): Promise<CachedAnswer> => {
      const rows = await searchPosts(em, people.text.q, null, ctx.now(), CACHED_LIMITS.posts);
      return cachedAnswer(people, toSearchPosts(rows));
    },
    merge: async (previous: CachedAnswer, postIds: string[]): Promise<CachedAnswer> => {
      const rows = await searchPosts(em, previous.text.q, null, ctx.now(), CACHED_LIMITS.posts, postIds);
      if (rows.length === 0) return previous;
      const posts = mergeRanked(
        { posts: previous.full.posts, ranks: previous.ranks },
        toSearchPosts(rows),
        CACHED_LIMITS.posts,
      );
      return cachedAnswer({ ...previous.full, text: previous.text }, posts);
    },
  };
  const viewerId = ctx.session?.user.id ?? null;
  if (viewerId === null) return (await cachedSearch(ctx.cacheScope, em.getDriver(), key, parts)).visitor;
  const copy = await cachedSearchFor(ctx.cacheScope, em.getDriver(), key, parts, viewerId, (answer) =>
    forViewer(em, viewerId, answer.full),
  );
  return copy ?? runSearch(ctx, em, parsed, viewerId, SEARCH_LIMITS);
}

/** `full` as the viewer sees it, or null when their blocks leave a kind short of its page. */
async function forViewer(
  em: EntityManager,
  viewerId: string,
  full: SearchResult,
): Promise<SearchResult | null> {
  const people = new Set<string>([
    ...full.users.map((u) => u.id),
    ...full.posts.map((p) => p.userId),
    ...full.aiMedia.map((m) => m.creator.id),
  ]);
  if (people.size === 0) return EMPTY;
  const [marks] = await executePrepared<
    { blocked: string[]; following: string[]; liked: string[]; favorited: string[] }[]
  >(
    em,
    `select
       array(select x.id from unnest(?::uuid[]) as x(id) where not (${notBlockedBetween('?::uuid', 'x.id')})) as blocked,
       array(select f.followee_id from follows f where f.follower_id = ? and f.followee_id = any(?::uuid[])) as following,
       array(select l.post_id from likes l where l.user_id = ? and l.post_id = any(?::uuid[])) as liked,
       array(select v.media_id from favorites v where v.user_id = ? and v.media_id = any(?::uuid[])) as favorited`,
    [
      pgArray([...people]),
      ...notBlockedParams(viewerId),
      viewerId,
      pgArray(full.users.map((u) => u.id)),
      viewerId,
      pgArray(full.posts.map((p) => p.id)),
      viewerId,
      pgArray(full.aiMedia.map((m) => m.id)),
    ],
  );
  const blocked = new Set(marks!.blocked);
  const following = new Set(marks!.following);
  const liked = new Set(marks!.liked);
  const favorited = new Set(marks!.favorited);
  const kept = <T>(items: T[], limit: number, visible: (item: T) => boolean): T[] | null => {
    const shown = items.filter(visible);
    // Short because of blocks, while the query may have more: only a query of their own can tell.
    return shown.length < limit && shown.length < items.length && items.length === limit + SPARE
      ? null
      : shown.slice(0, limit);
  };
  const users = kept(full.users, SEARCH_LIMITS.users, (u) => !blocked.has(u.id));
  const posts = kept(full.posts, SEARCH_LIMITS.posts, (p) => !blocked.has(p.userId));
  const aiMedia = kept(full.aiMedia, SEARCH_LIMITS.aiMedia, (m) => !blocked.has(m.creator.id));
  if (!users || !posts || !aiMedia) return null;
  // Kept with the cached answer and sent to this viewer until it turns: encoded once.
  return markShared({
    users: users.map((u) => (following.has(u.id) ? { ...u, isFollowing: true } : u)),
    posts: posts.map((p) => (liked.has(p.id) ? { ...p, isLiked: true } : p)),
    aiMedia: aiMedia.map((m) => (favorited.has(m.id) ? { ...m, isFavorite: true } : m)),
  });
}

/** The corrected query: tsquery texts for every statement, and what trigrams compare names with. */
interface QueryText {
  q: string[];
  fuzzy: string;
}

async function queryText(em: EntityManager, parsed: ReturnType<typeof parseQuery>): Promise<QueryText> {
  const { terms } = await correctTerms(em, parsed.terms);
  // What trigram similarity compares names and titles with: the words as typed, joined.
  return { q: [parsed.websearch, prefixQueryText(terms)], fuzzy: terms.join(' ').toLowerCase() };
}

/**
 * Users matching the query, as `viewerId` (null: a visitor) sees them. Text relevance picks at
 * most TEXT_CANDIDATES users (a common word is trigram-similar to hundreds of names); only those
 * pay for the follower boost and the headline.
 */
async function searchUsers(
  em: EntityManager,
  { q, fuzzy }: QueryText,
  viewerId: string | null,
  limit: number,
): Promise<SearchUserDto[]> {
  const rows = await em.execute<UserRow[]>(
    `with candidates as (
         select u.id, ts_rank_cd(u.search_vector, ${TSQUERY}) + similarity(lower(u.username), ?) as relevance
           from users u
          where u.deleted_at is null and ${shownMemberSql('u')} and (u.search_vector @@ ${TSQUERY}
             ${fuzzy ? 'or lower(u.username) % ? or lower(cubes_unaccent(u.display_name)) % ?' : ''})
            and ${notBlockedBetween('?::uuid', 'u.id')}
          order by relevance desc, u.username
          limit ${TEXT_CANDIDATES}
       )
       select ${USER_COLUMNS},
              ts_headline('cubes_search', u.display_name || ' ' || u.username, ${TSQUERY}, '${HEADLINE_OPTIONS}') as headline
         from candidates c
         join users u on u.id = c.id
        order by c.relevance * (1 + ln(1 + (select count(*) from follows f where f.followee_id = u.id))) desc,
                 u.username
        limit ?`,
    [
      ...q,
      fuzzy,
      ...q,
      ...(fuzzy ? [fuzzy, fuzzy] : []),
      ...notBlockedParams(viewerId),
      viewerId,
      viewerId,
      ...q,
      limit,
    ],
  );
  return rows.map(toSearchUser);
}

/**
 * The most relevant media by text (at most TEXT_CANDIDATES), boosted by favourites, then their
 * creators: joining users before the limit would hash all of them.
 */
async function searchMedia(
  em: EntityManager,
  { q, fuzzy }: QueryText,
  viewerId: string | null,
  limit: number,
): Promise<SearchResult['aiMedia']> {
  const rows = await em.execute<(MediaRow & { headline: string | null })[]>(
    `with candidates as (
         select m.id, m.creator_id, m.created_at, m.favorites_count,
                ts_rank_cd(m.search_vector, ${TSQUERY}) + similarity(lower(cubes_unaccent(m.title)), ?) as relevance
           from ai_media m
          where (m.search_vector @@ ${TSQUERY}
             ${fuzzy ? 'or lower(cubes_unaccent(m.title)) % ?' : ''})
            and ${notBlockedBetween('?::uuid', 'm.creator_id')}
          order by relevance desc, m.created_at desc, m.id desc
          limit ${TEXT_CANDIDATES}
       ),
       top as (
         select id, relevance * (1 + ln(1 + favorites_count)) as score from candidates
          where ${shownMemberById('creator_id')}
          order by score desc, created_at desc, id desc
          limit ?
       )
       ${selectMedia(`ts_headline('cubes_search', m.title, ${TSQUERY}, '${HEADLINE_OPTIONS}') as headline,`)}
         join top on top.id = m.id
        order by top.score desc, m.created_at desc, m.id desc`,
    [
      ...q,
      fuzzy,
      ...q,
      ...(fuzzy ? [fuzzy] : []),
      ...notBlockedParams(viewerId),
      limit,
      ...q,
      viewerId,
      viewerId,
    ],
  );
  return rows.map((row) => ({ ...toGalleryItem(row), highlights: highlightsOf(row.headline) }));
}

type SearchPostDto = SearchResult['posts'][number];

async function searchPostDtos(
  em: EntityManager,
  text: QueryText,
  viewerId: string | null,
  now: Date,
  limit: number,
): Promise<SearchPostDto[]> {
  return toSearchPosts(await searchPosts(em, text.q, viewerId, now, limit)).posts;
}

/** Posts in rank order, and where each stands (kept by a cached answer, to merge new posts in). */
interface RankedPosts {
  posts: SearchPostDto[];
  ranks: PostRank[];
}
interface PostRank {
  score: number;
  createdAt: string;
  id: string;
}

function toSearchPosts(rows: ScoredPostRow[]): RankedPosts {
  return {
    posts: rows.map(({ score: _, headline, ...row }) => ({
      ...toPostDto(row),
      highlights: highlightsOf(headline),
    })),
    ranks: rows.map((row) => ({ score: row.score, createdAt: row.created_at, id: row.id })),
  };
}

/** `a` before `b` in the order of the posts statement: score, then newest, then id. */
function ranksBefore(a: PostRank, b: PostRank): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The first `limit` of both lists in rank order, each post once (`newer`'s copy of a post wins). */
function mergeRanked(older: RankedPosts, newer: RankedPosts, limit: number): RankedPosts {
  const fresh = new Set(newer.posts.map((p) => p.id));
  const all = [
    ...newer.posts.map((post, i) => ({ post, rank: newer.ranks[i]! })),
    ...older.posts.map((post, i) => ({ post, rank: older.ranks[i]! })).filter((e) => !fresh.has(e.post.id)),
  ]
    .sort((a, b) => ranksBefore(a.rank, b.rank))
    .slice(0, limit);
  return { posts: all.map((e) => e.post), ranks: all.map((e) => e.rank) };
}

/** The search itself, as `viewerId` (null: a visitor) sees it, with `limits` results of each kind. */
async function runSearch(
  ctx: Context,
  em: EntityManager,
  parsed: ReturnType<typeof parseQuery>,
  viewerId: string | null,
  limits: { users: number; posts: number; aiMedia: number },
): Promise<SearchResult> {
  const text = await queryText(em, parsed);
  // The tsquery is written out in each statement (not a CTE) so the planner sees its words and
  // picks, per statement, between the GIN index and a walk of the newest rows.
  const [users, posts, aiMedia] = await Promise.all([
    searchUsers(em, text, viewerId, limits.users),
    searchPostDtos(em, text, viewerId, ctx.now(), limits.posts),
    searchMedia(em, text, viewerId, limits.aiMedia),
  ]);
  return { users, posts, aiMedia };
}

/**
 * What to look at before typing: users to follow (never the viewer or whom they follow, most
 * followed first), posts trending by likes and comments of the last 48 hours, and the most
 * favourited media; none by a member blocked either way or suspended.
 */
export async function suggestions(ctx: Context): Promise<SearchResult> {
  const em = ctx.em;
  const viewerId = ctx.session?.user.id ?? null;
  const since = new Date(ctx.now().getTime() - 48 * 60 * 60 * 1000);
  const [users, posts, media] = await Promise.all([
    em.execute<UserRow[]>(
      `select ${USER_COLUMNS}, null as headline
         from users u
        where u.deleted_at is null and ${shownMemberSql('u')} and (?::uuid is null or (u.id <> ?::uuid and not exists (
                select 1 from follows f where f.follower_id = ?::uuid and f.followee_id = u.id)))
          and ${feedVisibleAuthor('u.id')}
        order by followers_count desc, u.created_at desc, u.id
        limit ?`,
      [viewerId, viewerId, viewerId, viewerId, viewerId, ...feedVisibleParams(viewerId), SEARCH_LIMITS.users],
    ),
    em.execute<PostRow[]>(
      `with activity as (
         select post_id from likes where created_at >= ?
         union all
         select post_id from comments where created_at >= ? and removed_at is null
       ),
       trending as (
         select post_id, count(*) as score from activity group by post_id
         order by score desc, post_id limit ?
       )
       select ${POST_COLUMNS}
         from trending t
         join posts p on p.id = t.post_id and p.removed_at is null
         join users u on u.id = p.author_id
        where ${feedVisibleAuthor('p.author_id')} and ${shownMemberSql('u')}
        order by t.score desc, p.created_at desc, p.id desc`,
      [since, since, SEARCH_LIMITS.posts, viewerId, viewerId, ...feedVisibleParams(viewerId)],
    ),
    em.execute<MediaRow[]>(
      `${selectMedia()}
        where ${shownMemberSql('u')} and ${notBlockedBetween('?::uuid', 'm.creator_id')}
        order by m.favorites_count desc, m.created_at desc, m.id desc
        limit ?`,
      [viewerId, viewerId, ...notBlockedParams(viewerId), SEARCH_LIMITS.aiMedia],
    ),
  ]);
  return {
    users: users.map(toSearchUser),
    posts: posts.map((row) => ({ ...toPostDto(row), highlights: [] })),
    aiMedia: media.map((row) => ({ ...toGalleryItem(row), highlights: [] })),
  };
}
