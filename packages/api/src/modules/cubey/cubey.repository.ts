/**
 * Cubey's SQL: a member's chat sessions and their messages, and the writes an answer makes as it
 * grows (batches of text, heartbeats, its end), plus the sweep that ends answers whose instance
 * went away. Times come back as ISO text with microseconds (sql.ts's `iso`): a session's
 * `updated_at` is the id a live client resumes from.
 */
import type { IChatMessage, IChatSession, Row } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { empty, iso, raw, rows, sql } from '../../sql.js';
import type { FinalStatus } from './cubey.runtime.js';

/** A session as the list shows it; times as ISO text. */
export type SessionRow = Pick<Row<IChatSession>, 'id' | 'title'> & { created_at: string; updated_at: string };

/** A message as a session shows it; its time as ISO text. */
export type MessageRow = Pick<Row<IChatMessage>, 'id' | 'role' | 'content' | 'status'> & {
  error: string | null;
  created_at: string;
};

/** A session's change as `onSessions` sends it: its title, when it changed, its running answer. */
export interface SessionEventRow {
  id: string;
  title: string;
  updated_at: string;
  streaming_id: string | null;
}

/** `userId`'s sessions, most recently active first, at most `limit`. */
export function findSessions(em: EntityManager, userId: string, limit: number): Promise<SessionRow[]> {
  return rows<SessionRow>(
    em,
    sql`select id, title, ${iso('created_at')} as created_at, ${iso('updated_at')} as updated_at
       from chat_sessions where owner_id = ${userId}
      order by updated_at desc, id desc limit ${limit}`,
  );
}

/**
 * Whether `sessionId` is `userId`'s. With `lock`, its row stays locked to the end of the
 * transaction, so two sends at once in one session take turns.
 */
export async function isOwnSession(
  em: EntityManager,
  userId: string,
  sessionId: string,
  lock = false,
): Promise<boolean> {
  const found = await rows<{ id: string }>(
    em,
    sql`select id from chat_sessions where id = ${sessionId} and owner_id = ${userId}${lock ? raw(' for update') : empty}`,
  );
  return found.length > 0;
}

const MESSAGE_COLUMNS = sql`m.id, m.role, m.content, m.status, m.error, ${iso('m.created_at')} as created_at`;

/** A session's messages, oldest first. */
export function findSessionMessages(em: EntityManager, sessionId: string): Promise<MessageRow[]> {
  return rows<MessageRow>(
    em,
    sql`select ${MESSAGE_COLUMNS} from chat_messages m where m.session_id = ${sessionId} order by m.created_at, m.id`,
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
      where m.id = ${messageId} and s.owner_id = ${userId}`,
  );
  return found[0];
}

export async function insertSession(
  em: EntityManager,
  session: { id: string; ownerId: string; title: string; at: Date },
): Promise<void> {
  await rows(
    em,
    sql`insert into chat_sessions (id, owner_id, title, created_at, updated_at) values (${session.id}, ${session.ownerId}, ${session.title}, ${session.at}, ${session.at})`,
  );
}

export async function renameSession(em: EntityManager, sessionId: string, title: string): Promise<void> {
  await rows(em, sql`update chat_sessions set title = ${title} where id = ${sessionId}`);
}

/** A finished message of the member's (`role` user), or the start of an answer (empty, streaming). */
export async function insertMessage(
  em: EntityManager,
  message: { id: string; sessionId: string; at: Date } & (
    | { role: 'user'; content: string }
    | { role: 'assistant' }
  ),
): Promise<void> {
  await rows(
    em,
    message.role === 'user'
      ? sql`insert into chat_messages (id, session_id, role, content, status, created_at) values (${message.id}, ${message.sessionId}, 'user', ${message.content}, 'done', ${message.at})`
      : sql`insert into chat_messages (id, session_id, role, content, status, created_at) values (${message.id}, ${message.sessionId}, 'assistant', '', 'streaming', ${message.at})`,
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
 * Marks failed, with `error`, the answers still streaming with no heartbeat for `staleMs`; each
 * with its session's owner. The update takes each row once, so every instance may sweep at once.
 */
export function failStaleAnswers(
  em: EntityManager,
  error: string,
  staleMs: number,
): Promise<{ id: string; session_id: string; owner_id: string; content: string }[]> {
  return rows<{ id: string; session_id: string; owner_id: string; content: string }>(
    em,
    sql`with stale as (
       update chat_messages set status = 'failed', error = ${error}, updated_at = now()
        where status = 'streaming' and updated_at < now() - make_interval(secs => ${staleMs / 1000})
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
      ? empty
      : 'since' in where
        ? sql`and s.updated_at >= ${where.since}::timestamptz`
        : sql`and s.id = ${where.sessionId}`;
  return rows<SessionEventRow>(
    em,
    sql`select s.id, s.title, ${iso('s.updated_at')} as updated_at,
            (select m.id from chat_messages m
              where m.session_id = s.id and m.status = 'streaming' limit 1) as streaming_id
       from chat_sessions s
      where s.owner_id = ${userId} ${condition}
      order by s.updated_at ${where === 'latest' ? raw('desc limit 1') : raw(`asc limit ${limit}`)}`,
  );
}
