import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupDatabase } from '../test/harness.js';
import {
  INVALID_CURSOR,
  type KeyOf,
  type KeyShape,
  type Keyset,
  keyset,
  type Page,
  pageInput,
  pageInputWith,
} from './paging.js';
import { empty, iso, sql, rows as sqlRows } from './sql.js';

const byTime = keyset({ name: 'probe', order: 'asc', key: { createdAt: 'timestamp', id: 'uuid' } });
const byCount = keyset({ name: 'probe-count', order: 'desc', key: { count: 'int', id: 'uuid' } });
const byRank = keyset({
  name: 'probe-rank',
  order: 'desc',
  key: { rank: 'float', createdAt: 'timestamp', id: 'uuid' },
});

const ID = '0b7c1e2f-0000-4000-8000-000000000001';

function raw(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function expectInvalid(decode: () => unknown) {
  try {
    decode();
  } catch (error) {
    expect(error).toBeInstanceOf(TRPCError);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: INVALID_CURSOR });
    return;
  }
  throw new Error('expected the cursor to be refused');
}

describe('keyset cursors', () => {
  it('round-trip every kind of key, and no cursor is null', () => {
    const time = { createdAt: '2026-11-21T10:00:00.123456Z', id: ID };
    expect(byTime.decode(byTime.encode(time))).toEqual(time);
    for (const count of [0, 7, -3, Number.MAX_SAFE_INTEGER]) {
      expect(byCount.decode(byCount.encode({ count, id: ID }))).toEqual({ count, id: ID });
    }
    for (const rank of [0, 0.1, 0.060792699456214905, 1e-7, -2.5, 1e21]) {
      const key = { rank, createdAt: '1970-01-01T00:00:00.000000Z', id: ID };
      expect(byRank.decode(byRank.encode(key))).toEqual(key);
    }
    expect(byTime.decode(byTime.encode({ ...time, id: ID.toUpperCase() }))?.id).toBe(ID);
    expect(byTime.decode(null)).toBeNull();
    expect(byTime.decode(undefined)).toBeNull();
    // Opaque and URL-safe: it travels in query strings and headers as it is.
    expect(byRank.encode({ rank: 0.5, createdAt: time.createdAt, id: ID })).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("refuses with 400 'Invalid cursor' a cursor it did not make", () => {
    const good = byTime.encode({ createdAt: '2026-11-21T10:00:00.123456Z', id: ID });
    const forged = [
      '',
      'nope!',
      'garbage',
      `${good}=`,
      `${good.slice(0, -1)}`,
      `a${good}`,
      'x'.repeat(70_000),
      '🧊',
      'probe\u0000',
      raw(`probe|2026-11-21T10:00:00.123456Z|${ID}|extra`),
      raw(`probe|2026-11-21T10:00:00.123456Z`),
      raw(`probe|2026-11-21T10:00:00.123Z|${ID}`),
      raw(`probe|2026-02-31T00:00:00.000000Z|${ID}`),
      raw(`probe|yesterday|${ID}`),
      raw(`probe|2026-11-21T10:00:00.123456Z|not-a-uuid`),
      raw(`probe|2026-11-21T10:00:00.123456Z|${ID}\u0000`),
      // The cursor of before this module: no list name.
      raw(`2026-11-21T10:00:00.123456Z|${ID}`),
    ];
    for (const cursor of forged) expectInvalid(() => byTime.decode(cursor));
    for (const count of ['1.5', '1e3', '01', '9007199254740993', 'NaN', '', '-']) {
      expectInvalid(() => byCount.decode(raw(`probe-count|${count}|${ID}`)));
    }
    for (const rank of ['NaN', 'Infinity', '-Infinity', '0x10', '', '1e999']) {
      expectInvalid(() => byRank.decode(raw(`probe-rank|${rank}|1970-01-01T00:00:00.000000Z|${ID}`)));
    }
  });

  it("refuses another list's cursor, even one of the same shape", () => {
    const sameShape = keyset({ name: 'other', order: 'asc', key: { createdAt: 'timestamp', id: 'uuid' } });
    const foreign = sameShape.encode({ createdAt: '2026-11-21T10:00:00.123456Z', id: ID });
    expectInvalid(() => byTime.decode(foreign));
    expectInvalid(() => byCount.decode(byTime.encode({ createdAt: '2026-11-21T10:00:00.123456Z', id: ID })));
  });

  it('writes the keyset condition and order for its direction', () => {
    const columns = { count: 'g.favourites_count', id: 'g.id' };
    const after = byCount.continuing({ count: 3, id: ID }, columns);
    expect(after.sql).toBe('(g.favourites_count, g.id) < (?::bigint, ?::uuid)');
    expect(after.values).toEqual([3, ID]);
    expect(byCount.ordering(columns).sql).toBe('g.favourites_count desc, g.id desc');
    const times = { createdAt: 'c.created_at', id: 'c.id' };
    expect(byTime.continuing({ createdAt: '2026-11-21T10:00:00.123456Z', id: ID }, times).sql).toBe(
      '(c.created_at, c.id) > (?::timestamptz, ?::uuid)',
    );
    expect(byTime.ordering(times).sql).toBe('c.created_at asc, c.id asc');
  });

  it('builds a page from limit + 1 rows', () => {
    const rows = [1, 2, 3].map((n) => ({ n, id: `0b7c1e2f-0000-4000-8000-00000000000${n}` }));
    const keyOf = (row: (typeof rows)[number]) => ({ count: row.n, id: row.id });
    const more = byCount.page(rows, 2, (row) => row.n, keyOf);
    expect(more.items).toEqual([1, 2]);
    expect(byCount.decode(more.nextCursor)).toEqual({ count: 2, id: rows[1]!.id });
    expect(byCount.page(rows, 3, (row) => row.n, keyOf)).toEqual({ items: [1, 2, 3], nextCursor: null });
    expect(byCount.page([], 3, (row) => row.n, keyOf)).toEqual({ items: [], nextCursor: null });
  });

  it('refuses a list name that could not be told apart in a cursor', () => {
    expect(() => keyset({ name: 'a|b', order: 'asc', key: { id: 'uuid' } })).toThrow();
  });
});

describe('page input', () => {
  it('defaults the limit and bounds it', () => {
    expect(pageInput.parse({})).toEqual({ limit: 20 });
    expect(pageInputWith(50).parse({ cursor: null })).toEqual({ cursor: null, limit: 50 });
    for (const limit of [0, 51, 1.5, '10', Number.NaN])
      expect(pageInput.safeParse({ limit }).success).toBe(false);
    for (const cursor of ['', 'x'.repeat(201), 5]) {
      const result = pageInput.safeParse({ cursor });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(INVALID_CURSOR);
    }
  });
});

describe('keyset paging against PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof setupDatabase>>;
  beforeAll(async () => {
    db = await setupDatabase();
    await db.orm.em
      .fork()
      .execute(
        'create table paging_probe (id uuid primary key, count int not null, created_at timestamptz not null)',
      );
  });
  afterAll(() => db.close());

  async function insert(count: number, createdAt: string): Promise<string> {
    const id = randomUUID();
    await db.orm.em
      .fork()
      .execute('insert into paging_probe (id, count, created_at) values (?, ?, ?::timestamptz)', [
        id,
        count,
        createdAt,
      ]);
    return id;
  }

  interface ProbeRow {
    id: string;
    count: number;
    created_at: string;
  }

  /** One page of the probe table in `set`'s order, as a list's repository would read it. */
  async function readPage<S extends KeyShape>(
    set: Keyset<S>,
    columns: { [P in keyof S]: string },
    keyOf: (row: ProbeRow) => KeyOf<S>,
    cursor: string | null,
    limit: number,
  ): Promise<Page<string>> {
    const key = set.decode(cursor);
    const rows = await sqlRows<ProbeRow>(
      db.orm.em.fork(),
      sql`select id, count, ${iso('created_at')} as created_at
            from paging_probe ${key ? sql`where ${set.continuing(key, columns)}` : empty}
           order by ${set.ordering(columns)} limit ${limit + 1}`,
    );
    return set.page(rows, limit, (row) => row.id, keyOf);
  }
  const byCountPage = (cursor: string | null, limit: number) =>
    readPage(byCount, { count: 'count', id: 'id' }, (r) => ({ count: r.count, id: r.id }), cursor, limit);
  const byTimePage = (cursor: string | null, limit: number) =>
    readPage(
      byTime,
      { createdAt: 'created_at', id: 'id' },
      (r) => ({ createdAt: r.created_at, id: r.id }),
      cursor,
      limit,
    );

  it('neither repeats nor skips rows while rows are inserted, in either direction', async () => {
    // Ties on every key but id, and timestamps a microsecond apart, so only exact cursors page right.
    const original: string[] = [];
    for (let i = 0; i < 23; i++) {
      original.push(await insert(i % 4, `2026-11-21T10:00:00.00000${i % 3}Z`));
    }

    // Most counted first: rows added with a higher count land before the cursor, not in a later page.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await byCountPage(cursor, 5);
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
      await insert(100 + pages, '2026-11-21T09:00:00.000000Z');
    } while (cursor && pages < 20);
    const expected = await db.orm.em
      .fork()
      .execute<{ id: string }[]>(
        'select id from paging_probe where count < 100 order by count desc, id desc',
      );
    expect(seen).toEqual(expected.map((r) => r.id));
    expect(new Set(seen).size).toBe(original.length);

    // Oldest first: rows added later land after the cursor and are read in a later page.
    const timeline: string[] = [];
    cursor = null;
    pages = 0;
    const late: string[] = [];
    do {
      const page = await byTimePage(cursor, 4);
      timeline.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
      if (pages <= 2) late.push(await insert(0, `2026-11-21T11:00:00.00000${pages}Z`));
    } while (cursor && pages < 20);
    const ordered = await db.orm.em
      .fork()
      .execute<{ id: string }[]>('select id from paging_probe order by created_at, id');
    expect(timeline).toEqual(ordered.map((r) => r.id));
    expect(timeline.slice(-2)).toEqual(late);
  });
});

describe('keyset fragments', () => {
  it('continuing binds each key with its cast, in the order of the key', () => {
    const set = keyset({ name: 'fragments', order: 'desc', key: { createdAt: 'timestamp', id: 'uuid' } });
    const key = { createdAt: '2026-01-01T00:00:00.000000Z', id: '00000000-0000-4000-8000-000000000000' };
    const condition = set.continuing(key, { createdAt: 'p.created_at', id: 'p.id' });
    expect(condition.sql).toBe('(p.created_at, p.id) < (?::timestamptz, ?::uuid)');
    expect(condition.values).toEqual([key.createdAt, key.id]);
    expect(set.ordering({ createdAt: 'p.created_at', id: 'p.id' }).sql).toBe('p.created_at desc, p.id desc');
  });
});
