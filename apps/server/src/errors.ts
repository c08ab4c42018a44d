/**
 * The error contract: every non-2xx answer of the server is JSON `{message, code, reason?, issues?}`,
 * with `code` the tRPC code of the status and `reason` the message's stable reason
 * (@cubes/api/error-reasons) when it has one. Besides `sendError`, the handlers here bring the errors that
 * Fastify raises before a route runs (bad JSON, wrong content type, body too large, malformed
 * URL) and those Node's HTTP parser raises before Fastify sees the request (headers too large,
 * garbage on the wire) to that shape, with messages of our own: never a Fastify code, a stack or
 * a driver message.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { DATABASE_UNAVAILABLE_MESSAGE, TOO_MANY_REQUESTS } from '@cubes/api';
import { ERROR_REASONS, type ErrorReason, reasonOf } from '@cubes/api/error-reasons';
import { isDatabaseUnavailable } from '@cubes/db';
import type { TRPCError } from '@trpc/server';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';

/** tRPC's codes, and 'GONE' for a 410 (tRPC has no such code). */
export type ErrorCode = TRPCError['code'] | 'GONE';

export interface ErrorBody {
  message: string;
  code: ErrorCode;
  reason?: ErrorReason;
  issues?: { path: string; message: string; reason?: ErrorReason }[];
}

/**
 * Every non-2xx answer of the server has this JSON shape (docs/api.md, "Errors"); a message with
 * a stable reason gets it here, so no sender has to name it.
 */
export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send(body.reason ? body : withReasonFirst(body));
}

/** `body` with the reason of its message, placed after `code` so the answers read alike. */
function withReasonFirst(body: ErrorBody): ErrorBody {
  const { message, code, ...rest } = body;
  const reason = reasonOf(message);
  return reason ? { message, code, reason, ...rest } : body;
}

const codeByStatus: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** The tRPC code of a status; tRPC has none for some (431), which count as BAD_REQUEST. */
export function codeForStatus(status: number): ErrorCode {
  return codeByStatus[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}

const UNSUPPORTED_TYPE = ERROR_REASONS.UNSUPPORTED_CONTENT_TYPE;

/**
 * Fastify's own errors, by code: the status we answer and what we say. Over-long path parameters
 * are 400, not Fastify's 414: tRPC has no code for 414, and a parameter that long names nothing.
 */
function frameworkError(code: string | undefined, bodyLimit: number): [number, string] | undefined {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return [400, ERROR_REASONS.BODY_NOT_JSON];
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return [400, ERROR_REASONS.BODY_EMPTY];
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return [400, ERROR_REASONS.BODY_LENGTH_MISMATCH];
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return [415, UNSUPPORTED_TYPE];
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return [413, `Request body is too large (limit ${Math.round(bodyLimit / 1024)} KB)`];
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_INVALID_URL':
      return [400, ERROR_REASONS.URL_MALFORMED];
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return [400, ERROR_REASONS.PATH_PART_TOO_LONG];
    default:
      return undefined;
  }
}

/**
 * The app's error handler (set before any plugin, so every encapsulated context inherits it) and
 * its `frameworkErrors` (URLs that fail before routing). Errors we did not write, with a status
 * below 500, say only the status's name: their messages are not ours to show.
 */
export function createErrorHandler(bodyLimit: number) {
  return function handleError(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
    // A database that is down (e.g. while reading the session before a route runs): retryable.
    if (isDatabaseUnavailable(error)) {
      req.log.warn({ err: error }, 'database unavailable');
      const body: ErrorBody = { message: DATABASE_UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' };
      if (req.url.startsWith('/trpc/')) return sendTrpcError(req, reply, 503, body);
      return sendError(reply, 503, body);
    }
    const known = frameworkError(error.code, bodyLimit);
    const status = known?.[0] ?? (error.statusCode && error.statusCode >= 400 ? error.statusCode : 500);
    if (status >= 500) {
      req.log.error({ err: error }, 'request failed');
      return sendError(reply, 500, { message: ERROR_REASONS.INTERNAL_ERROR, code: 'INTERNAL_SERVER_ERROR' });
    }
    const message = known?.[1] ?? (status === 429 ? TOO_MANY_REQUESTS : STATUS_CODES[status]);
    return sendError(reply, status, { message: message ?? 'Bad request', code: codeForStatus(status) });
  };
}

/** JSON-RPC's number for each tRPC code that can reach sendTrpcError (tRPC's own table). */
const jsonRpcCodes: Partial<Record<ErrorCode, number>> = { SERVICE_UNAVAILABLE: -32603 };

/**
 * An error for a /trpc request that failed before tRPC saw it, in the envelope tRPC itself
 * answers with (superjson's `{json}`; one per call of a batch), so the tRPC client reads
 * `message` and `data.code` as it does for a procedure's own errors.
 */
function sendTrpcError(req: FastifyRequest, reply: FastifyReply, status: number, body: ErrorBody) {
  const calls = (req.url.slice('/trpc/'.length).split('?')[0] ?? '').split(/,|%2C/i).length;
  const reason = reasonOf(body.message);
  const shape = {
    message: body.message,
    code: jsonRpcCodes[body.code] ?? -32603,
    data: { code: body.code, httpStatus: status, ...(reason ? { reason } : {}) },
  };
  const one = { error: { json: shape } };
  const batch = (req.query as { batch?: string } | undefined)?.batch === '1';
  const payload = batch ? Array.from({ length: calls }, () => one) : one;
  return reply.status(status).type('application/json; charset=utf-8').send(payload);
}

/** What a request that never became a request (Node's parser refused it) is told. */
function clientErrorAnswer(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, ERROR_REASONS.HEADERS_TOO_LARGE];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, ERROR_REASONS.REQUEST_TIMEOUT];
  return [400, ERROR_REASONS.MALFORMED_REQUEST];
}

/**
 * Fastify's `clientErrorHandler` (called with the app as `this`): Node's 'clientError' event,
 * raised by the HTTP parser before Fastify routes anything. Answers in the contract's shape on
 * the raw socket, then closes it.
 */
export function handleClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = clientErrorAnswer(error.code);
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const reason = reasonOf(message);
    const body = JSON.stringify({
      message,
      code: codeForStatus(status),
      ...(reason ? { reason } : {}),
    } satisfies ErrorBody);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

/**
 * Guards for tRPC's Fastify adapter, whose routes are registered as declared (so this must come
 * before them):
 * - a subscription asked over plain HTTP would get tRPC's event stream (with an error inside a
 *   200): subscriptions live on the WebSocket, where sockets end with their session, so it is
 *   refused with 405;
 * - a multipart body is handed on by the adapter as the raw stream, which tRPC then fails to
 *   serialise (a 500). No procedure takes form data: it is refused with 415 first;
 * - some of tRPC's own error answers (415 for a missing content type) carry a JSON body without
 *   saying so: they are labelled JSON.
 */
export function registerTrpcRouteErrors(
  app: FastifyInstance,
  prefix: string,
  subscriptions: ReadonlySet<string>,
): void {
  const refuseFormData: preHandlerHookHandler = (req, reply, done) => {
    if (!req.headers['content-type']?.toLowerCase().trimStart().startsWith('multipart/')) return done();
    sendError(reply, 415, { message: UNSUPPORTED_TYPE, code: 'UNSUPPORTED_MEDIA_TYPE' });
  };
  const refuseSubscriptions: preHandlerHookHandler = (req, reply, done) => {
    const paths = (req.params as { path?: string }).path?.split(',') ?? [];
    if (!paths.some((path) => subscriptions.has(path))) return done();
    sendError(reply, 405, {
      message: ERROR_REASONS.SUBSCRIPTIONS_NEED_SOCKET,
      code: 'METHOD_NOT_SUPPORTED',
    });
  };
  // tRPC answers with a fetch Response; Fastify copies its status and headers after onSend.
  const labelErrorsJson: onSendHookHandler = (_req, _reply, payload, done) => {
    if (
      payload instanceof Response &&
      payload.status >= 400 &&
      !payload.headers.get('content-type')?.startsWith('application/json')
    ) {
      payload.headers.set('content-type', 'application/json; charset=utf-8');
    }
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (route.prefix !== prefix) return;
    route.preHandler = [refuseFormData, refuseSubscriptions, ...hooks(route.preHandler)];
    route.onSend = [labelErrorsJson, ...hooks(route.onSend)];
  });
}

function hooks<T>(existing: T | T[] | undefined): T[] {
  return existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
}
