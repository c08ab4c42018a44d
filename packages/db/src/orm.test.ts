import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { initOrm } from './orm.js';

// The server vitest-global-setup.ts started; an empty database of our own on it.
const adminUrl = process.env.CUBES_TEST_ADMIN_URL as string;
const name = `cubes_race_${randomBytes(4).toString('hex')}`;
const url = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
})();

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

afterAll(() => admin(`drop database if exists ${name} with (force)`));

describe('initOrm', () => {
  it('lets instances that start together on an empty database migrate one at a time', async () => {
    await admin(`create database ${name}`);
    const started = await Promise.allSettled([1, 2, 3].map(() => initOrm({ clientUrl: url, poolMax: 2 })));
    const failures = started.filter((s) => s.status === 'rejected');
    expect(failures.map((f) => String((f as PromiseRejectedResult).reason))).toEqual([]);
    for (const s of started) {
      if (s.status !== 'fulfilled') continue;
      expect(await s.value.getMigrator().getPendingMigrations()).toEqual([]);
      await s.value.close(true);
    }
  });
});
