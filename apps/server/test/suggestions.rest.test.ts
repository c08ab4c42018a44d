import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { call, registerUser } from './harness.js';

describe('GET /api/users/suggestions', () => {
  it('suggests whom the people you follow follow, leaves out blocks either way, and takes a limit', async ({
    t,
  }) => {
    const me = await registerUser(t.app);
    const friend = await registerUser(t.app);
    const theirs = await registerUser(t.app);
    const blocker = await registerUser(t.app);
    expect((await call(t, 'POST', `/api/users/${friend.user.id}/follow`, me.cookie)).statusCode).toBe(200);
    for (const u of [theirs, blocker]) {
      expect((await call(t, 'POST', `/api/users/${u.user.id}/follow`, friend.cookie)).statusCode).toBe(200);
    }
    const res = await call(t, 'GET', '/api/users/suggestions?limit=10', me.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().items.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([theirs.user.id, blocker.user.id]));
    expect(res.json().items[0]).toMatchObject({ reason: 'followed', followedBy: 1, followersCount: 1 });
    expect(Object.keys(res.json().items[0]).sort()).toEqual(
      ['avatarUrl', 'bio', 'displayName', 'followedBy', 'followersCount', 'id', 'reason', 'username'].sort(),
    );

    expect((await call(t, 'POST', `/api/users/${me.user.id}/block`, blocker.cookie)).statusCode).toBe(200);
    const after = (await call(t, 'GET', '/api/users/suggestions?limit=10', me.cookie)).json();
    expect(after.items.map((s: { id: string }) => s.id)).not.toContain(blocker.user.id);

    expect((await call(t, 'GET', '/api/users/suggestions?limit=0', me.cookie)).statusCode).toBe(400);
    expect((await call(t, 'GET', '/api/users/suggestions?limit=999', me.cookie)).statusCode).toBe(400);
    expect((await call(t, 'GET', '/api/users/suggestions?limit=%00', me.cookie)).statusCode).toBe(400);
    // Visitors get members who posted lately.
    expect((await call(t, 'GET', '/api/users/suggestions')).statusCode).toBe(200);
  });
});
