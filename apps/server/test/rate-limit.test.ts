import { describe, expect } from 'vitest';
import { it as withApp } from './fixtures.js';
import { newUserInput, registerUser } from './harness.js';

/** Each describe has an app of its own: at scale 1, and at 0.01 (600/min becomes 6/min). */
const it = withApp
  .extend('strict', { scope: 'file' }, ({ appWith }) => appWith({ config: { rateLimitScale: 1 } }))
  .extend('scaled', { scope: 'file' }, ({ appWith }) => appWith({ config: { rateLimitScale: 0.01 } }));

describe('rate limits (docs/api.md "Rate limits" table, scale 1)', () => {
  it('allows 10 logins a minute per IP and email, then 429 with Retry-After', async ({ strict: t }) => {
    const payload = { email: 'limit@example.com', password: 'whatever1' };
    for (let i = 0; i < 10; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(res.statusCode).toBe(401);
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({
      message: 'Too many requests, please try again later',
      code: 'TOO_MANY_REQUESTS',
      reason: 'TOO_MANY_REQUESTS',
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another email from the same IP still gets through; the limit is per IP + email.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { ...payload, email: 'other@example.com' },
    });
    expect(other.statusCode).toBe(401);
  });

  it('shares the count between /api and /trpc', async ({ strict: t }) => {
    const payload = { email: 'shared@example.com', password: 'whatever1' };
    for (let i = 0; i < 10; i += 1) {
      await t.app.inject({ method: 'POST', url: '/api/auth/login', payload });
    }
    const res = await t.app.inject({ method: 'POST', url: '/trpc/auth.login', payload: { json: payload } });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("counts Search's tags with search: 120 a minute per IP for visitors, then 429", async ({
    strict: t,
  }) => {
    const remoteAddress = '10.0.3.1';
    const statuses: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const url = i % 2 === 0 ? `/api/tags/search?q=cu${i}` : `/api/search?q=cube${i}`;
      statuses.push((await t.app.inject({ method: 'GET', url, remoteAddress })).statusCode);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    const over = await t.app.inject({ method: 'GET', url: '/api/tags/search?q=cu', remoteAddress });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("counts a member's search and @-mention suggestions in one search count: 120 a minute, then 429", async ({
    strict: t,
  }) => {
    const { cookie } = await registerUser(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const url = i % 2 === 0 ? `/api/mentions/suggest?q=a${i}` : `/api/search?q=cube${i}`;
      statuses.push((await t.app.inject({ method: 'GET', url, headers: { cookie } })).statusCode);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    for (const url of ['/api/search?q=cube', '/api/mentions/suggest?q=a']) {
      expect((await t.app.inject({ method: 'GET', url, headers: { cookie } })).statusCode).toBe(429);
    }
  });

  it('allows 10 registrations an hour per IP', async ({ strict: t }) => {
    const headers = { 'x-test': 'register' };
    const remote = '10.9.9.9';
    for (let i = 0; i < 10; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: newUserInput(),
        headers,
        remoteAddress: remote,
      });
      expect(res.statusCode).toBe(201);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: newUserInput(),
      remoteAddress: remote,
    });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(60);
  });
});

describe('general limit per IP, scaled by RATE_LIMIT_SCALE', () => {
  it('answers 429 past the scaled limit', async ({ scaled: t }) => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      statuses.push(
        (await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.0.0.7' })).statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const other = await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.0.0.8' });
    expect(other.statusCode).toBe(200);
  });
});
