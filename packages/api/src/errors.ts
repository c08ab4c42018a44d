/** Errors services throw, and the id check that turns a malformed path id into 404 (not 400 or 500). */
import { TRPCError } from '@trpc/server';

export function notFound(message: string): TRPCError {
  return new TRPCError({ code: 'NOT_FOUND', message });
}

export function badRequest(message: string): TRPCError {
  return new TRPCError({ code: 'BAD_REQUEST', message });
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
