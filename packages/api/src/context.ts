/**
 * The procedure context, in two parts (as in tRPC's own examples):
 * - `createContextInner` builds it from plain values: database, session, bus, services. Tests
 *   and scripts call it directly; it knows nothing about HTTP or sockets.
 * - The host (apps/server) has one outer builder per transport, HTTP and WebSocket, which read
 *   the request or the socket's upgrade request and call into the same shape.
 * The types themselves are in context.types.ts, which imports nothing of the features.
 */
import { createMemoryStorage } from '@cubes/storage';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context, ContextInnerOptions } from './context.types.js';
import {
  createMemoryEventBus,
  type EventBus,
  type EventTopics,
  FEED_EVENT_WINDOW_MS,
  OTHER_INSTANCES,
  type Topic,
} from './events/event-bus.js';
import { cachesHear } from './kept-reads.js';
import { createConsoleMailer } from './mail/mailer.js';

export type {
  AuthedContext,
  Context,
  ContextInnerOptions,
  CurrentSession,
  HandedIn,
  ReadinessProbe,
  ResponseControl,
  SessionUser,
  Transport,
} from './context.types.js';

// Shared by contexts that were given no bus, so two callers in one test hear each other.
const defaultBus = createMemoryEventBus();

/** A context from plain values; what is not given gets a harmless default. */
export function createContextInner(options: ContextInnerOptions): Context {
  const root = options.em;
  return {
    fork: () => root.fork(),
    cacheScope: root.getDriver(),
    transport: 'internal',
    session: null,
    ip: '127.0.0.1',
    userAgent: null,
    rateLimit: async () => ({ allowed: true }),
    response: { setSessionCookie: () => {}, clearSessionCookie: () => {} },
    now: () => new Date(),
    mailer: createConsoleMailer(() => {}),
    storage: createMemoryStorage(),
    bus: defaultBus,
    ...options,
  };
}

/**
 * The EntityManager for heavy reads that may lag a moment behind the last write: feed pages past
 * the first, search, the gallery past its first page, profiles and their tabs. A fork on the read
 * replica when there is one, otherwise the call's own `em`. Writes, and reads that must see the
 * caller's own last write (their likes, follows, blocks; cached first pages that a write just
 * dropped), stay on `ctx.em`, the primary.
 */
export function readEm(ctx: Pick<Context, 'em' | 'readReplica'>): EntityManager {
  return ctx.readReplica ? ctx.readReplica() : ctx.em;
}

/**
 * A profile and its tabs: someone else's on the read replica (when there is one), the viewer's
 * own on the primary, so it shows what they just changed or posted.
 */
export function readEmUnlessOwn(
  ctx: Pick<Context, 'em' | 'readReplica' | 'session'>,
  ownerId: string,
): EntityManager {
  return ctx.session?.user.id === ownerId ? ctx.em : readEm(ctx);
}

/**
 * Publishes what a write did, after it committed. This process's caches hear it at once, before
 * the write answers (kept-reads.ts); the other instances through the bus, event by event, or as
 * one windowed `feed` event for the topics of OTHER_INSTANCES, whose events this process's bus
 * listeners still hear (`publishLocal`: a like's bell follows from it). A lost event must never
 * fail the write the user made: the bus's consumers catch up from the database, so a failure is
 * logged and the call goes on.
 */
export function publishEvent<T extends Topic>(
  ctx: Pick<Context, 'bus' | 'logError' | 'cacheScope'>,
  topic: T,
  payload: EventTopics[T],
): void {
  cachesHear(ctx.cacheScope, topic, payload);
  if (OTHER_INSTANCES[topic] === 'feed') {
    ctx.bus.publishLocal(topic, payload);
    announceFeedChange(ctx);
  } else send(ctx, topic, payload);
}

/**
 * Events the write's own transaction already sent (`bus.publish(topic, payload, tx)` or
 * `notifySql`), delivered to the other instances at its commit: call after the commit, so this
 * process's caches hear them too.
 */
export function sentWithWrite<T extends Topic>(
  ctx: Pick<Context, 'cacheScope'>,
  topic: T,
  payloads: EventTopics[T] | readonly EventTopics[T][],
): void {
  for (const payload of Array.isArray(payloads) ? payloads : [payloads])
    cachesHear(ctx.cacheScope, topic, payload);
}

function send<T extends Topic>(
  ctx: Pick<Context, 'bus' | 'logError'>,
  topic: T,
  payload: EventTopics[T],
): void {
  ctx.bus
    .publish(topic, payload)
    .catch((error: unknown) => ctx.logError?.(`event '${topic}' not sent`, error));
}

/** Per bus: when its last `feed` event left, and the one waiting for the window to pass. */
const feedAnnouncements = new WeakMap<EventBus, { last: number; pending: NodeJS.Timeout | null }>();

function announceFeedChange(ctx: Pick<Context, 'bus' | 'logError'>): void {
  let state = feedAnnouncements.get(ctx.bus);
  if (!state) {
    state = { last: 0, pending: null };
    feedAnnouncements.set(ctx.bus, state);
  }
  if (state.pending) return;
  const window = state;
  const wait = window.last + FEED_EVENT_WINDOW_MS - Date.now();
  const announce = () => {
    window.pending = null;
    window.last = Date.now();
    send(ctx, 'feed', {});
  };
  if (wait <= 0) announce();
  else {
    window.pending = setTimeout(announce, wait);
    window.pending.unref();
  }
}
