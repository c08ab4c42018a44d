/**
 * Cubey's SQL: a member's chat sessions and their messages, and the writes an answer makes as it
 * grows (batches of text, heartbeats, its end), plus the sweep that ends answers whose instance
 * went away, and the community data the offline assistant answers from. Times come back as ISO text with microseconds (sql.ts's `iso`): a session's
 * `updated_at` is the id a live client resumes from.
 */
import type { IChatMessage, IChatSession, Row } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { empty, firstRow, iso, join, raw, rows, type Sql, sql } from '../../sql.js';
import { shownMember, shownMemberOf } from '../moderation/suspension.sql.js';
import { column, notBlocked } from '../safety/safety.sql.js';
import { memberAnswersLock } from './cubey.usage.repository.js';

/** A session as the list shows it; times as ISO text. */
/** How an answer ends (cubey.runtime.ts ends it; endAnswer saves it). */
export type FinalStatus = 'done' | 'stopped' | 'failed';

export type SessionRow = Pick<Row<IChatSession>, 'id' | 'title'> & { created_at: string; updated_at: string };

/** A message as a session shows it; its time as ISO text; `lookups` as saved (cubey.tools.ts). */
export type MessageRow = Pick<Row<IChatMessage>, 'id' | 'role' | 'content' | 'status'> & {
  error: string | null;
  created_at: string;
  lookups?: unknown;
};

/** A session's change as `onSessions` sends it: its title, when it changed, its running answer, whether it is deleted. */
export interface SessionEventRow {
  id: string;
  title: string;
  updated_at: string;
  streaming_id: string | null;
  deleted: boolean;
}

/** `userId`'s sessions, most recently active first, at most `limit`. */
export function findSessions(em: EntityManager, userId: string, limit: number): Promise<SessionRow[]> {
  return rows<SessionRow>(
    em,
    sql`select id, title, ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at
       from chat_sessions where owner_id = ${userId} and deleted_at is null
      order by updated_at desc, id desc limit ${limit}`,
  );
}

/** Whether `sessionId` is `userId`'s (to lock it as well: `lockOwnSession`). */
export async function isOwnSession(em: EntityManager, userId: string, sessionId: string): Promise<boolean> {
  const found = await rows<{ id: string }>(
    em,
    sql`select id from chat_sessions where id = ${sessionId} and owner_id = ${userId} and deleted_at is null`,
  );
  return found.length > 0;
}

const MESSAGE_COLUMNS = sql`m.id, m.role, m.content, m.status, m.error, ${iso('m.created_at')} as created_at, m.lookups`;

/** A session's messages as shown (no hidden version), oldest first. */
export function findSessionMessages(em: EntityManager, sessionId: string): Promise<MessageRow[]> {
  return rows<MessageRow>(
    em,
    sql`select ${MESSAGE_COLUMNS} from chat_messages m where m.session_id = ${sessionId} and not m.hidden order by m.created_at, m.id`,
  );
}

/** A message in one of `userId`'s sessions, with its session; undefined for any other. */
export async function findOwnMessage(
  em: EntityManager,
  userId: string,
  messageId: string,
): Promise<(MessageRow & { session_id: string }) | undefined> {
  const found = await rows<MessageRow & { session_id: string }>(
    em,
    sql`select ${MESSAGE_COLUMNS}, m.session_id from chat_messages m
       join chat_sessions s on s.id = m.session_id
      where m.id = ${messageId} and s.owner_id = ${userId} and s.deleted_at is null`,
  );
  return found[0];
}

/**
 * A new session; its `updated_at` as ISO text. With `lockMember`, the same statement takes the
 * owner's answers lock (`memberAnswersLock`), held to the end of the transaction.
 */
export async function insertSession(
  em: EntityManager,
  session: { id: string; ownerId: string; title: string; at: Date },
  lockMember = false,
): Promise<string> {
  const row = await firstRow<{ updated_at: string }>(
    em,
    sql`with created as (
          insert into chat_sessions (id, owner_id, title, created_at, updated_at)
          values (${session.id}, ${session.ownerId}, ${session.title}, ${session.at}, ${session.at})
          returning updated_at
        )
        select ${iso('created.updated_at')} as updated_at${lockMember ? sql`, ${memberAnswersLock(session.ownerId)}` : empty} from created`,
  );
  if (!row) throw new Error('insertSession: the insert returned no row');
  return row.updated_at;
}

/**
 * Whether `sessionId` is `userId`'s, and if so its row locked to the end of the transaction (two
 * sends at once in one session take turns), and with `lockMember` the member's answers lock
 * (`memberAnswersLock`) too, in the same statement.
 */
export async function lockOwnSession(
  em: EntityManager,
  userId: string,
  sessionId: string,
  lockMember = false,
): Promise<boolean> {
  const found = await rows<{ id: string }>(
    em,
    sql`select id${lockMember ? sql`, ${memberAnswersLock(userId)}` : empty} from chat_sessions
         where id = ${sessionId} and owner_id = ${userId} and deleted_at is null for update`,
  );
  return found.length > 0;
}

export async function renameSession(em: EntityManager, sessionId: string, title: string): Promise<void> {
  await rows(em, sql`update chat_sessions set title = ${title} where id = ${sessionId}`);
}

/**
 * The member's question (none when an answer is regenerated) and the start of Cubey's answer to
 * it (empty, streaming), in one statement.
 */
export async function insertTurn(
  em: EntityManager,
  turn: {
    sessionId: string;
    question: { id: string; content: string; at: Date; versionOf: string | null } | null;
    answer: { id: string; at: Date; replyTo: string | null };
  },
): Promise<void> {
  const { sessionId, question, answer } = turn;
  const values = [
    ...(question
      ? [
          sql`(${question.id}::uuid, ${sessionId}::uuid, 'user', ${question.content}, 'done', ${question.at}::timestamptz, ${question.versionOf}::uuid, null::uuid)`,
        ]
      : []),
    sql`(${answer.id}::uuid, ${sessionId}::uuid, 'assistant', '', 'streaming', ${answer.at}::timestamptz, null::uuid, ${answer.replyTo}::uuid)`,
  ];
  await rows(
    em,
    sql`insert into chat_messages (id, session_id, role, content, status, created_at, version_of, reply_to)
        values ${join(values, ', ')}`,
  );
}

export async function deleteMessage(em: EntityManager, messageId: string): Promise<void> {
  await rows(em, sql`delete from chat_messages where id = ${messageId}`);
}

/** Adds `text` to a streaming answer; its status after (anything but streaming: it was stopped elsewhere). */
export async function appendAnswer(
  em: EntityManager,
  messageId: string,
  text: string,
): Promise<string | undefined> {
  const found = await rows<{ status: string }>(
    em,
    sql`update chat_messages set content = content || ${text}, updated_at = now() where id = ${messageId} returning status`,
  );
  return found[0]?.status;
}

/** The heartbeat of an answer still being written: proof for the other instances' sweeps. */
export async function touchAnswer(em: EntityManager, messageId: string): Promise<void> {
  await rows(
    em,
    sql`update chat_messages set updated_at = now() where id = ${messageId} and status = 'streaming'`,
  );
}

/**
 * Ends an answer with its last text and `status` (and `error`); a status already set (a stop
 * forced by another instance) is kept, the text is added. The answer as it ends, or undefined.
 */
export async function endAnswer(
  em: EntityManager,
  messageId: string,
  tail: string,
  status: FinalStatus,
  error: string | null,
): Promise<{ status: FinalStatus; error: string | null; content: string } | undefined> {
  const found = await rows<{ status: FinalStatus; error: string | null; content: string }>(
    em,
    sql`update chat_messages
        set content = content || ${tail},
            updated_at = now(),
            reserved_tokens = 0,
            status = case when status = 'streaming' then ${status} else status end,
            error = case when status = 'streaming' then ${error} else error end
      where id = ${messageId}
      returning status, error, content`,
  );
  return found[0];
}

/** Marks a streaming answer stopped; its text, or undefined when it was not streaming. */
export async function stopStreamingAnswer(em: EntityManager, messageId: string): Promise<string | undefined> {
  const found = await rows<{ content: string }>(
    em,
    sql`update chat_messages set status = 'stopped', updated_at = now() where id = ${messageId} and status = 'streaming' returning content`,
  );
  return found[0]?.content;
}

/** Marks a session active at `at` (or now, never going back); its new `updated_at`, or undefined. */
export async function touchSessionRow(
  em: EntityManager,
  sessionId: string,
  at: Date | undefined,
): Promise<string | undefined> {
  const found = await rows<{ updated_at: string }>(
    em,
    sql`update chat_sessions set updated_at = ${at ? sql`${at}` : raw('greatest(updated_at, clock_timestamp())')} where id = ${sessionId}
     returning ${iso('updated_at')} as updated_at`,
  );
  return found[0]?.updated_at;
}

/**
 * Marks failed, with `error`, the answers still streaming with no heartbeat for `staleMs` before
 * `at` (default: the database's now()); each with its session's owner. The update takes each row
 * once, so every instance may sweep at once.
 */
export function failStaleAnswers(
  em: EntityManager,
  error: string,
  staleMs: number,
  at?: Date,
): Promise<{ id: string; session_id: string; owner_id: string; content: string }[]> {
  return rows<{ id: string; session_id: string; owner_id: string; content: string }>(
    em,
    sql`with stale as (
       update chat_messages set status = 'failed', error = ${error}, updated_at = now(), reserved_tokens = 0
        where status = 'streaming'
          and updated_at < ${at ? sql`${at}::timestamptz` : raw('now()')} - make_interval(secs => ${staleMs / 1000})
        returning id, session_id, content
     )
     select stale.id, stale.session_id, s.owner_id, stale.content
       from stale join chat_sessions s on s.id = stale.session_id`,
  );
}

/**
 * `userId`'s sessions as `onSessions` events: those changed `since` (oldest first, at most
 * `limit`), one by id, or the latest.
 */
export function findSessionEvents(
  em: EntityManager,
  userId: string,
  where: { since: string } | { sessionId: string } | 'latest',
  limit: number,
): Promise<SessionEventRow[]> {
  const condition =
    where === 'latest'
      ? sql`and s.deleted_at is null`
      : 'since' in where
        ? sql`and s.updated_at >= ${where.since}::timestamptz`
        : sql`and s.id = ${where.sessionId}`;
  return rows<SessionEventRow>(
    em,
    sql`select s.id, s.title, ${iso('s.updated_at')} as updated_at,
            (select m.id from chat_messages m
              where m.session_id = s.id and m.status = 'streaming' limit 1) as streaming_id,
            s.deleted_at is not null as deleted
       from chat_sessions s
      where s.owner_id = ${userId} ${condition}
      order by s.updated_at ${where === 'latest' ? raw('desc limit 1') : raw(`asc limit ${limit}`)}`,
  );
}

// What the offline assistant (providers/offline.provider.ts) answers from: the community's own
// data, each read as the asker may see it (no suspended member, no block either way).

/** Member `alias` as `askerId` may see them: not suspended, no block between them either way. */
function shownToAsker(alias: string, askerId: string): Sql {
  return sql`${shownMember(alias)} and ${notBlocked(askerId, column(`${alias}.id`))}`;
}

/** `words` as `column ilike '%word%'` conditions joined by `or`, each word's LIKE marks escaped. */
function containsAny(columnName: string, words: readonly string[]): Sql {
  const escaped = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return join(
    words.map((w) => sql`${raw(columnName)} ilike ${escaped(w)}`),
    ' or ',
  );
}

/** The five posts most liked and commented, those of the last 7 days first. */
export function findTrendingPosts(
  em: EntityManager,
  askerId: string,
): Promise<{ username: string; content: string; likes: number; comments: number }[]> {
  return rows(
    em,
    sql`select u.username, p.content, p.likes_count as likes, p.comments_count as comments
       from posts p join users u on u.id = p.author_id
      where p.removed_at is null and ${shownToAsker('u', askerId)}
      order by (p.created_at > now() - interval '7 days') desc,
               p.likes_count + p.comments_count desc, p.created_at desc, p.id
      limit 5`,
  );
}

/** A member by username (any case) with their counts, or undefined. */
export async function findMemberProfile(
  em: EntityManager,
  username: string,
  askerId: string,
): Promise<
  | {
      username: string;
      display_name: string;
      bio: string | null;
      posts: number;
      followers: number;
      following: number;
    }
  | undefined
> {
  return firstRow(
    em,
    sql`select u.username, u.display_name, u.bio,
            (select count(*)::int from posts p where p.author_id = u.id and p.removed_at is null) as posts,
            (select count(*)::int from follows f where f.followee_id = u.id) as followers,
            (select count(*)::int from follows f where f.follower_id = u.id) as following
       from users u where lower(u.username) = lower(${username}) and u.deleted_at is null and ${shownToAsker('u', askerId)}`,
  );
}

/** The five members with the most posts holding any of `words`, each with their best such post. */
export function findPostersAbout(
  em: EntityManager,
  words: readonly string[],
  askerId: string,
): Promise<{ username: string; count: number; sample: string }[]> {
  return rows(
    em,
    sql`select u.username, count(*)::int as count,
            (array_agg(p.content order by p.likes_count desc, p.created_at desc, p.id))[1] as sample
       from posts p join users u on u.id = p.author_id
      where p.removed_at is null and ${shownToAsker('u', askerId)} and (${containsAny('p.content', words)})
      group by u.username
      order by count(*) desc, u.username
      limit 5`,
  );
}

/** The six newest gallery items whose title holds any of `words` (all, with none), as the gallery shows them. */
export function findGalleryTitles(
  em: EntityManager,
  words: readonly string[],
  askerId: string,
): Promise<{ title: string; type: string }[]> {
  const matching = words.length ? sql`and (${containsAny('m.title', words)})` : empty;
  return rows(
    em,
    sql`select m.title, m.type from ai_media m
      where ${shownMemberOf(column('m.creator_id'))} and ${notBlocked(askerId, column('m.creator_id'))} ${matching}
      order by m.created_at desc, m.id limit 6`,
  );
}
