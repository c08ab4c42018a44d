/**
 * The procedure context, in two parts (as in tRPC's own examples):
 * - `createContextInner` builds it from plain values: database, session, bus, services. Tests
 *   and scripts call it directly; it knows nothing about HTTP or sockets.
 * - The host (apps/server) has one outer builder per transport, HTTP and WebSocket, which read
 *   the request or the socket's upgrade request and call into the same shape.
 */
import { createMemoryStorage, type StorageDriver } from '@cubes/storage';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  createMemoryEventBus,
  type EventBus,
  type EventTopics,
  FEED_EVENT_WINDOW_MS,
  OTHER_INSTANCES,
  type Topic,
} from './events/event-bus.js';
import type { JobQueue } from './jobs/jobs.queue.js';
import { cachesHear } from './kept-reads.js';
import { createConsoleMailer, type Mailer } from './mail/mailer.js';
import type { CubeyRuntime } from './modules/cubey/cubey.runtime.js';
import type { ReadinessProbe } from './modules/health/health.service.js';
import type { PushSettings } from './modules/push/push.keys.js';
import type { RateLimiter } from './rate-limits.js';

export interface SessionUser {
  id: string;
  username: string;
}

export interface CurrentSession {
  id: string;
  user: SessionUser;
}

/** The context of a protected procedure: the session is there. */
export type AuthedContext = Context & { session: CurrentSession };

/** What a procedure may do to the HTTP exchange, without knowing which server hosts it. */
export interface ResponseControl {
  setSessionCookie: (token: string, expiresAt: Date) => void;
  clearSessionCookie: () => void;
}

/**
 * How the call arrived. Over a WebSocket one context serves the whole connection, so each call
 * gets its own EntityManager fork (the base procedure does it) and subscriptions fork per event.
 */
export type Transport = 'http' | 'ws' | 'internal';

/** Everything a procedure sees. */
export interface Context {
  /** The call's EntityManager (a fork). A host may make it on first use. */
  em: EntityManager;
  /** A new fork: a subscription takes one per event, so no identity map outlives an event. */
  fork: () => EntityManager;
  /**
   * Names the database for in-process caches (the first feed page): the ORM's driver, which
   * every fork of one ORM shares. Reading it never makes a fork.
   */
  cacheScope: object;
  /**
   * A new fork on the read replica (DATABASE_READ_URL), when the host has one. Use it through
   * `readEm(ctx)`, and only for the heavy reads that may lag a little behind the primary.
   */
  readReplica?: () => EntityManager;
  transport: Transport;
  session: CurrentSession | null;
  ip: string;
  userAgent: string | null;
  rateLimit: RateLimiter;
  response: ResponseControl;
  /** The clock, so tests can move time (reset-code expiry, session expiry). */
  now: () => Date;
  /** Outgoing mail (reset codes): SMTP or the server console, chosen by the host. */
  mailer: Mailer;
  /** Uploaded objects: the local disk or S3, chosen by the host. */
  storage: StorageDriver;
  /** Events to every instance (PostgreSQL LISTEN/NOTIFY in production, memory in unit tests). */
  bus: EventBus;
  /** Server-side error log for failures the client must not see (e.g. mail delivery). */
  logError?: (message: string, error: unknown) => void;
  /** Cubey's provider and running answers; without one, the offline assistant (cubey.runtime.ts). */
  cubey?: CubeyRuntime;
  /** The job queue (jobs/jobs.queue.ts); without one, background work runs in this process. */
  jobs?: JobQueue;
  /** What the host knows of itself for readiness (shutdown, migrations); absent: always running. */
  readiness?: ReadinessProbe;
  /** Web push: the VAPID keys and endpoint rules; absent: push is not offered. */
  push?: PushSettings;
}

// Shared by contexts that were given no bus, so two callers in one test hear each other.
const defaultBus = createMemoryEventBus();

export type ContextInnerOptions = Pick<Context, 'em'> & Partial<Omit<Context, 'em'>>;

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
