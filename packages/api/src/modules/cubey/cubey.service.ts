import type { ChatMessageStatus } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthedContext, Context } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { badGateway, isUuid, notFound } from '../../errors.js';
import { MESSAGE_NOT_FOUND, SESSION_NOT_FOUND } from './cubey.answer.js';
import {
  findOwnMessage,
  findSessionEvents,
  findSessionMessages,
  findSessions,
  isOwnSession,
  stopStreamingAnswer,
} from './cubey.repository.js';
import { cubeyRuntimeOf, type FinalState, touchSession } from './cubey.runtime.js';
import type {
  ChatMessage,
  ChatSession,
  CubeyChatInput,
  CubeyChatResult,
  CubeyLookup,
  CubeySetup,
  CubeyStopResult,
} from './cubey.schema.js';
import { sendMessage } from './cubey.send.js';
import { lookupsOf, toMessage, toSession } from './cubey.serializer.js';
import { findVersionGroups } from './cubey-chats.repository.js';

export const SESSION_LIST_LIMIT = 100;
/** How long Stop waits for the instance running an answer before it ends the answer itself. */
export const STOP_GRACE_MS = 3_000;

/**
 * What this server has set up for the Cubes page: the provider it runs Cubey on (a model when
 * CUBEY_BASE_URL is configured, else the offline assistant). Media generation: Cubes has no
 * image, music or video generation service to connect, so no server has one.
 */
export function setupOf(ctx: Context): CubeySetup {
  return {
    assistant: cubeyRuntimeOf(ctx).provider.kind === 'openai' ? 'model' : 'offline',
    mediaGeneration: false,
  };
}

/** The caller's sessions, most recently active first. */
export async function listSessions(ctx: AuthedContext): Promise<ChatSession[]> {
  return (await findSessions(ctx.em, ctx.session.user.id, SESSION_LIST_LIMIT)).map(toSession);
}

async function assertOwnSession(em: EntityManager, userId: string, sessionId: string) {
  if (!isUuid(sessionId) || !(await isOwnSession(em, userId, sessionId))) {
    throw notFound(SESSION_NOT_FOUND);
  }
}

/**
 * A session's messages as shown, oldest first; a streaming answer holds the part saved so far,
 * and an edited question the ids of its versions.
 */
export async function listMessages(ctx: AuthedContext, sessionId: string): Promise<ChatMessage[]> {
  await assertOwnSession(ctx.em, ctx.session.user.id, sessionId);
  const messages = (await findSessionMessages(ctx.em, sessionId)).map(toMessage);
  const groups = await findVersionGroups(ctx.em, sessionId);
  if (groups.size === 0) return messages;
  const versionsOf = new Map([...groups.values()].flatMap((ids) => ids.map((id) => [id, ids] as const)));
  return messages.map((m) => {
    const versions = versionsOf.get(m.id);
    return versions ? { ...m, versions } : m;
  });
}

/** An assistant message of the caller's, with the session it is in; 404 for anything else. */
async function ownMessage(em: EntityManager, userId: string, messageId: string) {
  const row = isUuid(messageId) ? await findOwnMessage(em, userId, messageId) : undefined;
  if (!row) throw notFound(MESSAGE_NOT_FOUND);
  return row;
}

/** Waits for an answer this process runs; one running elsewhere is awaited through the database. */
async function waitForAnswer(ctx: AuthedContext, messageId: string): Promise<FinalState> {
  const job = cubeyRuntimeOf(ctx).running.get(messageId);
  if (job) return job.done;
  const row = await ownMessage(ctx.fork(), ctx.session.user.id, messageId);
  return {
    status: row.status === 'streaming' ? 'failed' : row.status,
    content: row.content,
    error: row.error,
  };
}

/** The REST chat: sends, then answers once the whole reply is there; 502 when the provider failed. */
export async function chat(ctx: AuthedContext, input: CubeyChatInput): Promise<CubeyChatResult> {
  const started = await sendMessage(ctx, input);
  const final = await waitForAnswer(ctx, started.reply.id);
  if (final.status === 'failed') throw badGateway(final.error ?? ERROR_REASONS.AI_PROVIDER_FAILED);
  return {
    sessionId: started.sessionId,
    reply: { id: started.reply.id, role: 'assistant' as const, content: final.content },
  };
}

/**
 * Stops an answer from any tab or instance: the partial answer is kept, marked stopped. The
 * instance running it hears the bus; if none does within STOP_GRACE_MS (it went away), the
 * answer is ended here.
 */
export async function stopAnswer(ctx: AuthedContext, messageId: string): Promise<CubeyStopResult> {
  const userId = ctx.session.user.id;
  const row = await ownMessage(ctx.em, userId, messageId);
  if (row.status !== 'streaming') return { stopped: false };
  const runtime = cubeyRuntimeOf(ctx);
  const local = runtime.running.get(messageId);
  if (local) {
    local.controller.abort();
    const final = await local.done;
    return { stopped: final.status === 'stopped' };
  }
  await ctx.bus.publish('cubeyStop', { messageId });
  const deadline = Date.now() + STOP_GRACE_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const current = await ownMessage(ctx.fork(), userId, messageId);
    if (current.status !== 'streaming') return { stopped: current.status === 'stopped' };
  }
  const em = ctx.fork();
  const content = await stopStreamingAnswer(em, messageId);
  if (content !== undefined) {
    await ctx.bus.publish('cubey', {
      userId,
      messageId,
      from: content.length,
      text: '',
      status: 'stopped',
    });
    await touchSession(em, ctx.bus, userId, row.session_id);
  }
  return { stopped: true };
}

/**
 * One step of an answer as a subscription sends it: `delta` continues the text at `offset`;
 * `lookups`, when present, is every look-up the answer has made so far (it replaces the list).
 */
export interface AnswerEvent {
  messageId: string;
  offset: number;
  delta: string;
  status: ChatMessageStatus;
  error: string | null;
  lookups?: CubeyLookup[];
}

/** `<length>` while streaming, `<length>.<status>` at the end. */
function answerEventId(length: number, status: ChatMessageStatus): string {
  return status === 'streaming' ? String(length) : `${length}.${status}`;
}

function parseAnswerEventId(id: string | null | undefined): { length: number; final: boolean } | null {
  const match = id ? /^(\d{1,9})(?:\.(done|stopped|failed))?$/.exec(id) : null;
  return match ? { length: Number(match[1]), final: match[2] !== undefined } : null;
}

/**
 * An answer, live: what the client lacks of the saved text (after `lastEventId`, the length it
 * has), then each new piece as the bus brings it, ending with the final status. Subscribes to the
 * bus before reading the database; an event whose text starts after what was sent (a batch was
 * saved in between) sends the rest from the database first. Every character arrives exactly once.
 */
export async function* liveAnswer(
  ctx: AuthedContext,
  messageId: string,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ id: string; event: AnswerEvent }> {
  const userId = ctx.session.user.id;
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const events = ctx.bus.subscribe('cubey', { signal: controller.signal, key: userId });
    const row = await ownMessage(ctx.fork(), userId, messageId);
    const known = parseAnswerEventId(lastEventId);
    if (known?.final) return;
    // While the answer streams, the client may hold more than is saved yet (pieces that came on
    // the bus since the last batch); every bus event carries all the unsaved text, so the client's
    // own length is where to go on from. A finished answer is all saved: clamp to it.
    let sent =
      row.status === 'streaming' ? (known?.length ?? 0) : Math.min(known?.length ?? 0, row.content.length);
    // `content` is the text from character `from` on; what the client has (`sent`) is skipped.
    const step = (
      content: string,
      from: number,
      status: ChatMessageStatus,
      error: string | null,
      lookups?: CubeyLookup[],
    ) => {
      const end = from + content.length;
      const delta = end > sent ? content.slice(Math.max(0, sent - from)) : '';
      const event: AnswerEvent = { messageId, offset: sent, delta, status, error };
      if (lookups) {
        event.lookups = lookups;
        lookupsSent = lookups.length;
      }
      sent = Math.max(sent, end);
      return { id: answerEventId(sent, status), event };
    };
    // Look-ups go with the first step, and again whenever the bus says the row holds more.
    let lookupsSent = 0;
    const saved = lookupsOf(row);
    if (row.content.length > sent || row.status !== 'streaming' || !known || saved.length > 0) {
      yield step(row.content, 0, row.status, row.error, saved.length > 0 ? saved : undefined);
    }
    if (row.status !== 'streaming') return;
    for await (const e of events) {
      if (e.messageId !== messageId) continue;
      if (e.lookups !== undefined && e.lookups > lookupsSent) {
        const fresh = await ownMessage(ctx.fork(), userId, messageId);
        const lookups = lookupsOf(fresh);
        if (lookups.length > lookupsSent) yield step(fresh.content, 0, 'streaming', null, lookups);
      }
      if (e.from > sent) {
        // A batch was saved between our read and this event: the saved part comes from the database.
        const fresh = await ownMessage(ctx.fork(), userId, messageId);
        if (fresh.content.length > sent) yield step(fresh.content.slice(0, e.from), 0, 'streaming', null);
      }
      if (e.status) {
        yield step(e.text, e.from, e.status, e.error ?? null);
        return;
      }
      if (e.from + e.text.length > sent && e.from <= sent) yield step(e.text, e.from, 'streaming', null);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

/** One change to a member's chats as `onSessions` sends it: reload this session and its messages. */
export interface SessionEvent {
  sessionId: string;
  title: string;
  /** Deleted (Undo may bring it back): a tab showing it moves away. */
  deleted: boolean;
  /** The answer being written in it now, if any: a tab can follow it (`onAnswer`) and stop it. */
  streamingId: string | null;
}

const SESSION_EVENT_ID = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

async function sessionEvents(
  em: EntityManager,
  userId: string,
  where: { since: string } | { sessionId: string } | 'latest',
): Promise<{ id: string; event: SessionEvent }[]> {
  const rows = await findSessionEvents(em, userId, where, SESSION_LIST_LIMIT);
  return rows.map((r) => ({
    id: r.updated_at,
    event: { sessionId: r.id, title: r.title, streamingId: r.streaming_id, deleted: r.deleted },
  }));
}

/**
 * A member's chats, live: one event each time a session is created or an answer starts or ends
 * in it, from any tab or instance. The id is the session's `updated_at`; a client that comes back
 * with `lastEventId` gets every session changed since (one may come twice: events are idempotent
 * reloads). A first connection gets the most recent session, so it has an id to resume from.
 */
export async function* liveSessions(
  ctx: AuthedContext,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ id: string; event: SessionEvent }> {
  const userId = ctx.session.user.id;
  const changes = ctx.bus.subscribe('cubeySessions', { signal, key: userId });
  const since =
    lastEventId && SESSION_EVENT_ID.test(lastEventId) && !Number.isNaN(Date.parse(lastEventId))
      ? lastEventId
      : null;
  yield* await sessionEvents(ctx.fork(), userId, since ? { since } : 'latest');
  // Each change is read again from the database (the state now, not the event's): an event the
  // catch-up already covered only repeats a reload.
  for await (const change of changes) {
    yield* await sessionEvents(ctx.fork(), userId, { sessionId: change.sessionId });
  }
}
