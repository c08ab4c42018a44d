/**
 * The errors services throw, one helper per code we raise, and the id check that turns a
 * malformed path id into 404 (not 400 or 500). The host maps each code to its HTTP status
 * (docs/api.md); the message is what the member reads.
 */
import { TRPCError } from '@trpc/server';
import { ERROR_REASONS } from './error-reasons.js';

/** 400: the input is well-formed but not acceptable. */
export function badRequest(message: string, cause?: unknown): TRPCError {
  return new TRPCError({ code: 'BAD_REQUEST', message, cause });
}

/** 401: not logged in, or the credentials are wrong. */
export function unauthorized(message: string): TRPCError {
  return new TRPCError({ code: 'UNAUTHORIZED', message });
}

/** 403: logged in, but not allowed to. */
export function forbidden(message: string): TRPCError {
  return new TRPCError({ code: 'FORBIDDEN', message });
}

/** 404: nothing there, or nothing the caller may see. */
export function notFound(message: string): TRPCError {
  return new TRPCError({ code: 'NOT_FOUND', message });
}

/** 409: the state does not allow it (taken, already done, in progress). */
export function conflict(message: string): TRPCError {
  return new TRPCError({ code: 'CONFLICT', message });
}

/**
 * 410: it was there and is over for good (a poll that ended). tRPC has no such code: the error is
 * a PRECONDITION_FAILED (412 over /trpc) whose cause marks it, and the REST adapter answers 410
 * with the code 'GONE' (isGone).
 */
export function gone(message: string): TRPCError {
  return new TRPCError({ code: 'PRECONDITION_FAILED', message, cause: new GoneError(message) });
}

/** The cause that makes a TRPCError a 410 (gone()). */
export class GoneError extends Error {
  override name = 'GoneError';
}

export function isGone(error: TRPCError): boolean {
  return error.code === 'PRECONDITION_FAILED' && error.cause instanceof GoneError;
}

/** 429; a `cause` that is a RateLimitedError gives the answer its Retry-After (trpc.ts). */
export function tooManyRequests(message: string, cause?: unknown): TRPCError {
  return new TRPCError({ code: 'TOO_MANY_REQUESTS', message, cause });
}

/** 502: a service we depend on (Cubey's provider) failed; `message` is safe to show. */
export function badGateway(message: string, cause?: unknown): TRPCError {
  return new TRPCError({ code: 'BAD_GATEWAY', message, cause });
}

/** 503: the database is down or restarting; the call may be retried. */
export function serviceUnavailable(message: string, cause?: unknown): TRPCError {
  return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message, cause });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Ids come from paths: anything that is not a uuid names nothing, so it is "not found". */
export function requireUuid(value: string, notFoundMessage: string): string {
  if (!isUuid(value)) throw notFound(notFoundMessage);
  return value.toLowerCase();
}

/** 401 for a call that needs a session (or whose session's account is gone). */
export const LOGIN_REQUIRED = ERROR_REASONS.LOGIN_REQUIRED;

/** The answer every rate limit gives (docs/api.md, "Rate limits"). */
export const TOO_MANY_REQUESTS = ERROR_REASONS.TOO_MANY_REQUESTS;
