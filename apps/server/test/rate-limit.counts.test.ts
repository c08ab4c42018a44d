/**
 * The stores behind the rate limits (plugins/rate-limit.counts.ts) on a real PostgreSQL: two
 * stores on one database stand for two instances. A named bucket counts every hit in the shared
 * row; the general row counts locally and syncs in batches; both keep counting in memory when
 * PostgreSQL is away, so a limit never turns off.
 */
import { initOrm, type MikroORM } from '@cubes/db';
import { createTestDatabase, type TestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncedCounts, sharedBucket, storedKey } from '../src/plugins/rate-limit.counts.js';
import { addCounts, RATE_LIMIT_TABLE } from '../src/plugins/rate-limit.repository.js';

let db: TestDatabase;
let orm: MikroORM;
beforeAll(async () => {
  db = await createTestDatabase();
  orm = await initOrm({ clientUrl: db.url, poolMax: 3 });
});
afterAll(async () => {
  await orm.close(true);
  await db.drop();
});

const knexOf = (o: MikroORM) => o.em.getConnection().getKnex();

describe('a named bucket', () => {
  it('is one count for every store on the database', async () => {
    const limit = { max: 5, windowMs: 60_000 };
    const [a, b] = [
      sharedBucket(knexOf(orm), 'test', limit, false),
      sharedBucket(knexOf(orm), 'test', limit, false),
    ];
    const verdicts = [];
    for (let i = 0; i < 6; i += 1) verdicts.push((await (i % 2 ? b : a).hit('k1')).allowed);
    expect(verdicts).toEqual([true, true, true, true, true, false]);
    const refused = await a.hit('k1');
    expect(refused).toMatchObject({ allowed: false });
    expect(refused.allowed || refused.retryAfterSeconds).toBeGreaterThan(50);
    // Another key, another count.
    expect((await b.hit('k2')).allowed).toBe(true);
  });

  it('stores a key of any length (an e-mail address of 70,000 characters) under its hash', async () => {
    const bucket = sharedBucket(knexOf(orm), 'test', { max: 1, windowMs: 60_000 }, false);
    const long = `${'x'.repeat(70_000)}@example.com`;
    expect((await bucket.hit(long)).allowed).toBe(true);
    expect((await bucket.hit(long)).allowed).toBe(false);
    expect(storedKey(long)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(storedKey('ip:127.0.0.1')).toBe('ip:127.0.0.1');
  });

  it('counts in memory when PostgreSQL is away, and still refuses past the limit', async () => {
    const other = await initOrm({ clientUrl: db.url, poolMax: 1 });
    const bucket = sharedBucket(knexOf(other), 'away', { max: 3, windowMs: 60_000 }, false);
    expect((await bucket.hit('k')).allowed).toBe(true);
    await other.close(true);
    const verdicts = [];
    for (let i = 0; i < 4; i += 1) verdicts.push((await bucket.hit('k')).allowed);
    // The memory has counted this process's first hit too: 2 more, then refused.
    expect(verdicts).toEqual([true, true, false, false]);
  });

  it('judges by this process’s count when PostgreSQL is slower than its timeout: never past the maximum', async () => {
    const bucket = sharedBucket(knexOf(orm), 'slow', { max: 3, windowMs: 60_000 }, false);
    expect((await bucket.hit('k')).allowed).toBe(true);
    // Another transaction holds the key's row: every hit's statement waits on its lock, past
    // STORE_TIMEOUT_MS (a database on a machine too busy to answer in time).
    const holder = await initOrm({ clientUrl: db.url, poolMax: 1 });
    const em = holder.em.fork();
    await em.begin();
    try {
      await em.execute(`select * from ${RATE_LIMIT_TABLE} where key = ? for update`, [
        `slow:${storedKey('k')}`,
      ]);
      const verdicts = [];
      for (let i = 0; i < 4; i += 1) verdicts.push((await bucket.hit('k')).allowed);
      expect(verdicts).toEqual([true, true, false, false]);
    } finally {
      await em.rollback();
      await holder.close(true);
    }
  });
});

describe('a synced row (SyncedCounts: the general row and `react`)', () => {
  const add = (counts: Parameters<typeof addCounts>[1], now: number) => addCounts(orm.em.fork(), counts, now);
  /** What `counts` answers to `hits` hits of `key` one after the other. */
  const verdicts = async (counts: SyncedCounts, key: string, max: number, hits: number) => {
    const seen: boolean[] = [];
    for (let i = 0; i < hits; i += 1) seen.push((await counts.hit(key, max)).allowed);
    return seen;
  };

  it("reads the shared count before a key's first hit: the other instance refuses the 11th", async () => {
    const errors: unknown[] = [];
    const a = new SyncedCounts(add, 60_000, (e) => errors.push(e));
    const b = new SyncedCounts(add, 60_000, (e) => errors.push(e));
    expect(await verdicts(a, 'g1', 10, 10)).toEqual(Array(10).fill(true));
    await a.sync(); // the beat: a's hits since its first reach the table
    expect(await b.hit('g1', 10)).toMatchObject({ allowed: false });
    // A batch counts each call: 3 calls where 1 is left.
    const c = new SyncedCounts(add, 60_000, (e) => errors.push(e));
    expect((await c.hit('g2', 3, 2)).allowed).toBe(true);
    expect((await c.hit('g2', 3, 3)).allowed).toBe(false);
    expect(errors).toEqual([]);
  });

  it('holds at most a tenth of the maximum unconfirmed: two instances pass 100 by at most 20', async () => {
    const a = new SyncedCounts(add, 60_000, () => {});
    const b = new SyncedCounts(add, 60_000, () => {});
    // Interleaved, with no beat in between: each waits for a sync every 10 hits of its own.
    const both: Promise<{ allowed: boolean }>[] = [];
    for (let i = 0; i < 150; i += 1) both.push((i % 2 ? b : a).hit('g4', 100));
    const allowed = (await Promise.all(both)).filter((v) => v.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(100);
    expect(allowed).toBeLessThanOrEqual(120);
    await Promise.all([a.sync(), b.sync()]);
    // And once both have synced, neither allows another.
    expect((await a.hit('g4', 100)).allowed).toBe(false);
    expect((await b.hit('g4', 100)).allowed).toBe(false);
  });

  it('keeps counting here when the sync fails', async () => {
    const errors: unknown[] = [];
    const failing = new SyncedCounts(
      () => Promise.reject(new Error('database away')),
      60_000,
      (e) => errors.push(e),
    );
    expect(await verdicts(failing, 'g3', 4, 3)).toEqual([true, true, true]);
    await failing.sync();
    expect(errors).toHaveLength(1);
    expect(await verdicts(failing, 'g3', 4, 2)).toEqual([true, false]);
    // One warning for a run of failures, not one every beat.
    await failing.sync();
    expect(errors).toHaveLength(1);
  });
});
