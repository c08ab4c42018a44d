import { isDatabaseUnavailable } from '@cubes/db';
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import type { Context } from './context.js';
import type { RateLimitBucket } from './rate-limits.js';

export interface ErrorIssue {
  path: string;
  message: string;
}

/** Thrown on 429; the host turns `retryAfterSeconds` into a Retry-After header. */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests, please try again later');
  }
}

function zodIssues(error: ZodError): ErrorIssue[] {
  return error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

/** The public description of an error: the body of every REST error and of every tRPC error's shape. */
export interface ErrorDescription {
  message: string;
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
      ? 'Internal server error'
      : issues?.length
        ? issues[0]!.message
        : error.cause instanceof SyntaxError
          ? 'Input is not valid JSON'
          : error.message;
  return {
    message,
    ...(issues ? { issues } : {}),
    ...(error.cause instanceof RateLimitedError ? { retryAfterSeconds: error.cause.retryAfterSeconds } : {}),
  };
}

const t = initTRPC.context<Context>().create({
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

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable right now; please try again shortly';

/**
 * Over a WebSocket one context serves the whole connection: each call gets a fork of its own, as
 * an HTTP request does. (Subscriptions also fork per event: see Context.fork.) A database that is
 * down or restarting is a 503 SERVICE_UNAVAILABLE, not an internal error: the call may be retried.
 */
export const publicProcedure = t.procedure.use(async ({ ctx, next }) => {
  const result = await (ctx.transport === 'ws' ? next({ ctx: { em: ctx.fork() } }) : next());
  if (
    !result.ok &&
    result.error.code === 'INTERNAL_SERVER_ERROR' &&
    isDatabaseUnavailable(result.error.cause)
  ) {
    throw new TRPCError({
      code: 'SERVICE_UNAVAILABLE',
      message: DATABASE_UNAVAILABLE_MESSAGE,
      cause: result.error.cause,
    });
  }
  return result;
});

/** A procedure whose context has a non-null session; 401 otherwise. */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'You need to be logged in' });
  return next({ ctx: { ...ctx, session: ctx.session } });
});

/** Counts a hit against a bucket of the limits table (docs/api.md, "Rate limits"); 429 when over. */
export async function enforceRateLimit(ctx: Context, bucket: RateLimitBucket, key: string): Promise<void> {
  const result = await ctx.rateLimit(bucket, key);
  if (!result.allowed) {
    throw new TRPCError({
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many requests, please try again later',
      cause: new RateLimitedError(result.retryAfterSeconds),
    });
  }
}

/** A protected procedure limited per user by `bucket`. */
export function limitedProcedure(bucket: RateLimitBucket) {
  return protectedProcedure.use(async ({ ctx, next }) => {
    await enforceRateLimit(ctx, bucket, ctx.session.user.id);
    return next();
  });
}
