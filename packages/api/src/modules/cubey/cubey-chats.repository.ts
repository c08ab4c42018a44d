/**
 * The SQL of managing Cubey chats: renaming, deleting (kept with `deleted_at` so Undo can restore
 * it, purged later), searching titles and finished messages in PostgreSQL's text search, and the
 * versions of an edited question (`version_of` names the first version; `hidden` marks those not
 * shown, with their answers, found by `reply_to`). Times come back as ISO text (sql.ts's `iso`).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { firstRow, iso, raw, rows, sql, uuids } from '../../sql.js';
import { matchQuery } from '../search/search.sql.js';

/** `userId`'s live session by id, or undefined. */
export function findOwnSession(
  em: EntityManager,
  userId: string,
  sessionId: string,
): Promise<{ id: string; title: string; created_at: string; updated_at: string } | undefined> {
  return firstRow(
    em,
    sql`select id, title, ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at
       from chat_sessions where id = ${sessionId} and owner_id = ${userId} and deleted_at is null`,
  );
}

/** Renames `userId`'s live session; false when there is no such session. */
export async function renameOwnSession(
  em: EntityManager,
  userId: string,
  sessionId: string,
  title: string,
): Promise<boolean> {
  const found = await rows<{ id: string }>(
    em,
    sql`update chat_sessions set title = ${title}
      where id = ${sessionId} and owner_id = ${userId} and deleted_at is null returning id`,
  );
  return found.length > 0;
}

/** Sets a proposed title unless the session's title changed since `expected` (its owner renamed it). */
export async function proposeSessionTitle(
  em: EntityManager,
  sessionId: string,
  expected: string,
  title: string,
): Promise<boolean> {
  const found = await rows<{ id: string }>(
    em,
    sql`update chat_sessions set title = ${title}
      where id = ${sessionId} and title = ${expected} and deleted_at is null returning id`,
  );
  return found.length > 0;
}

/**
 * Marks `userId`'s session deleted (`restore`: live again); the answer still streaming in it, if
 * any, or undefined when there was no such session in that state.
 */
export async function setSessionDeleted(
  em: EntityManager,
  userId: string,
  sessionId: string,
  deleted: boolean,
): Promise<{ streaming_id: string | null } | undefined> {
  return firstRow(
    em,
    sql`update chat_sessions s set deleted_at = ${deleted ? raw('now()') : null}
      where s.id = ${sessionId} and s.owner_id = ${userId}
        and s.deleted_at is ${deleted ? raw('null') : raw('not null')}
      returning (select m.id from chat_messages m
                  where m.session_id = s.id and m.status = 'streaming' limit 1) as streaming_id`,
  );
}

/** Deletes for good the sessions deleted more than `olderThanMs` ago (their messages cascade). */
export async function purgeDeletedSessions(em: EntityManager, olderThanMs: number): Promise<number> {
  const found = await rows<{ id: string }>(
    em,
    sql`delete from chat_sessions
      where deleted_at < now() - make_interval(secs => ${olderThanMs / 1000}) returning id`,
  );
  return found.length;
}

/** A chat found by a search: the session, and a piece of the message that matched, if one did. */
export interface ChatSearchRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  snippet: string | null;
}

/**
 * `userId`'s live sessions whose title or a shown, finished message matches the query
 * (websearch_to_tsquery text, and the terms to prefix-match: search.sql.ts), most recently
 * active first.
 */
export function searchOwnSessions(
  em: EntityManager,
  userId: string,
  websearch: string,
  terms: readonly string[],
  headlineOptions: string,
  limit: number,
): Promise<ChatSearchRow[]> {
  const query = matchQuery(websearch, terms);
  return rows<ChatSearchRow>(
    em,
    sql`with q as (select ${query} as query),
     hits as (
       select m.session_id, min(m.created_at) as first_at
         from chat_messages m join chat_sessions s on s.id = m.session_id, q
        where s.owner_id = ${userId} and s.deleted_at is null and not m.hidden and m.status <> 'streaming'
          and to_tsvector('cubes_search'::regconfig, m.content) @@ q.query
        group by m.session_id
     )
     select s.id, s.title, ${iso('s.created_at')} as created_at, ${iso('s.updated_at')} as updated_at,
            (select ts_headline('cubes_search', left(m.content, 4000), q.query, ${headlineOptions})
               from chat_messages m
              where m.session_id = s.id and not m.hidden and m.status <> 'streaming'
                and to_tsvector('cubes_search'::regconfig, m.content) @@ q.query
              order by m.created_at, m.id limit 1) as snippet
       from chat_sessions s cross join q
      where s.owner_id = ${userId} and s.deleted_at is null
        and (to_tsvector('cubes_search'::regconfig, s.title) @@ q.query
             or s.id in (select session_id from hits))
      order by s.updated_at desc, s.id desc limit ${limit}`,
  );
}

/** A user message of `userId`'s live sessions with what its versions need, or undefined. */
export function findOwnQuestion(
  em: EntityManager,
  userId: string,
  messageId: string,
): Promise<{ id: string; session_id: string; group_id: string } | undefined> {
  return firstRow(
    em,
    sql`select m.id, m.session_id, coalesce(m.version_of, m.id) as group_id
       from chat_messages m join chat_sessions s on s.id = m.session_id
      where m.id = ${messageId} and m.role = 'user' and s.owner_id = ${userId} and s.deleted_at is null`,
  );
}

/** The versions of each edited question of a session: group (first version's id) → ids, oldest first. */
export async function findVersionGroups(
  em: EntityManager,
  sessionId: string,
): Promise<Map<string, string[]>> {
  const found = await rows<{ group_id: string; ids: string[] }>(
    em,
    sql`select coalesce(m.version_of, m.id) as group_id, array_agg(m.id order by m.created_at, m.id) as ids
       from chat_messages m
      where m.session_id = ${sessionId} and m.role = 'user'
        and (m.version_of is not null
             or exists (select 1 from chat_messages v where v.version_of = m.id))
      group by 1`,
  );
  return new Map(found.map((r) => [r.group_id, r.ids]));
}

/**
 * Hides the question `questionId` and its answers `answerIds` (each then names the question it
 * answers, as answers older than versions did not): a new version of it takes its place.
 */
export async function hideQuestion(
  em: EntityManager,
  questionId: string,
  answerIds: string[],
): Promise<void> {
  await rows(
    em,
    sql`update chat_messages set hidden = true,
        reply_to = case when role = 'assistant' then ${questionId}::uuid else reply_to end
      where id = ${questionId} or id = any(${uuids(answerIds)})`,
  );
}

/**
 * Shows version `messageId` of the question group `groupId` (and its answers) and hides the
 * others of the group with theirs.
 */
export async function showVersion(
  em: EntityManager,
  sessionId: string,
  groupId: string,
  messageId: string,
): Promise<void> {
  await rows(
    em,
    sql`with versions as (
       select id from chat_messages where session_id = ${sessionId} and (id = ${groupId} or version_of = ${groupId})
     )
     update chat_messages set hidden = not (id = ${messageId} or coalesce(reply_to = ${messageId}, false))
      where session_id = ${sessionId}
        and (id in (select id from versions) or reply_to in (select id from versions))`,
  );
}
