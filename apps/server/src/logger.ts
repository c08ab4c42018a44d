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

export function loggerOptions(level: string, instance?: number): LoggerOptions {
  return {
    level,
    redact: LOG_REDACT,
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
