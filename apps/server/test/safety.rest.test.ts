/**
 * Block and mute over REST (POST · DELETE /api/users/{id}/block · /mute) and their effects on the
 * REST reads and writes a blocked pair would try, plus the live 'New posts' stream, on a real
 * listening server. Every answer is checked against the OpenAPI document by the harness.
 */
import { setRole } from '@cubes/api';
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { call, createPost, registerUser, UNKNOWN_ID } from './harness.js';
import { hiddenChangesScenario } from './hidden-changes.js';
import { Events } from './live-client.js';

describe('REST block and mute', () => {
  it('answer {blocked} and {muted}, idempotently; 400 on yourself, 404 unknown, 401 logged out', async ({
    t,
  }) => {
    const me = await registerUser(t.app);
    const them = await registerUser(t.app);
    for (const [method, path, body] of [
      ['POST', 'block', { blocked: true }],
      ['POST', 'block', { blocked: true }],
      ['DELETE', 'block', { blocked: false }],
      ['DELETE', 'block', { blocked: false }],
      ['POST', 'mute', { muted: true }],
      ['POST', 'mute', { muted: true }],
      ['DELETE', 'mute', { muted: false }],
    ] as const) {
      const res = await call(t, method, `/api/users/${them.user.id}/${path}`, me.cookie);
      expect(res.statusCode, `${method} ${path}`).toBe(200);
      expect(res.json()).toEqual(body);
    }
    const self = await call(t, 'POST', `/api/users/${me.user.id}/block`, me.cookie);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({
      message: 'You cannot block yourself',
      code: 'BAD_REQUEST',
      reason: 'CANNOT_BLOCK_SELF',
    });
    const selfMute = await call(t, 'POST', `/api/users/${me.user.id}/mute`, me.cookie);
    expect(selfMute.json()).toEqual({
      message: 'You cannot mute yourself',
      code: 'BAD_REQUEST',
      reason: 'CANNOT_MUTE_SELF',
    });
    for (const id of [UNKNOWN_ID, 'nobody', '%F0%9F%A7%8A']) {
      for (const path of ['block', 'mute']) {
        const res = await call(t, 'POST', `/api/users/${id}/${path}`, me.cookie);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({
          message: 'User not found',
          code: 'NOT_FOUND',
          reason: 'USER_NOT_FOUND',
        });
      }
    }
    const bad = await call(t, 'POST', `/api/users/a%00b/block`, me.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('BAD_REQUEST');
    const anonymous = await call(t, 'POST', `/api/users/${them.user.id}/block`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({
      message: 'You need to be logged in',
      code: 'UNAUTHORIZED',
      reason: 'LOGIN_REQUIRED',
    });
  });

  it('a block: the pair cannot reach each other over REST; follows end; others see everything', async ({
    t,
  }) => {
    const me = await registerUser(t.app);
    const them = await registerUser(t.app);
    const other = await registerUser(t.app);
    const mine = await createPost(t.app, me.cookie, 'my post');
    const theirs = await createPost(t.app, them.cookie, 'their post');
    expect((await call(t, 'POST', `/api/users/${me.user.id}/follow`, them.cookie)).statusCode).toBe(200);
    await call(t, 'POST', `/api/messages`, them.cookie, { receiverId: me.user.id, content: 'hi' });

    expect((await call(t, 'POST', `/api/users/${them.user.id}/block`, me.cookie)).statusCode).toBe(200);

    const follow = await call(t, 'POST', `/api/users/${me.user.id}/follow`, them.cookie);
    expect(follow.statusCode).toBe(403);
    expect(follow.json()).toEqual({
      message: 'You cannot follow this user',
      code: 'FORBIDDEN',
      reason: 'CANNOT_FOLLOW_BLOCKED',
    });
    const stats = await call(t, 'GET', `/api/users/${me.user.id}/stats`);
    expect(stats.json().followersCount).toBe(0);

    const like = await call(t, 'POST', `/api/posts/${mine.id}/like`, them.cookie);
    expect(like.statusCode).toBe(404);
    expect(like.json()).toEqual({ message: 'Post not found', code: 'NOT_FOUND', reason: 'POST_NOT_FOUND' });
    const comment = await call(t, 'POST', `/api/posts/${mine.id}/comments`, them.cookie, { content: 'hey' });
    expect(comment.statusCode).toBe(404);
    expect((await call(t, 'GET', `/api/posts/${mine.id}/comments`, them.cookie)).statusCode).toBe(404);
    const message = await call(t, 'POST', `/api/messages`, them.cookie, {
      receiverId: me.user.id,
      content: 'hi',
    });
    expect(message.statusCode).toBe(403);
    expect(message.json()).toEqual({
      message: 'This user does not accept messages from you',
      code: 'FORBIDDEN',
      reason: 'NOT_ACCEPTING_MESSAGES',
    });

    const feedOf = async (cookie?: string) =>
      ((await call(t, 'GET', '/api/posts/feed?limit=50', cookie)).json() as { id: string }[]).map(
        (p) => p.id,
      );
    expect(await feedOf(them.cookie)).not.toContain(mine.id);
    expect(await feedOf(me.cookie)).not.toContain(theirs.id);
    expect(await feedOf(other.cookie)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect(await feedOf()).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect((await call(t, 'GET', `/api/users/${me.user.id}/posts`, them.cookie)).json()).toEqual([]);

    const profile = await call(t, 'GET', `/api/users/by-username/${me.user.username}`, them.cookie);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ isBlockedBy: true, isBlocking: false, user: { bio: null } });
    const search = await call(t, 'GET', `/api/search?q=${encodeURIComponent(me.user.username)}`, them.cookie);
    expect((search.json().users as { id: string }[]).map((u) => u.id)).not.toContain(me.user.id);

    // Unblocking restores reach (follows stay ended).
    expect((await call(t, 'DELETE', `/api/users/${them.user.id}/block`, me.cookie)).json()).toEqual({
      blocked: false,
    });
    expect((await call(t, 'POST', `/api/posts/${mine.id}/like`, them.cookie)).statusCode).toBe(200);
    expect((await call(t, 'GET', `/api/users/${me.user.id}/stats`)).json().followersCount).toBe(0);
  });

  it('a profile shows a blocked pair no counts, either way, as users.stats answers them 404', async ({
    t,
  }) => {
    const blocker = await registerUser(t.app);
    const blocked = await registerUser(t.app);
    const fan = await registerUser(t.app);
    for (const member of [blocker, blocked]) {
      await createPost(t.app, member.cookie, 'counted');
      expect((await call(t, 'POST', `/api/users/${member.user.id}/follow`, fan.cookie)).statusCode).toBe(200);
      expect((await call(t, 'POST', `/api/users/${fan.user.id}/follow`, member.cookie)).statusCode).toBe(200);
    }
    expect((await call(t, 'POST', `/api/users/${blocked.user.id}/block`, blocker.cookie)).statusCode).toBe(
      200,
    );
    const counts = { followersCount: 1, followingCount: 1, postsCount: 1 };
    const none = { followersCount: 0, followingCount: 0, postsCount: 0 };
    for (const [viewer, owner] of [
      [blocker, blocked],
      [blocked, blocker],
    ] as const) {
      const stats = await call(t, 'GET', `/api/users/${owner.user.id}/stats`, viewer.cookie);
      expect(stats.statusCode).toBe(404);
      expect(stats.json()).toEqual({
        message: 'User not found',
        code: 'NOT_FOUND',
        reason: 'USER_NOT_FOUND',
      });
      const profile = await call(t, 'GET', `/api/users/by-username/${owner.user.username}`, viewer.cookie);
      expect(profile.statusCode).toBe(200);
      expect(profile.json().stats).toEqual(none);
      // Anyone else sees the counts, on both answers.
      expect((await call(t, 'GET', `/api/users/${owner.user.id}/stats`, fan.cookie)).json()).toEqual(counts);
      const seen = await call(t, 'GET', `/api/users/by-username/${owner.user.username}`, fan.cookie);
      expect(seen.json().stats).toEqual(counts);
    }
  });

  it("the live 'New posts' stream leaves out muted and blocked authors", async ({ t, live }) => {
    const reader = await registerUser(t.app);
    const muted = await registerUser(t.app);
    const blocked = await registerUser(t.app);
    const friend = await registerUser(t.app);
    await call(t, 'POST', `/api/users/${muted.user.id}/mute`, reader.cookie);
    await call(t, 'POST', `/api/users/${reader.user.id}/block`, blocked.cookie);
    const socket = live({ cookie: reader.cookie });
    const news = new Events<{ id: string; data: { postId: string } }>();
    socket.client.posts.onNew.subscribe({}, { onStarted: news.start, onData: news.push, onError: news.fail });
    await news.started;
    await createPost(t.app, muted.cookie, 'muted');
    await createPost(t.app, blocked.cookie, 'blocked');
    const visible = await createPost(t.app, friend.cookie, 'visible');
    expect((await news.next()).data.postId).toBe(visible.id);
    // Nor later: the next one is the friend's next post.
    const later = await createPost(t.app, friend.cookie, 'later');
    expect((await news.next()).data.postId).toBe(later.id);
  });
});

describe('posts.onChange', () => {
  it('tells a listener nothing of a post hidden from them: blocked either way, removed, its author suspended', ({
    t,
    base,
    clients,
  }) =>
    hiddenChangesScenario({
      writer: base,
      reader: base,
      makeModerator: (username) => setRole(t.orm.em.fork(), username, 'moderator'),
      clients,
    }));
});
