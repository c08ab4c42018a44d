/**
 * Cubey, the AI assistant: a member's chat sessions and their messages, and the answers the
 * server generates for them (cubey.runtime.ts). A member reaches only their own sessions; any
 * other id is 404. One answer runs at a time per session: a send or regenerate meanwhile is 409.
 * The SQL is in cubey.repository.ts.
 */
import { randomUUID } from 'node:crypto';
import type { ChatMessageStatus } from '@cubes/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, type Context, publishEvent } from '../../context.js';
import { badGateway, conflict, isUuid, notFound } from '../../errors.js';
import type { EventTopics } from '../../events/event-bus.js';
import { askerContext } from './cubey.asker.js';
import { assertFairUse, fairUseLocks } from './cubey.fair-use.js';
import {
  deleteMessage,
  findOwnMessage,
  findSessionEvents,
  findSessionMessages,
  findSessions,
  insertSession,
  insertTurn,
  isOwnSession,
  lockOwnSession,
  type MessageRow,
  type SessionRow,
  stopStreamingAnswer,
} from './cubey.repository.js';
import { cubeyRuntimeOf, type FinalState, startGeneration, touchSession } from './cubey.runtime.js';
import type {
  ChatMessage,
  ChatSession,
  CubeyChatInput,
  CubeyChatResult,
  CubeyLookup,
  CubeySetup,
  CubeyStarted,
  CubeyStopResult,
} from './cubey.schema.js';
import { findOwnQuestion, findVersionGroups, hideQuestion } from './cubey-chats.repository.js';
import { proposeTitle } from './cubey-chats.title.js';
import type { ChatTurn } from './providers/provider.js';
import { titleFromWords } from './providers/provider.js';

export const SESSION_LIST_LIMIT = 100;
/** How long Stop waits for the instance running an answer before it ends the answer itself. */
export const STOP_GRACE_MS = 3_000;
const TITLE_TIMEOUT_MS = 20_000;

const SESSION_NOT_FOUND = 'Chat session not found';
const MESSAGE_NOT_FOUND = 'Message not found';
const ANSWER_RUNNING = 'Cubey is still answering: wait for the answer or stop it';

const iso = (text: string) => new Date(text).toISOString();

const toSession = (r: SessionRow): ChatSession => ({
  id: r.id,
  title: r.title,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const toMessage = (r: MessageRow): ChatMessage => ({
  id: r.id,
  role: r.role,
  content: r.content,
  status: r.status,
  error: r.error,
  createdAt: iso(r.created_at),
  lookups: lookupsOf(r),
});

/** The caller's sessions, most recently active first. */
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

/** What a model is given: the finished turns before `beforeId`, oldest first. */
function historyOf(rows: MessageRow[]): ChatTurn[] {
  return rows
    .filter((r) => r.content.length > 0 && r.status !== 'failed' && r.status !== 'streaming')
    .map((r) => ({ role: r.role, content: r.content }));
}

/** Sends a message (in a new session when none is given) and starts Cubey's answer. */
export async function sendMessage(ctx: AuthedContext, input: CubeyChatInput): Promise<CubeyStarted> {
  return begin(ctx, input.sessionId ?? null, input.message);
}

/** Replaces the session's last answer with a new one to the same question. */
export async function regenerate(ctx: AuthedContext, sessionId: string): Promise<CubeyStarted> {
  return begin(ctx, sessionId, null);
}

/**
 * Starts an answer: to `message` (a new question), to a new version of the session's last
 * question (`edit`: the question's id; the earlier version and its answer are kept, hidden), or
 * again to the last question (`message` null: regenerate).
 */
export async function begin(
  ctx: AuthedContext,
  sessionId: string | null,
  message: string | null,
  edit?: { messageId: string },
): Promise<CubeyStarted> {
  const user = ctx.session.user;
  const runtime = cubeyRuntimeOf(ctx);
  const now = ctx.now();
  const isNew = sessionId === null;
  const id = sessionId ?? randomUUID();
  const replyId = randomUUID();
  let history: ChatTurn[] = [];
  let userMessage: ChatMessage | null = null;
  let touched: EventTopics['cubeySessions'] | null = null;
  const initialTitle = titleFromWords(message ?? '');
  await ctx.em.transactional(async (em) => {
    // The statement that creates or locks the session also takes the member's answers lock, when
    // fair use counts running answers (assertFairUse reads under it).
    const lockMember = fairUseLocks(ctx);
    let createdAt: string | null = null;
    if (isNew) {
      createdAt = await insertSession(em, { id, ownerId: user.id, title: initialTitle, at: now }, lockMember);
    } else if (!isUuid(id) || !(await lockOwnSession(em, user.id, id, lockMember))) {
      // The row lock makes two sends at once in one session take turns: the second sees the first's answer running.
      throw notFound(SESSION_NOT_FOUND);
    }
    const rows = isNew ? [] : await findSessionMessages(em, id);
    if (rows.some((r) => r.status === 'streaming')) throw conflict(ANSWER_RUNNING);
    await assertFairUse(ctx, em, user.id);
    let versionOf: string | null = null;
    if (edit) {
      const question = isUuid(edit.messageId)
        ? await findOwnQuestion(em, user.id, edit.messageId)
        : undefined;
      const at = rows.findIndex((r) => r.id === edit.messageId);
      if (!question || question.session_id !== id || at < 0) throw notFound(MESSAGE_NOT_FOUND);
      if (rows.slice(at + 1).some((r) => r.role === 'user')) {
        throw conflict('Only your last message can be edited');
      }
      await hideQuestion(
        em,
        edit.messageId,
        rows.slice(at + 1).map((r) => r.id),
      );
      rows.splice(at);
      versionOf = question.group_id;
    }
    let question: { id: string; content: string; at: Date; versionOf: string | null } | null = null;
    if (message === null) {
      const last = rows.at(-1);
      if (last?.role !== 'assistant') throw conflict('There is no answer to regenerate');
      await deleteMessage(em, last.id);
      rows.pop();
    } else {
      question = { id: randomUUID(), content: message, at: now, versionOf };
      const row: MessageRow = {
        id: question.id,
        role: 'user',
        content: message,
        status: 'done',
        error: null,
        created_at: now.toISOString(),
      };
      rows.push(row);
      userMessage = toMessage(row);
    }
    // A millisecond later than the question, so "oldest first" never puts the answer before it.
    await insertTurn(em, {
      sessionId: id,
      question,
      answer: {
        id: replyId,
        at: new Date(now.getTime() + 1),
        replyTo: rows.findLast((r) => r.role === 'user')?.id ?? null,
      },
    });
    // A new session was stamped `now` by its insert: only an older one is touched.
    touched = createdAt
      ? { userId: user.id, sessionId: id, updatedAt: createdAt }
      : await touchSession(em, ctx.bus, user.id, id, { publish: false, at: now });
    history = historyOf(rows);
  });
  // Every tab of the member hears of the new answer (cubey.onSessions), once it is committed.
  if (touched) publishEvent(ctx, 'cubeySessions', touched);

  const deps = { fork: () => ctx.fork(), bus: ctx.bus, logError: ctx.logError };
  const generation = startGeneration(runtime, deps, {
    userId: user.id,
    username: user.username,
    sessionId: id,
    messageId: replyId,
    history,
    asker: askerContext(ctx),
  });
  generation.catch((error: unknown) => ctx.logError?.('cubey generation crashed', error));

  // After the first answer, a title from the exchange (the model's, or a local summary).
  if (isNew && message !== null) {
    generation
      .then((final) =>
        proposeTitle(deps, runtime.provider, {
          userId: user.id,
          sessionId: id,
          initialTitle,
          question: message,
          answer: final.status === 'failed' ? '' : final.content,
          timeoutMs: TITLE_TIMEOUT_MS,
        }),
      )
      .catch((error: unknown) => ctx.logError?.('cubey title failed', error));
  }
  return {
    sessionId: id,
    message: userMessage,
    reply: {
      id: replyId,
      role: 'assistant',
      content: '',
      status: 'streaming',
      error: null,
      createdAt: new Date(now.getTime() + 1).toISOString(),
      lookups: [],
    },
  };
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
  if (final.status === 'failed') throw badGateway(final.error ?? 'The AI provider failed');
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

const lookupsOf = (row: MessageRow): CubeyLookup[] =>
  Array.isArray(row.lookups) ? (row.lookups as CubeyLookup[]) : [];

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
