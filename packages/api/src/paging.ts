/**
 * Keyset paging, the one way every list pages: the page input (`cursor`, `limit`) shared with the
 * web, the opaque cursor that carries the sort key of a page's last row, the SQL condition that
 * continues after it, and the builder that turns `limit + 1` rows into `{items, nextCursor}`.
 * Rows written while a client pages land before or after its cursor, never inside a page it has
 * seen, so nothing repeats or goes missing. Imports zod, our error helpers and the SQL tag only
 * (no Node built-ins): the web bundles the schemas.
 */
import { z } from 'zod';
import { ERROR_REASONS } from './error-reasons.js';
import { badRequest, isUuid } from './errors.js';
import { raw, Sql } from './sql.js';
import { text } from './text.js';

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 50;
export const INVALID_CURSOR = ERROR_REASONS.INVALID_CURSOR;

/** Unpadded base64url, as encode writes it: no length of 4n + 1 (fromBase64Url). */
const BASE64URL = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;

/** An opaque keyset cursor from a previous page's nextCursor. */
export const cursorSchema = text('Cursor', { error: INVALID_CURSOR })
  .min(1, INVALID_CURSOR)
  .max(200, INVALID_CURSOR)
  .regex(BASE64URL, INVALID_CURSOR);

export const pageLimitSchema = z
  .number({ error: ERROR_REASONS.LIMIT_NOT_A_NUMBER })
  .int(ERROR_REASONS.LIMIT_NOT_WHOLE)
  .min(1, ERROR_REASONS.PAGE_LIMIT_OUT_OF_RANGE)
  .max(PAGE_LIMIT_MAX, ERROR_REASONS.PAGE_LIMIT_OUT_OF_RANGE);

/** The page input of a list whose pages hold `defaultLimit` items unless asked otherwise. */
export function pageInputWith(defaultLimit: number) {
  // `cursor` is the name tRPC's useInfiniteQuery fills in.
  return z.object({ cursor: cursorSchema.nullish(), limit: pageLimitSchema.default(defaultLimit) });
}

export const pageInput = pageInputWith(PAGE_LIMIT_DEFAULT);
export type PageInput = z.infer<typeof pageInput>;

/** A page of a list; nextCursor is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The output schema of a paged procedure: `pageOf(postSchema)`; its REST row sends `items`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ items: z.array(item), nextCursor: z.string().nullable() });
}

/**
 * What a sort key column holds. A `timestamp` is ISO 8601 UTC with all six fractional digits
 * (select it with sql.ts's `iso`): rounding to a JS Date's milliseconds would skip or repeat
 * rows. A `float` must be selected as float8 so the cursor holds exactly what the comparison sees.
 */
export type KeyKind = 'timestamp' | 'uuid' | 'int' | 'float';

type KeyValue<K extends KeyKind> = K extends 'int' | 'float' ? number : string;

/** The sort key of a list, most significant first, named: `{createdAt: 'timestamp', id: 'uuid'}`. */
export type KeyShape = Readonly<Record<string, KeyKind>>;

/** A row's position in a list: one value per key of the shape. */
export type KeyOf<S extends KeyShape> = { [P in keyof S]: KeyValue<S[P]> };

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const INT = /^-?(0|[1-9]\d{0,15})$/;
const FLOAT = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/;

/** Parses one key value from cursor text; undefined when it is not of its kind. */
const parsers: { [K in KeyKind]: (text: string) => KeyValue<K> | undefined } = {
  timestamp(text) {
    if (!ISO_MICROS.test(text)) return undefined;
    const time = Date.parse(text);
    // The round trip rejects dates a regex lets through (2026-02-31) that PostgreSQL would refuse.
    const valid =
      Number.isFinite(time) && time >= 0 && new Date(time).toISOString().slice(0, 23) === text.slice(0, 23);
    return valid ? text : undefined;
  },
  uuid: (text) => (isUuid(text) ? text.toLowerCase() : undefined),
  int(text) {
    const value = INT.test(text) ? Number(text) : Number.NaN;
    return Number.isSafeInteger(value) ? value : undefined;
  },
  float(text) {
    const value = FLOAT.test(text) ? Number(text) : Number.NaN;
    return Number.isFinite(value) ? value : undefined;
  },
};

const SQL_TYPE: Record<KeyKind, string> = {
  timestamp: 'timestamptz',
  uuid: 'uuid',
  int: 'bigint',
  float: 'float8',
};

function toBase64Url(ascii: string): string {
  return btoa(ascii).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) return null;
  return atob(text.replaceAll('-', '+').replaceAll('_', '/'));
}

export interface KeysetOptions<S extends KeyShape> {
  /** Written into every cursor, so a cursor of another list is refused rather than misread. */
  name: string;
  /** Every key sorts the same way: one row comparison then serves the condition and an index. */
  order: 'asc' | 'desc';
  key: S;
}

/** A list's sort key, its order and its cursor. */
export interface Keyset<S extends KeyShape> {
  readonly name: string;
  readonly order: 'asc' | 'desc';
  encode(key: KeyOf<S>): string;
  /** A client's cursor; null for none, and 400 'Invalid cursor' for anything this keyset did not make. */
  decode(cursor: string | null | undefined): KeyOf<S> | null;
  /**
   * `(a, b) < (?, ?)` (or `>` ascending), a fragment carrying the key's values: the rows after
   * `key`; `columns` name each key's column.
   */
  continuing(key: KeyOf<S>, columns: { [P in keyof S]: string }): Sql;
  /** `a desc, b desc`: the order the condition continues. */
  ordering(columns: { [P in keyof S]: string }): Sql;
  /**
   * The page of a query that fetched `limit + 1` rows: the extra row only tells that a next page
   * exists, and the cursor is the key of the last row shown.
   */
  page<R, T>(rows: readonly R[], limit: number, toItem: (row: R) => T, keyOf: (row: R) => KeyOf<S>): Page<T>;
}

/** The key a keyset's cursors carry: `KeysetKey<typeof postKeyset>`. */
export type KeysetKey<K> = K extends Keyset<infer S> ? KeyOf<S> : never;

export function keyset<const S extends KeyShape>(options: KeysetOptions<S>): Keyset<S> {
  const { name, order } = options;
  if (!/^[a-z][a-z-]*$/.test(name)) throw new Error(`Invalid keyset name: ${name}`);
  const names = Object.keys(options.key) as (keyof S & string)[];
  const kinds = names.map((n) => options.key[n] as KeyKind);
  const prefix = `${name}|`;

  const encode = (key: KeyOf<S>): string => toBase64Url(prefix + names.map((n) => String(key[n])).join('|'));

  return {
    name,
    order,
    encode,
    decode(cursor) {
      if (cursor === null || cursor === undefined) return null;
      const text = fromBase64Url(cursor);
      const parts = text?.startsWith(prefix) ? text.slice(prefix.length).split('|') : [];
      if (parts.length !== names.length) throw badRequest(INVALID_CURSOR);
      const key: Record<string, string | number> = {};
      for (const [i, n] of names.entries()) {
        const value = parsers[kinds[i]!](parts[i]!);
        if (value === undefined) throw badRequest(INVALID_CURSOR);
        key[n] = value;
      }
      return key as KeyOf<S>;
    },
    continuing(key, columns) {
      // `(a, b) < (?::timestamptz, ?::uuid)`: the texts around the n values, each with its cast.
      const left = names.map((n) => columns[n]).join(', ');
      const strings = [
        `(${left}) ${order === 'desc' ? '<' : '>'} (`,
        ...kinds.map((k, i) => `::${SQL_TYPE[k]}${i === kinds.length - 1 ? ')' : ', '}`),
      ];
      return new Sql(
        strings,
        names.map((n) => key[n]),
      );
    },
    ordering(columns) {
      return raw(names.map((n) => `${columns[n]} ${order}`).join(', '));
    },
    page(rows, limit, toItem, keyOf) {
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      return {
        items: shown.map(toItem),
        nextCursor: rows.length > limit && last !== undefined ? encode(keyOf(last)) : null,
      };
    },
  };
}
