/**
 * The tRPC building blocks every router uses: the public, protected and rate-limited procedures,
 * the per-socket subscription cap, and how an error is described to clients (the JSON error
 * shape of docs/api.md).
 */
import { isDatabaseUnavailable } from '@cubes/db';
import { initTRPC, type TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import type { Context } from './context.types.js';
import { ERROR_REASONS, type ErrorReason, reasonOf } from './error-reasons.js';
import {
  LOGIN_REQUIRED,
  serviceUnavailable,
  TOO_MANY_REQUESTS,
  tooManyRequests,
  unauthorized,
} from './errors.js';
import type { RateLimitBucket } from './rate-limits.js';
import { liveSubscriptions } from './subscriptions.metrics.js';

export interface ErrorIssue {
  path: string;
  message: string;
  /** The message's stable reason (error-reasons.ts), when it has one. */
  reason?: ErrorReason;
}

/** Thrown on 429; the host turns `retryAfterSeconds` into a Retry-After header. */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(TOO_MANY_REQUESTS);
  }
}

function zodIssues(error: ZodError): ErrorIssue[] {
  return error.issues.map((i) => withReason({ path: i.path.join('.'), message: i.message }));
}

/** `value` with the `reason` of its message, when it has one (docs/api.md, "Errors"). */
export function withReason<T extends { message: string }>(value: T): T & { reason?: ErrorReason } {
  const reason = reasonOf(value.message);
  return reason ? { ...value, reason } : value;
}

/** The public description of an error: the body of every REST error and of every tRPC error's shape. */
export interface ErrorDescription {
  message: string;
  /** The message's stable reason (error-reasons.ts), for clients to word it their own way. */
  reason?: ErrorReason;
  issues?: ErrorIssue[];
  retryAfterSeconds?: number;
}

export function describeError(error: TRPCError): ErrorDescription {
  const zod = error.cause instanceof ZodError ? error.cause : null;
  const issues = zod ? zodIssues(zod) : undefined;
  // Internals never leave the server: no stack, no driver messages. tRPC's HTTP handler reports
  // input that is not JSON with JSON.parse's own words; say it plainly.
  const message =
    error.code === 'INTERNAL_SERVER_ERROR'
      ? ERROR_REASONS.INTERNAL_ERROR
      : issues?.length
        ? issues[0]!.message
        : error.cause instanceof SyntaxError
          ? ERROR_REASONS.INPUT_NOT_JSON
          : error.message;
  return {
    ...withReason({ message }),
    ...(issues ? { issues } : {}),
    ...(error.cause instanceof RateLimitedError ? { retryAfterSeconds: error.cause.retryAfterSeconds } : {}),
  };
}

/** What a procedure declares about itself beside its input and output. */
export interface ProcedureMeta {
  /**
   * Set by `sharedProcedure` only: the answer is the same for every caller, and this is the
   * Cache-Control its success carries (the host sends every other answer `private, no-store`).
   */
  sharedCache?: string;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error }) {
      const { message, ...extra } = describeError(error);
      const { stack: _stack, ...data } = shape.data;
      return { ...shape, message, data: { ...data, ...extra } };
    },
  });

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

export const DATABASE_UNAVAILABLE_MESSAGE = ERROR_REASONS.DATABASE_UNAVAILABLE;

/**
 * How many subscriptions one WebSocket may hold open at once. Each is a bus listener and a
 * generator, and most load rows for every event they hear (posts.onNew queries once per new
 * post), so without a bound one connection could make every event cost thousands of queries.
 * A tab of the web app holds about six.
 */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 32;
export const TOO_MANY_SUBSCRIPTIONS = ERROR_REASONS.TOO_MANY_SUBSCRIPTIONS;

/** Open subscriptions by connection: over a WebSocket one context object serves the connection. */
const openSubscriptions = new WeakMap<Context, number>();

/** Takes one of the connection's places (429 when none is left); the function gives it back once. */
function takePlace(ctx: Context): () => void {
  const open = openSubscriptions.get(ctx) ?? 0;
  if (open >= MAX_SUBSCRIPTIONS_PER_SOCKET) {
    throw tooManyRequests(TOO_MANY_SUBSCRIPTIONS);
  }
  openSubscriptions.set(ctx, open + 1);
  liveSubscriptions.inc();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    liveSubscriptions.dec();
    openSubscriptions.set(ctx, Math.max(0, (openSubscriptions.get(ctx) ?? 1) - 1));
  };
}

/**
 * The subscription's iterable, giving its place back when the iteration ends: the client stopped
 * it, it failed or finished, or the socket closed (tRPC ends the iterator in every case).
 */
function releasedAtEnd(data: unknown, release: () => void): unknown {
  const source = data as AsyncIterable<unknown> | null;
  if (typeof source?.[Symbol.asyncIterator] !== 'function') {
    release();
    return data;
  }
  return (async function* counted() {
    try {
      return yield* source;
    } finally {
      release();
    }
  })();
}

/**
 * Over a WebSocket one context serves the whole connection: each call gets a fork of its own, as
 * an HTTP request does. (Subscriptions also fork per event: see Context.fork.) A database that is
 * down or restarting is a 503 SERVICE_UNAVAILABLE, not an internal error: the call may be retried.
 * A connection holds at most MAX_SUBSCRIPTIONS_PER_SOCKET subscriptions (429 beyond).
 */
export const publicProcedure = t.procedure.use(async ({ ctx, type, next }) => {
  const release = type === 'subscription' && ctx.transport === 'ws' ? takePlace(ctx) : null;
  let result: Awaited<ReturnType<typeof next>>;
  try {
    result = await (ctx.transport === 'ws' ? next({ ctx: { em: ctx.fork() } }) : next());
  } catch (error) {
    release?.();
    throw error;
  }
  if (release) {
    if (result.ok) return { ...result, data: releasedAtEnd(result.data, release) };
    release();
  }
  if (
    !result.ok &&
    result.error.code === 'INTERNAL_SERVER_ERROR' &&
    isDatabaseUnavailable(result.error.cause)
  ) {
    throw serviceUnavailable(DATABASE_UNAVAILABLE_MESSAGE, result.error.cause);
  }
  return result;
});

/**
 * A public procedure whose answer is the same for everyone: it does not see the session (its
 * context's session is null whoever asks), so a shared cache may keep its success as
 * `cacheControl` says ('public, max-age=300'; 'no-store' for what must be fresh). The host reads
 * the meta to label the answers (apps/server/src/cache-control.ts); every other procedure's
 * answers depend on the session and are `private, no-store`.
 */
export function sharedProcedure(cacheControl: string) {
  return publicProcedure
    .meta({ sharedCache: cacheControl })
    .use(({ ctx, next }) => next({ ctx: { ...ctx, session: null } }));
}

/** A procedure whose context has a non-null session; 401 otherwise. */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw unauthorized(LOGIN_REQUIRED);
  return next({ ctx: { ...ctx, session: ctx.session } });
});

/** Counts a hit against a bucket of the limits table (docs/api.md, "Rate limits"); 429 when over. */
export async function enforceRateLimit(ctx: Context, bucket: RateLimitBucket, key: string): Promise<void> {
  const result = await ctx.rateLimit(bucket, key);
  if (!result.allowed) {
    throw tooManyRequests(TOO_MANY_REQUESTS, new RateLimitedError(result.retryAfterSeconds));
  }
}

/**
 * Whose hits a per-member bucket counts: the member, or the IP for a visitor. One key per member
 * in every bucket, so two procedures of one bucket (search and mentions.suggest) share one count.
 */
function limitKey(ctx: Context): string {
  return ctx.session ? `user:${ctx.session.user.id}` : `ip:${ctx.ip}`;
}

/**
 * A public procedure that costs far more than a plain read (search, Search's tags): the `search`
 * bucket, per member, or per IP for visitors.
 */
export const searchProcedure = publicProcedure.use(async ({ ctx, next }) => {
  await enforceRateLimit(ctx, 'search', limitKey(ctx));
  return next();
});

/** A protected procedure limited per user by `bucket`. */
export function limitedProcedure(bucket: RateLimitBucket) {
  return protectedProcedure.use(async ({ ctx, next }) => {
    await enforceRateLimit(ctx, bucket, limitKey(ctx));
    return next();
  });
}
