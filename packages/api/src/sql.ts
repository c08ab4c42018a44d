/** Small SQL helpers shared by the hand-written queries of the social modules. */

/**
 * A timestamptz as ISO 8601 text in UTC with all six fractional digits. Raw queries return
 * timestamps as text; this form parses with `new Date` and, unlike a JS Date, keeps the
 * microseconds a keyset cursor needs to find its row again.
 */
export function isoTime(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}
