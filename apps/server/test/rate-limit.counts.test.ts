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
import { addCounts } from '../src/plugins/rate-limit.repository.js';

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
    // The memory count starts afresh: 3 more, then refused.
    expect(verdicts).toEqual([true, true, true, false]);
  });
});

describe('the general row (SyncedCounts)', () => {
  const add = (counts: Parameters<typeof addCounts>[1], now: number) => addCounts(orm.em.fork(), counts, now);

  it('learns what the other instance counted at its next sync', async () => {
    const errors: unknown[] = [];
    const a = new SyncedCounts(add, 60_000, (e) => errors.push(e));
    const b = new SyncedCounts(add, 60_000, (e) => errors.push(e));
    for (let i = 0; i < 6; i += 1) expect(a.hit('g1', 10).allowed).toBe(true);
    await a.sync();
    for (let i = 0; i < 4; i += 1) expect(b.hit('g1', 10).allowed).toBe(true);
    await b.sync(); // sends its 4, reads back 10
    expect(b.hit('g1', 10)).toMatchObject({ allowed: false });
    // A batch counts each call: 3 calls where 1 is left.
    const c = new SyncedCounts(add, 60_000, (e) => errors.push(e));
    expect(c.hit('g2', 3, 2).allowed).toBe(true);
    expect(c.hit('g2', 3, 3).allowed).toBe(false);
    expect(errors).toEqual([]);
  });

  it('keeps counting here when the sync fails', async () => {
    const errors: unknown[] = [];
    const failing = new SyncedCounts(
      () => Promise.reject(new Error('database away')),
      60_000,
      (e) => errors.push(e),
    );
    for (let i = 0; i < 3; i += 1) expect(failing.hit('g3', 4).allowed).toBe(true);
    await failing.sync();
    expect(errors).toHaveLength(1);
    expect(failing.hit('g3', 4).allowed).toBe(true);
    expect(failing.hit('g3', 4).allowed).toBe(false);
    // One warning for a run of failures, not one every beat.
    await failing.sync();
    expect(errors).toHaveLength(1);
  });
});
