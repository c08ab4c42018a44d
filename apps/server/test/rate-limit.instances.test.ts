/**
 * The limits hold across instances (issue #45): two real server processes on one database count
 * into the same rows (rate_limit_counts), so a client that spreads its tries over both gets one
 * budget, not two. Ten logins for one address and IP on the first instance, then the 11th on the
 * second is 429; ten wrong current passwords on the first, the 11th on the second is 429. The
 * likes bucket, counted in memory and synced in batches (as the general row is), reaches the
 * other instance at the first instance's next beat: 120 likes there, then the 121st here is 429.
 */
import { createTestDatabase } from '@cubes/db/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServerProcess, startInstances, stopServer } from './ops-instances.js';
import { api, registerOver } from './over-http.js';

const TOO_MANY = {
  message: 'Too many requests, please try again later',
  code: 'TOO_MANY_REQUESTS',
  reason: 'TOO_MANY_REQUESTS',
};

let db: Awaited<ReturnType<typeof createTestDatabase>>;
const servers: ServerProcess[] = [];
const bases: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  // Scale 1: the limits as shipped.
  bases.push(...(await startInstances({ DATABASE_URL: db.url, RATE_LIMIT_SCALE: '1' }, servers)));
}, 330_000);

afterAll(async () => {
  for (const server of servers) await stopServer(server);
  await db?.drop();
});

describe('rate limits across two instances', () => {
  it('refuses the 11th login for one address and IP on the second instance after 10 on the first', async () => {
    const [first, second] = bases as [string, string];
    const body = { email: 'nobody-here@example.com', password: 'wrong-password' };
    for (let i = 1; i <= 10; i += 1) {
      const res = await api(first, 'POST', '/api/auth/login', undefined, body);
      expect(res.status, JSON.stringify(res.body)).toBe(401);
    }
    const eleventh = await api(second, 'POST', '/api/auth/login', undefined, body);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual(TOO_MANY);
  });

  it('refuses the 11th password check on the second instance after 10 on the first', async () => {
    const [first, second] = bases as [string, string];
    const member = await registerOver(first, 'checker');
    const wrong = { currentPassword: 'not-my-password', newPassword: 'new-secret-1' };
    for (let i = 1; i <= 10; i += 1) {
      const res = await api(first, 'POST', '/api/settings/password', member.cookie, wrong);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBe('Current password is incorrect');
    }
    const eleventh = await api(second, 'POST', '/api/settings/password', member.cookie, wrong);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual(TOO_MANY);
  });

  it('refuses the 121st like on the second instance once the first has synced its 120', async () => {
    const [first, second] = bases as [string, string];
    const member = await registerOver(first, 'liker');
    const post = await api(first, 'POST', '/api/posts', member.cookie, { content: 'Like me' });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const like = `/api/posts/${post.body.post.id}/like`;
    for (let i = 1; i <= 120; i += 1) {
      const res = await api(first, i % 2 ? 'POST' : 'DELETE', like, member.cookie, i % 2 ? {} : undefined);
      expect(res.status, `hit ${i}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    // The signal: the first instance's beat has put all 120 in the shared row.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await vi.waitFor(
        async () => {
          const { rows } = await client.query<{ points: number }>(
            'select points from rate_limit_counts where key = $1',
            [`react:user:${member.id}`],
          );
          expect(rows[0]?.points).toBe(120);
        },
        { timeout: 15_000, interval: 50 },
      );
    } finally {
      await client.end();
    }
    const over = await api(second, 'POST', like, member.cookie, {});
    expect(over.status).toBe(429);
    expect(over.body).toEqual(TOO_MANY);
  });
});
