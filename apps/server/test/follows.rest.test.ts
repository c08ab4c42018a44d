/**
 * REST GET /api/users/{id}/followers and /following: paged through X-Next-Cursor, with whether the
 * caller follows each member; blocks and suspensions respected as a profile's stats respect them.
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { call, registerUser, type TestApp, UNKNOWN_ID } from './harness.js';

async function follow(t: TestApp, cookie: string, userId: string): Promise<void> {
  const res = await call(t, 'POST', `/api/users/${userId}/follow`, cookie);
  expect(res.statusCode, res.body).toBe(200);
}

interface Entry {
  id: string;
  username: string;
  isFollowing: boolean;
  followersCount: number;
}

describe('GET /api/users/:id/followers and /following', () => {
  it('page members most recent first through X-Next-Cursor, with isFollowing for the caller', async ({
    t,
  }) => {
    const star = await registerUser(t.app);
    const fans: Awaited<ReturnType<typeof registerUser>>[] = [];
    for (let i = 0; i < 3; i++) {
      const fan = await registerUser(t.app);
      await follow(t, fan.cookie, star.user.id);
      fans.push(fan);
    }
    const viewer = await registerUser(t.app);
    await follow(t, viewer.cookie, fans[0]!.user.id);

    const first = await call(t, 'GET', `/api/users/${star.user.id}/followers?limit=2`, viewer.cookie);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.json().map((e: Entry) => e.id)).toEqual([fans[2]!.user.id, fans[1]!.user.id]);
    const cursor = String(first.headers['x-next-cursor']);
    const second = await call(
      t,
      'GET',
      `/api/users/${star.user.id}/followers?limit=2&cursor=${encodeURIComponent(cursor)}`,
      viewer.cookie,
    );
    expect(second.json()).toEqual([
      expect.objectContaining({
        id: fans[0]!.user.id,
        username: fans[0]!.user.username,
        isFollowing: true,
        followersCount: 1,
      }),
    ]);
    expect(second.headers['x-next-cursor']).toBeUndefined();

    const following = await call(t, 'GET', `/api/users/${fans[1]!.user.id}/following`);
    expect(following.statusCode).toBe(200);
    expect(following.json()).toEqual([expect.objectContaining({ id: star.user.id, isFollowing: false })]);

    for (const url of [
      `/api/users/${UNKNOWN_ID}/followers`,
      `/api/users/${UNKNOWN_ID}/following`,
      '/api/users/nope/followers',
    ]) {
      const res = await call(t, 'GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'User not found', code: 'NOT_FOUND', reason: 'USER_NOT_FOUND' });
    }
    expect((await call(t, 'GET', `/api/users/${star.user.id}/followers?cursor=nope!`)).statusCode).toBe(400);
    expect((await call(t, 'GET', `/api/users/${star.user.id}/following?limit=0`)).statusCode).toBe(400);
  });

  it('leave out members blocked either way with the caller, and are 404 across a block', async ({ t }) => {
    const star = await registerUser(t.app);
    const viewer = await registerUser(t.app);
    const blocked = await registerUser(t.app);
    for (const fan of [viewer, blocked]) await follow(t, fan.cookie, star.user.id);
    expect((await call(t, 'POST', `/api/users/${blocked.user.id}/block`, viewer.cookie)).statusCode).toBe(
      200,
    );

    const seen = await call(t, 'GET', `/api/users/${star.user.id}/followers`, viewer.cookie);
    expect(seen.json().map((e: Entry) => e.id)).toEqual([viewer.user.id]);
    const public_ = await call(t, 'GET', `/api/users/${star.user.id}/followers`);
    expect(public_.json().map((e: Entry) => e.id)).toEqual([blocked.user.id, viewer.user.id]);
    for (const [cookie, id] of [
      [viewer.cookie, blocked.user.id],
      [blocked.cookie, viewer.user.id],
    ] as const) {
      for (const list of ['followers', 'following']) {
        const res = await call(t, 'GET', `/api/users/${id}/${list}`, cookie);
        expect(res.statusCode).toBe(404);
      }
    }
  });
});
