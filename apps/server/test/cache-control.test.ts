/**
 * Cache-Control on /api and /trpc answers (issue #45): whatever may depend on the session, a
 * member's own things, what a visitor sees instead and the errors either gets, is `private,
 * no-store`, so no shared cache (a proxy, a CDN) keeps one person's answer for another; the few
 * answers that are the same for everyone say what a shared cache may do.
 */
import { restRows } from '@cubes/api';
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { registerUser, type TestApp, UNKNOWN_ID } from './harness.js';

let member: Awaited<ReturnType<typeof registerUser>>;
it.beforeAll(async ({ t }) => {
  member = await registerUser(t.app);
});

const PRIVATE = 'private, no-store';
/** The procedures whose answers are the same for everyone, and what their success may be kept for. */
const SHARED: Record<string, string> = {
  'health.check': 'no-store',
  'health.ready': 'no-store',
  'push.key': 'public, max-age=300',
};

async function get(t: TestApp, url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
}

describe('Cache-Control', () => {
  it('a member’s own answers are private, no-store', async ({ t }) => {
    const { cookie } = member;
    for (const url of [
      '/api/auth/me',
      '/api/bookmarks',
      '/api/notifications',
      '/api/notifications/unread-count',
      '/api/settings',
      '/api/sessions',
      '/api/cubey/sessions',
      '/api/cubey/usage',
      '/api/messages/conversations',
      '/api/messages/unread-count',
      '/api/push/preferences',
      '/api/account/export',
      // Public rows that still read the session (isLiked, isFollowing, blocks and mutes).
      '/api/posts/feed',
      `/api/users/by-username/${member.user.username}`,
      '/api/tags/trending',
      '/trpc/auth.me',
      '/trpc/auth.session',
      `/trpc/push.status?input=${encodeURIComponent(JSON.stringify({ json: { endpoint: 'https://push.example.com/x' } }))}`,
      '/trpc/notifications.unreadCount',
    ]) {
      const res = await get(t, url, cookie);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.headers['cache-control'], url).toBe(PRIVATE);
    }
  });

  it('every REST row’s answer, success or error, is private unless its procedure is shared', async ({
    t,
  }) => {
    for (const route of restRows) {
      const url = route.path.replace(/:[A-Za-z]+/g, UNKNOWN_ID);
      const res = await t.app.inject({
        method: route.method,
        url,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      const shared = SHARED[route.procedure];
      const expected = shared ? (res.statusCode < 300 ? shared : 'no-store') : PRIVATE;
      expect(res.headers['cache-control'], `${route.method} ${url} → ${res.statusCode}`).toBe(expected);
    }
  });

  it('errors that depend on the session are private: 401, 404, 400', async ({ t }) => {
    const answers = [
      await get(t, '/api/settings'),
      await get(t, '/trpc/auth.me'),
      await t.app.inject({
        method: 'POST',
        url: `/api/posts/${UNKNOWN_ID}/like`,
        headers: { cookie: member.cookie },
      }),
      await get(t, `/api/messages/${UNKNOWN_ID}`, member.cookie),
      await get(t, '/api/posts/feed?limit=500', member.cookie),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([401, 401, 404, 404, 400]);
    for (const answer of answers) expect(answer.headers['cache-control']).toBe(PRIVATE);
  });

  it('answers the same for everyone say what a shared cache may do', async ({ t }) => {
    for (const [url, expected] of [
      ['/api/push/key', 'public, max-age=300'],
      ['/trpc/push.key', 'public, max-age=300'],
      ['/api/health', 'no-store'],
      ['/api/ready', 'no-store'],
      ['/trpc/health.check', 'no-store'],
      ['/api/openapi.json', 'public, max-age=300'],
    ] as const) {
      for (const cookie of [undefined, member.cookie]) {
        const res = await get(t, url, cookie);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toBe(expected);
        expect(res.headers.vary ?? '', url).not.toMatch(/cookie/i);
      }
    }
    // A batch is shared only when every call is.
    const both = await get(t, '/trpc/push.key,health.check?batch=1&input={}');
    expect(both.headers['cache-control']).toBe(PRIVATE);
    const mixed = await get(t, '/trpc/push.key,auth.session?batch=1&input={}', member.cookie);
    expect(mixed.statusCode).toBe(200);
    expect(mixed.headers['cache-control']).toBe(PRIVATE);
    const same = await get(t, '/trpc/push.key,push.key?batch=1&input={}');
    expect(same.statusCode).toBe(200);
    expect(same.headers['cache-control']).toBe('public, max-age=300');
  });

  it('what no procedure made is private too: unknown paths, 405, 415', async ({ t }) => {
    const answers = [
      await get(t, '/api/nothing-here'),
      await t.app.inject({ method: 'PUT', url: '/api/auth/me' }),
      await t.app.inject({
        method: 'POST',
        url: '/api/posts',
        headers: { cookie: member.cookie, 'content-type': 'text/plain' },
        payload: 'hello',
      }),
      await get(t, '/trpc/no.such'),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([404, 405, 415, 404]);
    for (const answer of answers) expect(answer.headers['cache-control']).toBe(PRIVATE);
  });
});
