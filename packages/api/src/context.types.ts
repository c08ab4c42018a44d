/**
 * The types every module needs: what a procedure sees (`Context`, `AuthedContext`) and what the
 * host tells it about itself (`ReadinessProbe`). This file imports nothing of the features, so
 * any module may import it without joining an import cycle (`pnpm cycles` checks it). Services a
 * feature owns (Cubey's runtime, web push) are handed in by the host and declared by their own
 * module through `HandedIn`. The builders and helpers over these types are in context.ts.
 */
import type { StorageDriver } from '@cubes/storage';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventBus } from './events/event-bus.js';
import type { JobQueue } from './jobs/jobs.queue.js';
import type { Mailer } from './mail/mailer.js';
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

/**
 * What a host hands in for a feature, declared by that feature's own module (TypeScript's
 * declaration merging, as Fastify's decorators do), so this file imports none of them:
 * - `cubey`: Cubey's provider and running answers (modules/cubey/cubey.runtime.ts); without one,
 *   the offline assistant;
 * - `push`: web push's VAPID keys and endpoint rules (modules/push/push.keys.ts); without them,
 *   push is not offered.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the features' `declare module` blocks.
export interface HandedIn {}

/** Everything a procedure sees. */
export interface Context extends Partial<HandedIn> {
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
  /** The job queue (jobs/jobs.queue.ts); without one, background work runs in this process. */
  jobs?: JobQueue;
  /** What the host knows of itself for readiness (shutdown, migrations); absent: always running. */
  readiness?: ReadinessProbe;
}

/** What the host tells readiness about itself (modules/health/health.service.ts). */
export interface ReadinessProbe {
  /** True from the moment a shutdown began (SIGTERM). */
  shuttingDown(): boolean;
  /** Migrations of this build the database has not run; the host asks its ORM's migrator. */
  pendingMigrations(): Promise<string[]>;
}

export type ContextInnerOptions = Pick<Context, 'em'> & Partial<Omit<Context, 'em'>>;
