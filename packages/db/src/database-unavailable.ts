/**
 * Tells a database that is down or restarting apart from every other failure, so the server can
 * answer 503 SERVICE_UNAVAILABLE ("try again shortly") instead of 500. What counts: the socket
 * could not be opened or was cut, PostgreSQL is shutting down or starting up (SQLSTATE class 08
 * and 57P0x), it has no connection slots left, or the pool waited too long for a connection.
 */

/** Node's socket errors for a server that is not there (or went away mid-query). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * PostgreSQL's codes: 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now
 * (starting up or shutting down), 53300 too many connections; class 08 is connection exceptions.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * The driver's and the pool's own words, which come without a code (MikroORM puts the SQL in
 * front of them). knex says a transaction is "already complete" when its connection died under
 * it and a later statement of the same unit of work arrives.
 */
const MESSAGES = [
  /Connection terminated unexpectedly/,
  /Connection ended unexpectedly/,
  /terminating connection due to/,
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
  /Knex: Timeout acquiring a connection/,
  /Transaction query already complete/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  // The driver's error may come wrapped (MikroORM's DriverException, tRPC's error, `cause` chains).
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, name, message, errors } = current as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
      errors?: unknown;
    };
    if (
      typeof code === 'string' &&
      (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
    )
      return true;
    if (name === 'KnexTimeoutError') return true;
    if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
