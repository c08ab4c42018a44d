import { createMemoryStorage, type StorageDriver } from '@cubes/storage';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createConsoleMailer, type Mailer } from './mail/mailer.js';
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
 * Everything a procedure sees. Built by the host per request (`createContext` in the server);
 * tests build it directly with `createInnerContext`.
 */
export interface Context {
  /** The request's EntityManager (a fork). A host may make it on first use. */
  em: EntityManager;
  /**
   * Names the database for in-process caches (the first feed page): the ORM's driver, which
   * every fork of one ORM shares. Reading it never makes a fork.
   */
  cacheScope: object;
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
  /** Server-side error log for failures the client must not see (e.g. mail delivery). */
  logError?: (message: string, error: unknown) => void;
}

export function createInnerContext(partial: Pick<Context, 'em'> & Partial<Omit<Context, 'em'>>): Context {
  return {
    cacheScope: partial.em.getDriver(),
    session: null,
    ip: '127.0.0.1',
    userAgent: null,
    rateLimit: async () => ({ allowed: true }),
    response: { setSessionCookie: () => {}, clearSessionCookie: () => {} },
    now: () => new Date(),
    mailer: createConsoleMailer(() => {}),
    storage: createMemoryStorage(),
    ...partial,
  };
}
