/**
 * The server's pino logger, one definition for `npm start` and the tests that check what it
 * writes. Nothing we log carries a secret (the request line has no query string, no headers, no
 * body); the redaction is the second line of defence should someone log a request or an input.
 */
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/** Paths pino blanks out wherever they appear: credentials in requests and in logged inputs. */
export const LOG_REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.code',
  '*.apiKey',
  '*.secret',
];

/**
 * What an error's `code` may say in the log: a SQLSTATE ("23505", "57P01") or a symbolic name
 * ("ECONNREFUSED", "BAD_REQUEST"). `*.code` above blanks `err.code` too, which is every database
 * error's SQLSTATE; so the error serializer repeats a code of these shapes as `errorCode`. A
 * reset code (six digits) has neither shape and stays blanked wherever it appears.
 */
const SAFE_ERROR_CODE = /^(?:[0-9A-Z]{5}|[A-Z][A-Z0-9_]{1,63})$/;

function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const serialized: Record<string, unknown> = pino.stdSerializers.err(error);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && SAFE_ERROR_CODE.test(code)) serialized.errorCode = code;
  return serialized;
}

export function loggerOptions(level: string, instance?: number): LoggerOptions {
  return {
    level,
    redact: LOG_REDACT,
    serializers: { err: serializeError },
    ...(instance !== undefined ? { base: { instance } } : {}),
  };
}

/** The logger; to stdout unless a stream is given (tests read what it wrote). */
export function createLogger(
  level: string,
  options: { instance?: number; stream?: DestinationStream } = {},
): Logger {
  const opts = loggerOptions(level, options.instance);
  return options.stream ? pino(opts, options.stream) : pino(opts);
}
