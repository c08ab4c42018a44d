/**
 * Keyset cursors for lists ordered by (createdAt, id): posts newest first, comments oldest first.
 * A cursor is the (createdAt, id) of the last row of a page, base64url-encoded so clients treat
 * it as opaque. The timestamp keeps PostgreSQL's
 * microseconds: rounding to a JS Date's milliseconds could skip or repeat posts.
 */
import { badRequest, isUuid } from '../../errors.js';

export interface PostCursor {
  createdAt: string;
  id: string;
}

export const INVALID_CURSOR = 'Invalid cursor';

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeCursor(cursor: PostCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

/** Parses a client's cursor; anything we did not make is a 400. */
export function decodeCursor(value: string | null | undefined): PostCursor | null {
  if (value === null || value === undefined) return null;
  const text = /^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url').toString('utf8') : '';
  const [createdAt = '', id = '', ...rest] = text.split('|');
  const time = Date.parse(createdAt);
  // The round trip rejects dates a regex lets through (2026-02-31) that PostgreSQL would refuse.
  const valid =
    rest.length === 0 &&
    ISO_MICROS.test(createdAt) &&
    isUuid(id) &&
    Number.isFinite(time) &&
    time >= 0 &&
    new Date(time).toISOString().slice(0, 23) === createdAt.slice(0, 23);
  if (!valid) throw badRequest(INVALID_CURSOR);
  return { createdAt, id: id.toLowerCase() };
}
