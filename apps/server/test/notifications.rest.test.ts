/**
 * The notifications page and opening one notification, over REST and the WebSocket:
 * GET /api/notifications/page (keyset-paged like the feed, all or mentions), POST
 * /api/notifications/{id}/read (404 in the error shape for anyone else's), a snippet of what was
 * said, and the bell of another tab hearing the count drop.
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { createPost, registerUser, type TestApp } from './harness.js';
import { Events } from './live-client.js';

type BellState = { unreadCount: number; newestId: string | null };
type Tracked<T> = { id: string; data: T };
type Item = { id: string; type: string; snippet: string | null; isRead: boolean };

async function comment(t: TestApp, cookie: string, postId: string, content: string): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/posts/${postId}/comments`,
    headers: { cookie },
    payload: { content },
  });
  expect(res.statusCode, res.body).toBe(201);
}

describe('/api/notifications/page and /api/notifications/{id}/read', () => {
  it('pages all or mentions only, with snippets; opening one reads it and rings the other tab', async ({
    t,
    live,
  }) => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const post = await createPost(t.app, bob.cookie, `a post for @${alice.user.username}`);
    await comment(t, alice.cookie, post.id, 'thanks');
    await comment(t, bob.cookie, post.id, `a comment for @${alice.user.username}`);
    await t.app.inject({
      method: 'POST',
      url: `/api/users/${alice.user.id}/follow`,
      headers: { cookie: bob.cookie },
    });

    const first = await t.app.inject({
      method: 'GET',
      url: '/api/notifications/page?limit=2',
      headers: { cookie: alice.cookie },
    });
    expect(first.statusCode, first.body).toBe(200);
    const firstItems = first.json() as Item[];
    expect(firstItems.map((n) => [n.type, n.snippet])).toEqual([
      ['follow', null],
      ['mention', `a comment for @${alice.user.username}`],
    ]);
    const cursor = first.headers['x-next-cursor'];
    expect(cursor).toEqual(expect.any(String));
    const second = await t.app.inject({
      method: 'GET',
      url: `/api/notifications/page?limit=2&cursor=${cursor}`,
      headers: { cookie: alice.cookie },
    });
    expect((second.json() as Item[]).map((n) => [n.type, n.snippet])).toEqual([
      ['mention', `a post for @${alice.user.username}`],
    ]);
    expect(second.headers['x-next-cursor']).toBeUndefined();

    const mentions = await t.app.inject({
      method: 'GET',
      url: '/api/notifications/page?filter=mentions',
      headers: { cookie: alice.cookie },
    });
    expect((mentions.json() as Item[]).map((n) => n.type)).toEqual(['mention', 'mention']);
    const badFilter = await t.app.inject({
      method: 'GET',
      url: '/api/notifications/page?filter=likes',
      headers: { cookie: alice.cookie },
    });
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json()).toMatchObject({
      code: 'BAD_REQUEST',
      message: "filter must be 'all' or 'mentions'",
    });

    // Another tab's bell, live.
    const socket = live({ cookie: alice.cookie });
    const bell = new Events<Tracked<BellState>>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    expect((await bell.next()).data.unreadCount).toBe(3);

    const opened = firstItems[1]!;
    const read = await t.app.inject({
      method: 'POST',
      url: `/api/notifications/${opened.id}/read`,
      headers: { cookie: alice.cookie },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ ok: true, updated: 1 });
    expect((await bell.next()).data.unreadCount).toBe(2);

    const count = await t.app.inject({
      method: 'GET',
      url: '/api/notifications/unread-count',
      headers: { cookie: alice.cookie },
    });
    expect(count.json()).toEqual({ count: 2 });

    // Not hers: 404 in the error shape, and it stays unread.
    const stranger = await registerUser(t.app);
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/notifications/${firstItems[0]!.id}/read`,
      headers: { cookie: stranger.cookie },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({
      message: 'Notification not found',
      code: 'NOT_FOUND',
      reason: 'NOTIFICATION_NOT_FOUND',
    });
    const loggedOut = await t.app.inject({ method: 'POST', url: `/api/notifications/${opened.id}/read` });
    expect(loggedOut.statusCode).toBe(401);
  });
});
