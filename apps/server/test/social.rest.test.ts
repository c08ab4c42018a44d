import { publicObject } from '@cubes/api/testing';
import { describe, expect } from 'vitest';
import { it as withApp } from './fixtures.js';
import { createPost, registerUser, UNKNOWN_ID } from './harness.js';

const it = withApp.extend('limited', { scope: 'file' }, ({ appWith }) =>
  appWith({ config: { rateLimitScale: 1 } }),
);

interface PostBody {
  id: string;
  userId: string;
  username: string;
  content: string;
  likesCount: number;
  commentsCount: number;
  isLiked: boolean;
  createdAt: string;
}

function newerFirst(a: PostBody, b: PostBody): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

describe('REST /api/posts', () => {
  it('creates a post: 201 {post}; 401 logged out; 400 with the reason', async ({ t }) => {
    const { cookie, user } = await registerUser(t.app);
    const image = await publicObject(t.orm, user.id);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie },
      payload: { content: '  hello  ', imageUrl: image },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['post']);
    expect(body.post).toMatchObject({
      userId: user.id,
      username: user.username,
      content: 'hello',
      imageUrl: image,
      likesCount: 0,
      commentsCount: 0,
      isLiked: false,
    });
    expect(new Date(body.post.createdAt).toISOString()).toBe(body.post.createdAt);

    const anonymous = await t.app.inject({ method: 'POST', url: '/api/posts', payload: { content: 'hi' } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({
      message: 'You need to be logged in',
      code: 'UNAUTHORIZED',
      reason: 'LOGIN_REQUIRED',
    });

    for (const [payload, message] of [
      [{ content: '   ' }, 'Post cannot be empty'],
      [{}, 'Post cannot be empty'],
      [{ content: 'x'.repeat(2001) }, 'Post must be at most 2000 characters'],
      [{ content: 'x', imageUrl: 'https://elsewhere.example/cat.png' }, 'Invalid image URL'],
    ] as const) {
      const bad = await t.app.inject({ method: 'POST', url: '/api/posts', headers: { cookie }, payload });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ message, code: 'BAD_REQUEST' });
    }
  });

  it('pages the feed through X-Next-Cursor with no gaps or duplicates while others post', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const created = new Set<string>();
    for (let i = 0; i < 25; i++) created.add((await createPost<PostBody>(t.app, cookie, `feed ${i}`)).id);

    const seen: PostBody[] = [];
    let url = '/api/posts/feed?limit=10';
    for (let pages = 0; pages < 20; pages++) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const items = res.json() as PostBody[];
      expect(Array.isArray(items)).toBe(true);
      expect(items.length).toBeLessThanOrEqual(10);
      seen.push(...items);
      await createPost<PostBody>(t.app, cookie, `meanwhile ${pages}`);
      const next = res.headers['x-next-cursor'];
      if (!next) break;
      url = `/api/posts/feed?limit=10&cursor=${encodeURIComponent(String(next))}`;
    }
    const ids = seen.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < seen.length; i++) expect(newerFirst(seen[i - 1]!, seen[i]!)).toBe(true);
    expect(ids.filter((id) => created.has(id))).toHaveLength(25);
    expect(seen.some((p) => p.content.startsWith('meanwhile'))).toBe(false);

    const last = await t.app.inject({ method: 'GET', url: '/api/posts/feed?limit=50' });
    expect(last.json().length).toBeLessThanOrEqual(50);
    const defaults = await t.app.inject({ method: 'GET', url: '/api/posts/feed' });
    expect(defaults.json()).toHaveLength(20);
    expect(defaults.headers['x-next-cursor']).toEqual(expect.any(String));
    // The first page comes from memory, encoded once: same JSON, same headers.
    const again = await t.app.inject({ method: 'GET', url: '/api/posts/feed' });
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.headers['content-length']).toBe(String(Buffer.byteLength(again.body)));
    expect(again.body).toBe(defaults.body);
  });

  it('answers 400 for a bad cursor or limit', async ({ t }) => {
    for (const [query, message] of [
      ['cursor=garbage', 'Invalid cursor'],
      ['cursor=', 'Invalid cursor'],
      ['limit=0', 'Limit must be between 1 and 50'],
      ['limit=51', 'Limit must be between 1 and 50'],
      ['limit=ten', 'Limit must be a number'],
      ['limit=', 'Limit must be between 1 and 50'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/posts/feed?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ message, code: 'BAD_REQUEST' });
    }
  });

  it('likes and unlikes idempotently, with isLiked only for the liker', async ({ t }) => {
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const other = await registerUser(t.app);
    const { id } = await createPost<PostBody>(t.app, author.cookie, 'like this');
    const like = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/posts/${id}/like`,
        headers: { cookie: fan.cookie },
        payload: {},
      });
    const unlike = () =>
      t.app.inject({ method: 'DELETE', url: `/api/posts/${id}/like`, headers: { cookie: fan.cookie } });

    expect((await like()).json()).toEqual({ liked: true, likesCount: 1 });
    expect((await like()).json()).toEqual({ liked: true, likesCount: 1 });
    const find = async (cookie?: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/posts/feed?limit=50',
        ...(cookie ? { headers: { cookie } } : {}),
      });
      return (res.json() as PostBody[]).find((p) => p.id === id)!;
    };
    expect(await find(fan.cookie)).toMatchObject({ isLiked: true, likesCount: 1 });
    expect(await find(other.cookie)).toMatchObject({ isLiked: false, likesCount: 1 });
    expect(await find()).toMatchObject({ isLiked: false, likesCount: 1 });

    expect((await unlike()).json()).toEqual({ liked: false, likesCount: 0 });
    expect((await unlike()).json()).toEqual({ liked: false, likesCount: 0 });
    // A like without a body at all works too.
    const bare = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${id}/like`,
      headers: { cookie: fan.cookie },
    });
    expect(bare.json()).toEqual({ liked: true, likesCount: 1 });
  });

  it('answers 404 for unknown or malformed post ids and 401 for visitors', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
      for (const [method, path] of [
        ['POST', 'like'],
        ['DELETE', 'like'],
        ['GET', 'comments'],
        ['POST', 'comments'],
      ] as const) {
        const res = await t.app.inject({
          method,
          url: `/api/posts/${id}/${path}`,
          headers: { cookie },
          ...(method === 'POST' ? { payload: { content: 'x' } } : {}),
        });
        expect(res.statusCode, `${method} ${id} ${path}`).toBe(404);
        expect(res.json()).toEqual({
          message: 'Post not found',
          code: 'NOT_FOUND',
          reason: 'POST_NOT_FOUND',
        });
      }
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${UNKNOWN_ID}/like`,
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
    const anonymousUnlike = await t.app.inject({ method: 'DELETE', url: `/api/posts/${UNKNOWN_ID}/like` });
    expect(anonymousUnlike.statusCode).toBe(401);
  });

  it('adds comments (201) and lists them oldest first', async ({ t }) => {
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const { id } = await createPost<PostBody>(t.app, author.cookie, 'comment here');
    const first = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${id}/comments`,
      headers: { cookie: fan.cookie },
      payload: { content: ' first ' },
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      userId: fan.user.id,
      username: fan.user.username,
      content: 'first',
    });
    expect(Object.keys(first.json()).sort()).toEqual(
      [
        'content',
        'createdAt',
        'id',
        'mentions',
        'userAvatarUrl',
        'userDisplayName',
        'userId',
        'username',
      ].sort(),
    );
    await t.app.inject({
      method: 'POST',
      url: `/api/posts/${id}/comments`,
      headers: { cookie: author.cookie },
      payload: { content: 'second' },
    });
    const list = await t.app.inject({ method: 'GET', url: `/api/posts/${id}/comments` });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((c: { content: string }) => c.content)).toEqual(['first', 'second']);
    expect(list.headers['x-next-cursor']).toBeUndefined();
    // Long threads page like the feed: ?limit and ?cursor, the next cursor in X-Next-Cursor.
    const head = await t.app.inject({ method: 'GET', url: `/api/posts/${id}/comments?limit=1` });
    expect(head.json().map((c: { content: string }) => c.content)).toEqual(['first']);
    const next = String(head.headers['x-next-cursor']);
    const rest = await t.app.inject({
      method: 'GET',
      url: `/api/posts/${id}/comments?limit=1&cursor=${encodeURIComponent(next)}`,
    });
    expect(rest.json().map((c: { content: string }) => c.content)).toEqual(['second']);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
    const bad = await t.app.inject({ method: 'GET', url: `/api/posts/${id}/comments?cursor=nope` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      message: 'Invalid cursor',
      code: 'BAD_REQUEST',
      reason: 'INVALID_CURSOR',
    });

    const empty = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${id}/comments`,
      headers: { cookie: fan.cookie },
      payload: { content: '' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Comment cannot be empty');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${id}/comments`,
      payload: { content: 'x' },
    });
    expect(anonymous.statusCode).toBe(401);
    const feed = await t.app.inject({ method: 'GET', url: '/api/posts/feed?limit=50' });
    expect((feed.json() as PostBody[]).find((p) => p.id === id)?.commentsCount).toBe(2);
  });
});

describe('REST /api/users', () => {
  it('finds a profile by username whatever the case, hiding the email from others', async ({ t }) => {
    const owner = await registerUser(t.app);
    const viewer = await registerUser(t.app);
    await createPost<PostBody>(t.app, owner.cookie, 'profile post');
    await t.app.inject({
      method: 'POST',
      url: `/api/users/${owner.user.id}/follow`,
      headers: { cookie: viewer.cookie },
    });

    const res = await t.app.inject({
      method: 'GET',
      url: `/api/users/by-username/${owner.user.username.toUpperCase()}`,
      headers: { cookie: viewer.cookie },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'isBlockedBy',
      'isBlocking',
      'isFollowing',
      'isMuting',
      'isSuspended',
      'stats',
      'user',
    ]);
    expect(body.user).toMatchObject({ id: owner.user.id, username: owner.user.username, email: null });
    expect(body.stats).toEqual({ followersCount: 1, followingCount: 0, postsCount: 1 });
    expect(body.isFollowing).toBe(true);
    expect(body.isSuspended).toBe(false);

    const own = await t.app.inject({
      method: 'GET',
      url: `/api/users/by-username/${owner.user.username}`,
      headers: { cookie: owner.cookie },
    });
    expect(own.json().user.email).toBe(owner.input.email);
    expect(own.json().isFollowing).toBe(false);

    const missing = await t.app.inject({ method: 'GET', url: '/api/users/by-username/nobody_at_all' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      message: 'User not found',
      code: 'NOT_FOUND',
      reason: 'USER_NOT_FOUND',
    });
  });

  it('shows an email made visible to everyone', async ({ t }) => {
    const owner = await registerUser(t.app);
    await t.orm.em.fork().execute('update users set email_visible = true where id = ?', [owner.user.id]);
    const res = await t.app.inject({ method: 'GET', url: `/api/users/by-username/${owner.user.username}` });
    expect(res.json().user.email).toBe(owner.input.email);
  });

  it('answers stats and pages posts through X-Next-Cursor', async ({ t }) => {
    const author = await registerUser(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createPost<PostBody>(t.app, author.cookie, `mine ${i}`)).id);
    const stats = await t.app.inject({ method: 'GET', url: `/api/users/${author.user.id}/stats` });
    expect(stats.json()).toEqual({ followersCount: 0, followingCount: 0, postsCount: 5 });

    const first = await t.app.inject({ method: 'GET', url: `/api/users/${author.user.id}/posts?limit=3` });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toHaveLength(3);
    const cursor = first.headers['x-next-cursor'];
    expect(cursor).toEqual(expect.any(String));
    const second = await t.app.inject({
      method: 'GET',
      url: `/api/users/${author.user.id}/posts?limit=3&cursor=${encodeURIComponent(String(cursor))}`,
    });
    expect(second.json()).toHaveLength(2);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    const all = [...first.json(), ...second.json()].map((p: PostBody) => p.id);
    expect(new Set(all)).toEqual(new Set(ids));

    for (const url of [
      `/api/users/${UNKNOWN_ID}/stats`,
      `/api/users/${UNKNOWN_ID}/posts`,
      '/api/users/nope/stats',
      '/api/users/nope/posts',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'User not found', code: 'NOT_FOUND', reason: 'USER_NOT_FOUND' });
    }
  });

  it('follows and unfollows idempotently; never yourself; 404 for unknown users; 401 for visitors', async ({
    t,
  }) => {
    const star = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const url = `/api/users/${star.user.id}/follow`;
    const follow = () => t.app.inject({ method: 'POST', url, headers: { cookie: fan.cookie }, payload: {} });
    const unfollow = () => t.app.inject({ method: 'DELETE', url, headers: { cookie: fan.cookie } });
    expect((await follow()).json()).toEqual({ following: true, followersCount: 1 });
    expect((await follow()).json()).toEqual({ following: true, followersCount: 1 });
    expect((await unfollow()).json()).toEqual({ following: false, followersCount: 0 });
    expect((await unfollow()).json()).toEqual({ following: false, followersCount: 0 });

    const self = await t.app.inject({ method: 'POST', url, headers: { cookie: star.cookie } });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({
      message: 'You cannot follow yourself',
      code: 'BAD_REQUEST',
      reason: 'CANNOT_FOLLOW_SELF',
    });
    for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/users/${id}/follow`,
        headers: { cookie: fan.cookie },
      });
      expect(res.statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url })).statusCode).toBe(401);
  });
});

describe('first pages kept between reads', () => {
  it('a profile’s posts and a post’s comments show every change at once', async ({ t }) => {
    const author = await registerUser(t.app);
    const viewer = await registerUser(t.app);
    const commenter = await registerUser(t.app);
    const call = (cookie: string | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: cookie ? { cookie } : {},
        ...(method === 'GET' ? {} : { payload: payload ?? {} }),
      });
    // Each state is read twice: the second read comes from memory (feed.cache.ts).
    const profile = async (cookie: string | null) => {
      const reads = [];
      for (let i = 0; i < 2; i++) reads.push(await call(cookie, 'GET', `/api/users/${author.user.id}/posts`));
      expect(reads[1]!.body).toBe(reads[0]!.body);
      return (reads[1]!.json() as PostBody[]).map(
        (p) => `${p.content}${p.isLiked ? ' liked' : ''} ${p.likesCount}`,
      );
    };
    const comments = async (cookie: string | null, postId: string) => {
      const reads = [];
      for (let i = 0; i < 2; i++) reads.push(await call(cookie, 'GET', `/api/posts/${postId}/comments`));
      expect(reads[1]!.statusCode).toBe(reads[0]!.statusCode);
      if (reads[1]!.statusCode !== 200) return reads[1]!.statusCode;
      return (reads[1]!.json() as { content: string }[]).map((c) => c.content);
    };

    const first = await createPost<PostBody>(t.app, author.cookie, 'first');
    expect(await profile(viewer.cookie)).toEqual(['first 0']);
    await call(viewer.cookie, 'POST', `/api/posts/${first.id}/like`);
    expect(await profile(viewer.cookie)).toEqual(['first liked 1']);
    expect(await profile(null)).toEqual(['first 1']);
    await createPost<PostBody>(t.app, author.cookie, 'second');
    expect(await profile(viewer.cookie)).toEqual(['second 0', 'first liked 1']);

    expect(await comments(viewer.cookie, first.id)).toEqual([]);
    const made = await call(commenter.cookie, 'POST', `/api/posts/${first.id}/comments`, { content: 'nice' });
    expect(made.statusCode).toBe(201);
    expect(await comments(viewer.cookie, first.id)).toEqual(['nice']);
    await call(viewer.cookie, 'POST', `/api/users/${commenter.user.id}/block`);
    expect(await comments(viewer.cookie, first.id)).toEqual([]); // a blocked member's comment is left out
    expect(await comments(null, first.id)).toEqual(['nice']);
    await call(viewer.cookie, 'DELETE', `/api/users/${commenter.user.id}/block`);
    expect(await comments(viewer.cookie, first.id)).toEqual(['nice']);
    expect((await call(commenter.cookie, 'DELETE', `/api/comments/${made.json().id}`)).statusCode).toBe(200);
    expect(await comments(viewer.cookie, first.id)).toEqual([]);

    // The author blocks the viewer: their profile is empty to them, the post's comments not found.
    await call(author.cookie, 'POST', `/api/users/${viewer.user.id}/block`);
    expect(await profile(viewer.cookie)).toEqual([]);
    expect(await comments(viewer.cookie, first.id)).toBe(404);
    expect(await comments(null, first.id)).toEqual([]);
    await call(commenter.cookie, 'POST', `/api/posts/${first.id}/comments`, { content: 'again' });
    expect(await comments(viewer.cookie, first.id)).toBe(404);
    expect(await comments(commenter.cookie, first.id)).toEqual(['again']);
  });
});

describe('REST /api/notifications', () => {
  it('lists own notifications newest first and marks them all read', async ({ t }) => {
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const bystander = await registerUser(t.app);
    const { id } = await createPost<PostBody>(t.app, author.cookie, 'notify');
    await t.app.inject({
      method: 'POST',
      url: `/api/posts/${id}/like`,
      headers: { cookie: fan.cookie },
      payload: {},
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/posts/${id}/comments`,
      headers: { cookie: fan.cookie },
      payload: { content: 'hey' },
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/users/${author.user.id}/follow`,
      headers: { cookie: fan.cookie },
    });
    // Acting on your own things says nothing.
    await t.app.inject({ method: 'POST', url: `/api/posts/${id}/like`, headers: { cookie: author.cookie } });

    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: { cookie: author.cookie },
    });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list).toHaveLength(3);
    expect(new Set(list.map((n: { type: string }) => n.type))).toEqual(
      new Set(['like', 'comment', 'follow']),
    );
    for (const n of list) {
      expect(Object.keys(n).sort()).toEqual(
        [
          'id',
          'isRead',
          'message',
          'postId',
          'snippet',
          'timestamp',
          'type',
          'userAvatar',
          'username',
          // grouped notifications (issue #49)
          'groupKey',
          'actors',
          'actorsCount',
          // a removal's and an ended poll's own words (issue #50)
          'removal',
          'poll',
        ].sort(),
      );
      expect(n).toMatchObject({ username: fan.user.username, isRead: false, actorsCount: 1 });
    }
    const timestamps = list.map((n: { timestamp: string }) => n.timestamp);
    expect([...timestamps].sort().reverse()).toEqual(timestamps);
    expect(list.find((n: { type: string }) => n.type === 'like')).toMatchObject({
      message: 'liked your post',
      postId: id,
    });

    const count = await t.app.inject({
      method: 'GET',
      url: '/api/notifications/unread-count',
      headers: { cookie: author.cookie },
    });
    expect(count.json()).toEqual({ count: 3 });
    const others = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: { cookie: bystander.cookie },
    });
    expect(others.json()).toEqual([]);

    const mark = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/mark-all-read',
      headers: { cookie: author.cookie },
    });
    expect(mark.statusCode).toBe(200);
    expect(mark.json()).toEqual({ ok: true, updated: 3 });
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: { cookie: author.cookie },
    });
    expect(after.json().every((n: { isRead: boolean }) => n.isRead)).toBe(true);
  });

  it('keeps the list between reads, yet shows every change at once', async ({ t }) => {
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const { id } = await createPost<PostBody>(t.app, author.cookie, 'kept');
    const as = (cookie: string, method: 'POST' | 'DELETE', url: string) =>
      t.app.inject({ method, url, headers: { cookie }, payload: {} });
    const list = async () =>
      (
        (
          await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { cookie: author.cookie } })
        ).json() as {
          type: string;
        }[]
      ).map((n) => n.type);
    const unread = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/notifications/unread-count',
          headers: { cookie: author.cookie },
        })
      ).json().count;

    // Each state is read twice: the second read comes from memory (member-reads.ts).
    const expectState = async (types: string[]) => {
      for (let i = 0; i < 2; i++) {
        expect(await list()).toEqual(types);
        expect(await unread()).toBe(types.length);
      }
    };
    await expectState([]);
    await as(fan.cookie, 'POST', `/api/posts/${id}/like`);
    await expectState(['like']);
    await as(fan.cookie, 'POST', `/api/users/${author.user.id}/follow`);
    await expectState(['follow', 'like']);
    await as(fan.cookie, 'DELETE', `/api/posts/${id}/like`); // taken back
    await expectState(['follow']);
    await as(author.cookie, 'POST', `/api/users/${fan.user.id}/mute`); // hidden while muted
    await expectState([]);
    await as(author.cookie, 'DELETE', `/api/users/${fan.user.id}/mute`);
    await expectState(['follow']);
  });

  it('needs a login', async ({ t }) => {
    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread-count'],
      ['POST', '/api/notifications/mark-all-read'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(401);
    }
  });
});

describe('social rate limits (scale 1)', () => {
  it('allows 30 posts and comments a minute per user, then 429 with Retry-After', async ({ limited }) => {
    const { cookie } = await registerUser(limited.app);
    const { post: first } = (
      await limited.app.inject({
        method: 'POST',
        url: '/api/posts',
        headers: { cookie },
        payload: { content: 'p0' },
      })
    ).json();
    for (let i = 1; i < 30; i++) {
      const res = await limited.app.inject({
        method: 'POST',
        url: `/api/posts/${first.id}/comments`,
        headers: { cookie },
        payload: { content: `c${i}` },
      });
      expect(res.statusCode).toBe(201);
    }
    const over = await limited.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie },
      payload: { content: 'x' },
    });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Likes are another bucket.
    const like = await limited.app.inject({
      method: 'POST',
      url: `/api/posts/${first.id}/like`,
      headers: { cookie },
    });
    expect(like.statusCode).toBe(200);
  });

  it('allows 120 likes and follows a minute per user', async ({ limited }) => {
    const { cookie } = await registerUser(limited.app);
    const other = await registerUser(limited.app);
    const { post: target } = (
      await limited.app.inject({
        method: 'POST',
        url: '/api/posts',
        headers: { cookie },
        payload: { content: 't' },
      })
    ).json();
    for (let i = 0; i < 60; i++) {
      const like = await limited.app.inject({
        method: 'POST',
        url: `/api/posts/${target.id}/like`,
        headers: { cookie },
      });
      expect(like.statusCode).toBe(200);
      const follow = await limited.app.inject({
        method: 'POST',
        url: `/api/users/${other.user.id}/follow`,
        headers: { cookie },
      });
      expect(follow.statusCode).toBe(200);
    }
    const over = await limited.app.inject({
      method: 'DELETE',
      url: `/api/posts/${target.id}/like`,
      headers: { cookie },
    });
    expect(over.statusCode).toBe(429);
  });
});
