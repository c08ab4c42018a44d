/**
 * Managing Cubey chats: rename, delete (kept DELETED_KEEP_MS for Undo, then purged) and restore,
 * search by words in titles and messages, edit the last question and resend it (the earlier
 * version stays, to switch back to), and switch versions. Only the owner reaches a chat: any other
 * id is 404. Every change reaches the owner's tabs on every instance (cubey.onSessions). SQL in
 * cubey-chats.repository.ts.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthedContext } from '../../context.types.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { conflict, isUuid, notFound } from '../../errors.js';
import { parseQuery } from '../search/search.query.js';
import { HEADLINE_OPTIONS } from '../search/search.ranking.js';
import { MESSAGE_NOT_FOUND, SESSION_NOT_FOUND } from './cubey.answer.js';
import { findSessionMessages, lockOwnSession } from './cubey.repository.js';
import { touchSession } from './cubey.runtime.js';
import type { ChatMessage, ChatSearchHit, ChatSession } from './cubey.schema.js';
import { listMessages } from './cubey.service.js';
import {
  findOwnQuestion,
  findOwnSession,
  findVersionGroups,
  purgeDeletedSessions,
  renameOwnSession,
  searchOwnSessions,
  setSessionDeleted,
  showVersion,
} from './cubey-chats.repository.js';

/** How long a deleted chat can be restored before the purge takes it. */
export const DELETED_KEEP_MS = 60 * 60 * 1000;
const SEARCH_LIMIT = 50;

const iso = (text: string) => new Date(text).toISOString();

async function sessionOf(em: EntityManager, userId: string, sessionId: string): Promise<ChatSession> {
  const row = await findOwnSession(em, userId, sessionId);
  if (!row) throw notFound(SESSION_NOT_FOUND);
  return { id: row.id, title: row.title, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) };
}

/** Renames one of the caller's chats (runs of whitespace become one space). */
export async function renameChat(
  ctx: AuthedContext,
  sessionId: string,
  title: string,
): Promise<{ session: ChatSession }> {
  const userId = ctx.session.user.id;
  const clean = title.replace(/\s+/g, ' ').trim();
  if (!isUuid(sessionId) || !(await renameOwnSession(ctx.em, userId, sessionId, clean))) {
    throw notFound(SESSION_NOT_FOUND);
  }
  await touchSession(ctx.em, ctx.bus, userId, sessionId);
  return { session: await sessionOf(ctx.em, userId, sessionId) };
}

/**
 * Deletes one of the caller's chats: hidden at once everywhere, restorable with `restoreChat`
 * for DELETED_KEEP_MS. An answer running in it is stopped.
 */
export async function deleteChat(ctx: AuthedContext, sessionId: string): Promise<{ deleted: boolean }> {
  const userId = ctx.session.user.id;
  const row = isUuid(sessionId) ? await setSessionDeleted(ctx.em, userId, sessionId, true) : undefined;
  if (!row) throw notFound(SESSION_NOT_FOUND);
  if (row.streaming_id) await ctx.bus.publish('cubeyStop', { messageId: row.streaming_id });
  await touchSession(ctx.em, ctx.bus, userId, sessionId);
  return { deleted: true };
}

/** Undo of a delete: the chat comes back as it was, messages and versions included. */
export async function restoreChat(ctx: AuthedContext, sessionId: string): Promise<{ session: ChatSession }> {
  const userId = ctx.session.user.id;
  const row = isUuid(sessionId) ? await setSessionDeleted(ctx.em, userId, sessionId, false) : undefined;
  if (!row) throw notFound(SESSION_NOT_FOUND);
  await touchSession(ctx.em, ctx.bus, userId, sessionId);
  return { session: await sessionOf(ctx.em, userId, sessionId) };
}

/** Purges the chats deleted more than `keepMs` ago (a scheduled job). */
export function purgeDeletedChats(em: EntityManager, keepMs = DELETED_KEEP_MS): Promise<number> {
  return purgeDeletedSessions(em, keepMs);
}

// ts_headline's marks (search.ranking.ts): the snippet is plain text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the headline marks are control characters
const MARKS = /[\u0001\u0002]/g;

/**
 * The caller's chats whose title or a message holds the words (each prefix-matched, "phrases"
 * and -exclusions as in post search), most recently active first, each with a matching snippet.
 */
export async function searchChats(ctx: AuthedContext, query: string): Promise<ChatSearchHit[]> {
  const parsed = parseQuery(query);
  if (!parsed.hasPositive) return [];
  const found = await searchOwnSessions(
    ctx.em,
    ctx.session.user.id,
    parsed.websearch,
    parsed.terms,
    `MaxFragments=1, MaxWords=18, MinWords=6, ${HEADLINE_OPTIONS.replace(', HighlightAll=true', '')}`,
    SEARCH_LIMIT,
  );
  return found.map((r) => ({
    id: r.id,
    title: r.title,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    snippet: r.snippet ? r.snippet.replace(MARKS, '').replace(/\s+/g, ' ').trim() : null,
  }));
}

/**
 * Shows version `messageId` of an edited question, with its answer, in place of the version
 * shown; only for the session's last question, and not while an answer runs. The messages after.
 */
export async function switchVersion(
  ctx: AuthedContext,
  messageId: string,
): Promise<{ messages: ChatMessage[] }> {
  const userId = ctx.session.user.id;
  const question = isUuid(messageId) ? await findOwnQuestion(ctx.em, userId, messageId) : undefined;
  if (!question) throw notFound(MESSAGE_NOT_FOUND);
  const sessionId = question.session_id;
  await ctx.em.transactional(async (em) => {
    // The session's row lock makes a send meanwhile wait (cubey.service.ts locks it too).
    if (!(await lockOwnSession(em, userId, sessionId))) throw notFound(MESSAGE_NOT_FOUND);
    const shown = await findSessionMessages(em, sessionId);
    if (shown.some((m) => m.status === 'streaming')) {
      throw conflict(ERROR_REASONS.CUBEY_ANSWERING);
    }
    const groups = await findVersionGroups(em, sessionId);
    const versions = groups.get(question.group_id) ?? [];
    const lastQuestion = shown.findLast((m) => m.role === 'user');
    if (!lastQuestion || !versions.includes(lastQuestion.id)) {
      throw conflict(ERROR_REASONS.ONLY_LAST_MESSAGE_VERSIONS);
    }
    if (lastQuestion.id !== messageId) await showVersion(em, sessionId, question.group_id, messageId);
  });
  await touchSession(ctx.em, ctx.bus, userId, sessionId);
  return { messages: await listMessages(ctx, sessionId) };
}
