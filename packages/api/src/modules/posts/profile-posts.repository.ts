/**
 * A profile's Posts tab: the member's posts and their reposts of others' posts, newest first by
 * the time each came (a repost's time places it), each post once (a member who reposted their own
 * post shows it at the repost). The first page opens with their pinned posts, newest pin first,
 * which the rest of the list then leaves out. Pages by keyset on (entry time, post id), as the
 * feed does: one statement, served by the posts' author index and the reposts' user index.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows } from '../../prepared.js';
import { empty, iso, type Sql, sql, uuid } from '../../sql.js';
import { shownMember, shownMemberOf } from '../moderation/suspension.sql.js';
import type { PollDto } from '../polls/poll.schema.js';
import { toPollDto } from '../polls/poll.serializer.js';
import { column, notBlocked } from '../safety/safety.sql.js';
import type { ViewerMarks } from './feed.cache.js';
import { emptyMarks, type PostCursor, postKeyset, postRowColumns } from './post.repository.js';
import type { PostDto, PostPage } from './post.schema.js';
import { type PostRow, toPostDto } from './post.serializer.js';

/** At most this many posts pinned to a profile at once. */
export const PINNED_POSTS_MAX = 3;

const OWN_KEY_COLUMNS = { createdAt: 'a.created_at', id: 'a.id' };
const REPOST_KEY_COLUMNS = { createdAt: 'r.created_at', id: 'r.post_id' };
const ENTRY_KEY_COLUMNS = { createdAt: 'e.sort_at', id: 'e.post_id' };

type EntryRow = PostRow & {
  sort_at: string;
  reposted: boolean;
  pinned_first: boolean;
  reposter_username: string;
  reposter_display_name: string;
  reposter_avatar_url: string | null;
  /** a block stands between the viewer and the post's author or the profile's member */
  hidden: boolean;
  /** a block stands between the viewer and the author of the post it quotes */
  quote_hidden: boolean;
};

export interface ProfilePostsQuery {
  authorId: string;
  /** whose likes, reposts and bookmarks the rows mark; null: none (the page as a visitor sees it) */
  viewerId: string | null;
  cursor: PostCursor | null;
  limit: number;
}

/**
 * The rows of a Posts page of `authorId`'s, as `viewerId` sees them: no removed post, no post by
 * a suspended member; posts by members blocked either way with the viewer are read, marked
 * `hidden` (the caller leaves them out; a kept page is shared and each viewer's copy leaves out
 * their own).
 */
async function profileRows(em: EntityManager, query: ProfilePostsQuery): Promise<EntryRow[]> {
  const { authorId, viewerId, cursor, limit } = query;
  const member = uuid(authorId);
  const entries = sql`
      (select a.id as post_id, a.created_at as sort_at, false as reposted, false as pinned_first from posts a
        where a.author_id = ${member} and a.removed_at is null and a.pinned_at is null
          ${cursor ? sql`and ${postKeyset.continuing(cursor, OWN_KEY_COLUMNS)}` : empty}
          and not exists (select 1 from reposts s where s.user_id = ${member} and s.post_id = a.id)
        order by ${postKeyset.ordering(OWN_KEY_COLUMNS)}
        limit ${limit + 1})
      union all
      (select r.post_id, r.created_at, true, false from reposts r join posts q on q.id = r.post_id
        where r.user_id = ${member} and q.removed_at is null and q.pinned_at is null
          ${cursor ? sql`and ${postKeyset.continuing(cursor, REPOST_KEY_COLUMNS)}` : empty}
          and ${shownMemberOf(column('q.author_id'))}
        order by ${postKeyset.ordering(REPOST_KEY_COLUMNS)}
        limit ${limit + 1})`;
  const pinned: Sql = cursor
    ? empty
    : sql`union all
      (select a.id, a.pinned_at, false, true from posts a
        where a.author_id = ${member} and a.pinned_at is not null and a.removed_at is null
        order by a.pinned_at desc
        limit ${PINNED_POSTS_MAX})`;
  return preparedRows<EntryRow>(
    em,
    // The quote as a visitor sees it (a kept first page is shared), and whether the viewer's is hidden.
    sql`select ${postRowColumns(viewerId, null)}, ${iso('e.sort_at')} as sort_at, e.reposted, e.pinned_first,
               coalesce((select not (${notBlocked(viewerId, column('qp.author_id'))}) from posts qp
                          where qp.id = p.quote_of), false) as quote_hidden,
               x.username as reposter_username, x.display_name as reposter_display_name,
               x.avatar_url as reposter_avatar_url,
               not (${notBlocked(viewerId, column('p.author_id'))} and ${notBlocked(viewerId, member)}) as hidden
          from (${entries} ${pinned}) e
          join posts p on p.id = e.post_id
          join users u on u.id = p.author_id
          join users x on x.id = ${member}
         where ${shownMember('u')}
         order by e.pinned_first desc, ${postKeyset.ordering(ENTRY_KEY_COLUMNS)}`,
  );
}

/** A row as the list shows it: a repost says who reposted it (the profile's member). */
function toEntry(row: EntryRow, authorId: string): PostDto {
  const post = toPostDto(row);
  if (!row.reposted) return post;
  const repostedBy = {
    id: authorId,
    username: row.reposter_username,
    displayName: row.reposter_display_name,
    avatarUrl: row.reposter_avatar_url,
  };
  return { ...post, repostedBy };
}

/** The page of `limit` entries (after the pinned posts on the first) and the rows it came from. */
function pageOf(rows: EntryRow[], query: ProfilePostsQuery): { page: PostPage; shown: EntryRow[] } {
  const pinned = rows.filter((r) => r.pinned_first);
  const rest = rows.filter((r) => !r.pinned_first);
  const shown = [...pinned, ...rest.slice(0, query.limit)];
  const last = rest.length > query.limit ? rest[query.limit - 1] : undefined;
  return {
    page: {
      items: shown.map((row) => toEntry(row, query.authorId)),
      nextCursor: last ? postKeyset.encode({ createdAt: last.sort_at, id: last.id }) : null,
    },
    shown,
  };
}

/** A Posts page of `authorId`'s as `viewerId` sees it (posts hidden from them by a block left out). */
export async function findProfilePosts(em: EntityManager, query: ProfilePostsQuery): Promise<PostPage> {
  const { page, shown } = pageOf(await profileRows(em, query), query);
  const hidden = new Set(shown.filter((r) => r.hidden).map((r) => r.id));
  const quoteHidden = new Set(shown.filter((r) => r.quote_hidden).map((r) => r.id));
  if (hidden.size === 0 && quoteHidden.size === 0) return page;
  const items = page.items
    .filter((p) => !hidden.has(p.id))
    .map((p) => (quoteHidden.has(p.id) ? { ...p, quote: null } : p));
  return { ...page, items };
}

/**
 * The first Posts page of `authorId`'s as a visitor sees it (what the profile's kept page holds)
 * and `viewerId`'s marks on it, in one statement: which posts they like, reposted and bookmarked,
 * and the authors a block stands between them and (their copy leaves those out).
 */
export async function findProfilePostsWithMarks(
  em: EntityManager,
  query: { authorId: string; viewerId: string; limit: number },
): Promise<{ page: PostPage; marks: ViewerMarks }> {
  const rows = await profileRows(em, { ...query, cursor: null });
  const marks = { ...emptyMarks(), polls: new Map<string, PollDto>() };
  for (const row of rows) {
    if (row.is_liked) marks.liked.add(row.id);
    if (row.is_reposted) marks.reposted.add(row.id);
    if (row.is_bookmarked) marks.bookmarked.add(row.id);
    if (row.hidden) marks.hidden.add(row.author_id);
    if (row.quote_hidden && row.quote) marks.hidden.add(row.quote.author_id);
    // Polls whose results the viewer sees though a visitor would not: theirs, or voted in.
    if (row.poll && (row.poll.isAuthor || row.poll.ownChoices !== null)) {
      const poll = toPollDto(row.poll);
      if (poll) marks.polls.set(row.id, poll);
    }
  }
  const asVisitor = rows.map((row) => ({
    ...row,
    is_liked: false,
    is_reposted: false,
    is_bookmarked: false,
    poll: row.poll ? { ...row.poll, isAuthor: false, ownChoices: null } : row.poll,
  }));
  return { page: pageOf(asVisitor, { ...query, cursor: null }).page, marks };
}
