/**
 * The error contract as tests check it: a non-2xx body is `{message, code, issues?}` with `code`
 * the tRPC code of the status, and nothing in it betrays the machinery (a Fastify code, a stack,
 * a driver or JSON.parse message). On /trpc, errors a procedure raises travel in tRPC's own
 * envelope (what the tRPC client reads; an array of them for a batch), whose `data.code` and
 * `data.httpStatus` obey the same rule; errors raised before tRPC runs use the plain shape there
 * too.
 */

import { reasonOf } from '@cubes/api/error-reasons';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { expect } from 'vitest';

type Code = TRPCError['code'];

const CODES: readonly Code[] = [
  'PARSE_ERROR',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'PAYMENT_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_SUPPORTED',
  'TIMEOUT',
  'CONFLICT',
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNPROCESSABLE_CONTENT',
  'PRECONDITION_REQUIRED',
  'TOO_MANY_REQUESTS',
  'CLIENT_CLOSED_REQUEST',
  'INTERNAL_SERVER_ERROR',
  'NOT_IMPLEMENTED',
  'BAD_GATEWAY',
  'SERVICE_UNAVAILABLE',
  'GATEWAY_TIMEOUT',
];

/** The status tRPC gives a code. Statuses tRPC has no code for (431) answer BAD_REQUEST. */
export function statusOfCode(code: Code): number {
  return getHTTPStatusCodeFromError(new TRPCError({ code }));
}

function codeMatches(code: Code, status: number): boolean {
  if (statusOfCode(code) === status) return true;
  return (
    code === 'BAD_REQUEST' && status >= 400 && status < 500 && !CODES.some((c) => statusOfCode(c) === status)
  );
}

/** Words that only the machinery would say; none may reach a client. */
const LEAKS = [
  /FST_[A-Z_]+/,
  /\bat .+:\d+:\d+/, // a stack frame
  /node_modules|\.ts:\d|\.js:\d/,
  /postgres|violates|relation "|syntax error at|invalid byte sequence|duplicate key|MikroORM|knex/i,
  /Unexpected token|in JSON at position|Unexpected end of JSON/,
  /"stack"/,
];

export interface ContractError {
  status: number;
  message: string;
  code: Code;
  reason?: string;
  issues?: { path: string; message: string; reason?: string }[];
}

/** Asserts `res`, the answer to `request`, is an error in the contract's shape and returns it. */
export function contractError(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  request: { method: string; url: string },
): ContractError {
  const where = `${request.method} ${request.url.slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
  for (const leak of LEAKS) expect(res.body, where).not.toMatch(leak);
  const parsed = JSON.parse(res.body) as unknown;
  // A tRPC batch of one (what httpBatchLink sends) answers with an array of one envelope.
  const batchOfOne = request.url.startsWith('/trpc/') && Array.isArray(parsed) && parsed.length === 1;
  const body = (batchOfOne ? (parsed as unknown[])[0] : parsed) as Record<string, unknown>;
  let error: Record<string, unknown> = body;
  let code = body.code;
  if (request.url.startsWith('/trpc/') && 'error' in body) {
    // tRPC's envelope (superjson: the shape sits under `json`)
    const shape = (body.error as { json: { message: unknown; data: Record<string, unknown> } }).json;
    expect(shape.data.httpStatus, where).toBe(res.statusCode);
    expect(shape.data.stack, where).toBeUndefined();
    error = {
      message: shape.message,
      ...('reason' in shape.data ? { reason: shape.data.reason } : {}),
      ...('issues' in shape.data ? { issues: shape.data.issues } : {}),
    };
    code = shape.data.code;
  } else {
    expect(Object.keys(body).sort(), where).toEqual(
      [
        'code',
        'message',
        ...('reason' in body ? ['reason'] : []),
        ...('issues' in body ? ['issues'] : []),
      ].sort(),
    );
  }
  expect(typeof error.message, where).toBe('string');
  expect((error.message as string).length, where).toBeGreaterThan(0);
  expect(CODES, where).toContain(code);
  expect(codeMatches(code as Code, res.statusCode), where).toBe(true);
  // The message's stable reason, exactly when it has one (@cubes/api/error-reasons).
  expect(error.reason, where).toBe(reasonOf(error.message as string));
  if (error.issues !== undefined) {
    for (const issue of error.issues as { message: string }[]) {
      const reason = reasonOf(issue.message);
      expect(issue, where).toEqual({
        path: expect.any(String),
        message: expect.any(String),
        ...(reason ? { reason } : {}),
      });
    }
  }
  return {
    status: res.statusCode,
    message: error.message as string,
    code: code as Code,
    ...(error.reason ? { reason: error.reason as string } : {}),
    ...(error.issues ? { issues: error.issues as ContractError['issues'] } : {}),
  };
}
