/**
 * What every way of starting an answer shares (`startAnswer`): the session created or locked,
 * no answer running in it, fair use, the mode's own change to its messages, the question and the
 * answer's row written in one transaction, then the generation started (cubey.runtime.ts) and, for
 * a new session, its title. The modes are a file each: cubey.send.ts (a new question),
 * cubey.edit.ts (a new version of the last question) and cubey.regenerate.ts (the last question
 * again). One answer runs at a time per session: a start meanwhile is 409.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type AuthedContext, publishEvent } from '../../context.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import { conflict, isUuid, notFound } from '../../errors.js';
import type { EventTopics } from '../../events/event-bus.js';
import { askerContext } from './cubey.asker.js';
import { assertFairUse, fairUseLocks } from './cubey.fair-use.js';
import {
  findSessionMessages,
  insertSession,
  insertTurn,
  lockOwnSession,
  type MessageRow,
} from './cubey.repository.js';
import { cubeyRuntimeOf, startGeneration, touchSession } from './cubey.runtime.js';
import type { ChatMessage, CubeyStarted } from './cubey.schema.js';
import { toMessage } from './cubey.serializer.js';
import { proposeTitle } from './cubey-chats.title.js';
import { type ChatTurn, titleFromWords } from './providers/provider.js';

export const SESSION_NOT_FOUND = ERROR_REASONS.CHAT_NOT_FOUND;
export const MESSAGE_NOT_FOUND = ERROR_REASONS.MESSAGE_NOT_FOUND;
const ANSWER_RUNNING = ERROR_REASONS.CUBEY_ANSWERING;
const TITLE_TIMEOUT_MS = 20_000;

/** What a model is given: the finished turns, oldest first. */
function historyOf(rows: MessageRow[]): ChatTurn[] {
  return rows
    .filter((r) => r.content.length > 0 && r.status !== 'failed' && r.status !== 'streaming')
    .map((r) => ({ role: r.role, content: r.content }));
}

export interface AnswerStart {
  /** The caller's session, or null: a new one, titled from `message`. */
  sessionId: string | null;
  /** The new question, or null: the session's last question is answered again. */
  message: string | null;
  /**
   * The mode's change to the session, inside the transaction, before the question goes in:
   * `rows` are its messages as shown, oldest first (change them in place to what the model will
   * see). Returns the version group the new question joins, or null.
   */
  prepare?: (em: EntityManager, rows: MessageRow[], sessionId: string) => Promise<string | null>;
}

/** Starts an answer as `start` says; the question (if any) and the answer as they begin. */
export async function startAnswer(ctx: AuthedContext, start: AnswerStart): Promise<CubeyStarted> {
  const { sessionId, message } = start;
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
    const versionOf = start.prepare ? await start.prepare(em, rows, id) : null;
    let question: { id: string; content: string; at: Date; versionOf: string | null } | null = null;
    if (message !== null) {
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
