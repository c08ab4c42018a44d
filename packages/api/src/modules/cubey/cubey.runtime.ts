/**
 * The answers this process is generating, and how they are made. A generation is owned by the
 * server, not by the request that started it: it runs to its end whatever happens to the browser,
 * saves the growing answer to PostgreSQL in batches (every FLUSH_MS or FLUSH_BYTES), and sends each
 * new piece on the bus, where every instance's subscriptions hear it. Stop travels on the bus too
 * (`cubeyStop`), so any tab on any instance can end it; a batch save that finds the answer no
 * longer streaming ends it as well.
 *
 * An instance that dies mid-answer (SIGKILL, power) leaves its answer `streaming`: the running
 * generation touches the message's `updated_at` every HEARTBEAT_MS, and a scheduled job (once per
 * SWEEP_MS across all instances, jobs.handlers.ts) sweeps answers whose heartbeat is older than
 * STALE_MS, marking them failed with a readable reason and telling their watchers, so no tab waits
 * for an answer forever.
 *
 * With a model, an answer may use Cubey's tools (cubey.tool-loop.ts): its look-ups are saved
 * with it as they are made, and each request's tokens are added to the member's day
 * (`dailyTokens`, the fair-use limit that cubey.fair-use.ts checks before an answer starts):
 * under a limit, each request reserves its estimate first (cubey.budget.ts).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthedContext } from '../../context.types.js';
import { ERROR_REASONS } from '../../error-reasons.js';
import type { EventBus, EventTopics } from '../../events/event-bus.js';
import { type AnswerBudget, answerBudget, usageDay } from './cubey.budget.js';
import { cubeyAnswers, cubeyRunning, cubeySpent, cubeyTokens } from './cubey.metrics.js';
import {
  appendAnswer,
  endAnswer,
  type FinalStatus,
  failStaleAnswers,
  touchAnswer,
  touchSessionRow,
} from './cubey.repository.js';
import { answerWithTools, TOOL_ROUNDS } from './cubey.tool-loop.js';
import { addUsage, appendLookup } from './cubey.usage.repository.js';
import { createOfflineProvider } from './providers/offline.provider.js';
import { type ChatTurn, type CubeyProvider, estimateTokens, ProviderError } from './providers/provider.js';

export type { FinalStatus };

export interface FinalState {
  status: FinalStatus;
  content: string;
  error: string | null;
}

export interface CubeyRuntime {
  provider: CubeyProvider;
  /** Generations running in this process, by assistant message id. */
  running: Map<string, { controller: AbortController; done: Promise<FinalState> }>;
  flushMs: number;
  flushBytes: number;
  heartbeatMs: number;
  staleMs: number;
  /** The period of the stale-answer sweep (a scheduled job, jobs.handlers.ts). */
  sweepMs: number;
  /** The sweep's clock; null: the database's now(). */
  sweepClock: (() => Date) | null;
  publishMs: number;
  /** A member's tokens a UTC day, or null: unlimited. */
  dailyTokens: number | null;
  /** A member's answers running at once, on all instances together; 0: no limit. */
  maxRunning: number;
  /** Rounds of tool calls an answer may make; 0 offers no tools. */
  toolRounds: number;
  /** Ends every running generation (server shutdown) and waits for their last saves. */
  close(): Promise<void>;
}

declare module '../../context.types.js' {
  interface HandedIn {
    /** Cubey's provider and running answers; without one, the offline assistant (`cubeyRuntimeOf`). */
    cubey: CubeyRuntime;
  }
}

export interface CubeyRuntimeOptions {
  provider?: CubeyProvider;
  flushMs?: number;
  flushBytes?: number;
  heartbeatMs?: number;
  staleMs?: number;
  sweepMs?: number;
  /**
   * Tests: the clock the stale-answer sweep measures heartbeats against (default: the database's
   * now()), so that a test moves time past the staleness limit instead of waiting it out.
   */
  sweepClock?: () => Date;
  /** The shortest time between two piece events of one answer on the bus. */
  publishMs?: number;
  /** 0: unlimited; absent: DEFAULT_DAILY_TOKENS with a model, unlimited offline. */
  dailyTokens?: number;
  maxRunning?: number;
  toolRounds?: number;
}

export const DEFAULT_DAILY_TOKENS = 50_000;
export const MAX_RUNNING = 2;

export const FLUSH_MS = 250;
export const FLUSH_BYTES = 1024;
export const PUBLISH_MS = 20;
/** How often a running answer says it is alive, and after how long without it is taken for dead. */
export const HEARTBEAT_MS = 5_000;
export const STALE_MS = 30_000;
export const SWEEP_MS = 10_000;
export const ABANDONED_ERROR = ERROR_REASONS.ANSWER_ABANDONED;
/** Larger unsaved text is saved before it is sent, to keep bus payloads small. */
const MAX_EVENT_TEXT_BYTES = 3000;
const SHUTDOWN = 'shutdown';

export function createCubeyRuntime(bus: EventBus, options: CubeyRuntimeOptions = {}): CubeyRuntime {
  const running: CubeyRuntime['running'] = new Map();
  const stopListening = bus.on('cubeyStop', (event) => {
    running.get(event.payload.messageId)?.controller.abort();
  });
  const staleMs = options.staleMs ?? STALE_MS;
  const sweepMs = options.sweepMs ?? SWEEP_MS;
  const provider = options.provider ?? createOfflineProvider();
  const daily = options.dailyTokens ?? (provider.kind === 'openai' ? DEFAULT_DAILY_TOKENS : 0);
  return {
    provider,
    running,
    dailyTokens: daily > 0 ? daily : null,
    maxRunning: options.maxRunning ?? MAX_RUNNING,
    toolRounds: options.toolRounds ?? TOOL_ROUNDS,
    flushMs: options.flushMs ?? FLUSH_MS,
    flushBytes: options.flushBytes ?? FLUSH_BYTES,
    heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS,
    staleMs,
    sweepMs,
    sweepClock: options.sweepClock ?? null,
    publishMs: options.publishMs ?? PUBLISH_MS,
    async close() {
      stopListening();
      const jobs = [...running.values()];
      for (const job of jobs) job.controller.abort(SHUTDOWN);
      await Promise.allSettled(jobs.map((job) => job.done));
    },
  };
}

// Contexts built without a runtime (procedure tests, scripts) share one per bus, offline.
const defaults = new WeakMap<EventBus, CubeyRuntime>();

export function cubeyRuntimeOf(ctx: { cubey?: CubeyRuntime | undefined; bus: EventBus }): CubeyRuntime {
  if (ctx.cubey) return ctx.cubey;
  let runtime = defaults.get(ctx.bus);
  if (!runtime) {
    runtime = createCubeyRuntime(ctx.bus);
    defaults.set(ctx.bus, runtime);
  }
  return runtime;
}

export interface GenerationJob {
  userId: string;
  username: string;
  sessionId: string;
  messageId: string;
  /** The conversation up to the question this message answers, oldest first. */
  history: ChatTurn[];
  /** A context of the asking member, for the tools; without one the model gets no tools. */
  asker?: (() => AuthedContext) | undefined;
}

export { usageDay };

export interface GenerationDeps {
  fork: () => EntityManager;
  bus: EventBus;
  logError?: ((message: string, error: unknown) => void) | undefined;
}

/** Starts generating an answer in the background; the promise is also kept in `running`. */
export function startGeneration(
  runtime: CubeyRuntime,
  deps: GenerationDeps,
  job: GenerationJob,
): Promise<FinalState> {
  const controller = new AbortController();
  cubeyRunning.inc();
  const done = generate(runtime, deps, job, controller)
    .then(
      (state) => {
        cubeyAnswers.inc({ status: state.status });
        return state;
      },
      (error: unknown) => {
        cubeyAnswers.inc({ status: 'failed' });
        throw error;
      },
    )
    .finally(() => {
      cubeyRunning.dec();
      runtime.running.delete(job.messageId);
    });
  runtime.running.set(job.messageId, { controller, done });
  return done;
}

async function generate(
  runtime: CubeyRuntime,
  deps: GenerationDeps,
  job: GenerationJob,
  controller: AbortController,
): Promise<FinalState> {
  const em = deps.fork();
  const { messageId, userId } = job;
  let saved = '';
  let unsaved = '';
  let lastFlush = Date.now();
  const send = (payload: Omit<EventTopics['cubey'], 'userId' | 'messageId'>) =>
    deps.bus
      .publish('cubey', { userId, messageId, ...payload })
      .catch((error: unknown) => deps.logError?.('cubey event not sent', error));
  const flush = async () => {
    const after = await appendAnswer(em, messageId, unsaved);
    saved += unsaved;
    unsaved = '';
    lastFlush = Date.now();
    // Stopped by an instance that could not reach this one: end here too.
    if (after !== 'streaming') controller.abort();
  };

  // Pieces are announced on the bus without waiting for it, one NOTIFY at a time per answer and
  // at most one per `publishMs`: pieces that come meanwhile go out together in the next one (each
  // event carries all the unsaved text, so nothing is lost by skipping). Under load this turns
  // thousands of NOTIFYs a second into a few per answer, instead of a queue that grows.
  let inFlight: Promise<void> | null = null;
  let pending = false;
  let ended = false;
  const announce = () => {
    if (ended) return;
    if (inFlight) {
      pending = true;
      return;
    }
    const startedAt = Date.now();
    inFlight = send({ from: saved.length, text: unsaved }).then(async () => {
      const wait = runtime.publishMs - (Date.now() - startedAt);
      if (wait > 0 && pending) await new Promise((resolve) => setTimeout(resolve, wait));
      inFlight = null;
      if (pending) {
        pending = false;
        announce();
      }
    });
  };

  // The heartbeat: proof for the other instances' sweeps that this answer is still being written.
  const heartbeat = setInterval(() => {
    touchAnswer(deps.fork(), messageId).catch((error: unknown) =>
      deps.logError?.('cubey heartbeat failed', error),
    );
  }, runtime.heartbeatMs);
  heartbeat.unref();

  // Under a daily limit, each model request holds its estimate of the member's tokens first.
  const budget =
    runtime.dailyTokens !== null && runtime.provider.kind === 'openai'
      ? answerBudget(deps.fork, { userId, messageId, limit: runtime.dailyTokens })
      : null;
  let status: FinalStatus = 'done';
  let error: string | null = null;
  try {
    const stream = answerWithTools(
      runtime.provider,
      {
        messages: job.history,
        signal: controller.signal,
        em: deps.fork(),
        username: job.username,
        userId: job.userId,
      },
      {
        asker: runtime.provider.kind === 'openai' && runtime.toolRounds > 0 ? (job.asker ?? null) : null,
        maxRounds: runtime.toolRounds,
        spend: (tokens) => spend(em, userId, tokens, budget),
        budget,
        logError: deps.logError,
      },
    );
    for await (const piece of stream) {
      if (typeof piece !== 'string') {
        // Saved, then told to the open pages (which read it from the row), so it shows while the
        // model goes on. A look-up not saved loses its sources, not the answer.
        const lookups = await appendLookup(em, messageId, piece.lookup).catch((cause: unknown) => {
          deps.logError?.('cubey look-up not saved', cause);
          return 0;
        });
        if (lookups > 0) await send({ from: saved.length, text: unsaved, lookups });
        continue;
      }
      if (controller.signal.aborted) break;
      if (!piece) continue;
      cubeyTokens.inc();
      unsaved += piece;
      if (Buffer.byteLength(unsaved) > MAX_EVENT_TEXT_BYTES) {
        await flush();
        announce();
        continue;
      }
      announce();
      if (Date.now() - lastFlush >= runtime.flushMs || Buffer.byteLength(unsaved) >= runtime.flushBytes) {
        await flush();
      }
    }
    if (controller.signal.aborted) status = 'stopped';
  } catch (cause) {
    if (controller.signal.aborted && controller.signal.reason !== SHUTDOWN) {
      status = 'stopped';
    } else {
      status = 'failed';
      error =
        controller.signal.reason === SHUTDOWN
          ? 'The server stopped while answering'
          : cause instanceof ProviderError
            ? cause.message
            : ERROR_REASONS.AI_PROVIDER_FAILED;
      if (!(cause instanceof ProviderError) && controller.signal.reason !== SHUTDOWN) {
        deps.logError?.('cubey generation failed', cause);
      }
    }
  }
  clearInterval(heartbeat);
  // The offline assistant reports no usage: under a limit set for it, its words are estimated.
  if (runtime.provider.kind === 'offline' && runtime.dailyTokens !== null) {
    const asked = job.history.reduce((n, turn) => n + estimateTokens(turn), 0);
    await spend(em, userId, asked + estimateTokens({ role: 'assistant', content: saved + unsaved })).catch(
      (cause: unknown) => deps.logError?.('cubey usage not counted', cause),
    );
  }
  // The last event carries the rest: no piece event may follow it.
  ended = true;
  while (inFlight) await inFlight;
  if (controller.signal.reason === SHUTDOWN && status !== 'failed') {
    status = 'failed';
    error = 'The server stopped while answering';
  }
  const tail = unsaved;
  const from = saved.length;
  // A stop forced by another instance may have set the status already: keep it, add the text.
  const final = (await endAnswer(em, messageId, tail, status, error)) ?? {
    status,
    error,
    content: saved + tail,
  };
  await send({ from, text: tail, status: final.status, ...(final.error ? { error: final.error } : {}) });
  await touchSession(em, deps.bus, userId, job.sessionId).catch((cause: unknown) =>
    deps.logError?.('cubey session event not sent', cause),
  );
  return { status: final.status, content: final.content, error: final.error };
}

/**
 * Adds tokens a request spent to the member's day (ending the request's hold, under a budget) and
 * to the process's counter.
 */
async function spend(
  em: EntityManager,
  userId: string,
  tokens: number,
  budget: AnswerBudget | null = null,
): Promise<void> {
  if (budget) {
    if (tokens > 0) cubeySpent.inc(tokens);
    await budget.settle(tokens);
    return;
  }
  if (!(tokens > 0)) return;
  cubeySpent.inc(tokens);
  await addUsage(em, userId, usageDay(new Date()), Math.round(tokens));
}

/**
 * Marks `sessionId` active (now, or `at`) and tells its owner's tabs (`cubeySessions`), unless
 * `publish` is false: a caller inside a transaction publishes the returned event after its commit.
 */
export async function touchSession(
  em: EntityManager,
  bus: EventBus,
  userId: string,
  sessionId: string,
  options: { publish?: boolean; at?: Date } = {},
): Promise<EventTopics['cubeySessions'] | null> {
  const { publish = true, at } = options;
  const updatedAt = await touchSessionRow(em, sessionId, at);
  if (!updatedAt) return null;
  const event = { userId, sessionId, updatedAt };
  if (publish) await bus.publish('cubeySessions', event);
  return event;
}

/**
 * Ends the answers whose instance went away: still `streaming`, but with no heartbeat for
 * `staleMs` before `at` (default: the database's now()). Each is marked failed (its saved part
 * kept) and its watchers and the owner's tabs are told. Safe on every instance at once: the
 * update takes each row once.
 */
export async function sweepStaleAnswers(deps: GenerationDeps, staleMs: number, at?: Date): Promise<number> {
  const em = deps.fork();
  const rows = await failStaleAnswers(em, ABANDONED_ERROR, staleMs, at);
  for (const row of rows) {
    await deps.bus
      .publish('cubey', {
        userId: row.owner_id,
        messageId: row.id,
        from: row.content.length,
        text: '',
        status: 'failed',
        error: ABANDONED_ERROR,
      })
      .catch((error: unknown) => deps.logError?.('cubey event not sent', error));
    await touchSession(em, deps.bus, row.owner_id, row.session_id).catch((error: unknown) =>
      deps.logError?.('cubey session event not sent', error),
    );
  }
  return rows.length;
}
