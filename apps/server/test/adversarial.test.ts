/**
 * The adversarial pass of issue #26 (docs/security.md, "Adversarial pass", is its table): another member's ids,
 * unknown and malformed ids, forged cursors and event ids, CSRF, mass assignment, path traversal,
 * SSRF and header injection, against every REST row, tRPC procedure and subscription, on the
 * real app (inject) and real WebSockets. fuzz.test.ts already throws random input at every row;
 * this file is about who may do what to whom. Each test asserts the safe outcome.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_SUBSCRIPTIONS_PER_SOCKET, restRows, setRole } from '@cubes/api';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import WebSocket from 'ws';
import { itWith } from './fixtures.js';
import { newUserInput, registerUser, type TestApp, UNKNOWN_ID } from './harness.js';
import { Events, waitFor } from './live-client.js';

type Member = Awaited<ReturnType<typeof registerUser>>;
type Tracked<T> = { id: string; data: T };

const EVIL = 'https://evil.example';
// A server that counts every request it gets: nothing the app is given may make it fetch.
let probe: Server;
let probeUrl: string;
let probeHits = 0;

let alice: Member;
let bob: Member;
let carol: Member;
let mod: Member;

const it = itWith({ config: { cubey: { offlineDelayMs: 0 } } });

beforeAll(async () => {
  probe = createServer((_req, res) => {
    probeHits += 1;
    res.end('x');
  });
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
});
it.beforeAll(async ({ t }) => {
  [alice, bob, carol, mod] = await Promise.all([
    registerUser(t.app),
    registerUser(t.app),
    registerUser(t.app),
    registerUser(t.app),
  ]);
  await setRole(t.orm.em.fork(), mod.user.username, 'moderator');
});
afterAll(async () => {
  await new Promise((resolve) => probe.close(resolve));
});

function req(
  t: TestApp,
  method: InjectOptions['method'],
  url: string,
  cookie?: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** A tRPC call over HTTP; the answer's error code (or 'OK') and data. */
async function trpc(
  t: TestApp,
  cookie: string | undefined,
  path: string,
  input?: unknown,
  type: 'query' | 'mutation' = 'mutation',
) {
  const res =
    type === 'query'
      ? await req(
          t,
          'GET',
          `/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
          cookie,
        )
      : await req(t, 'POST', `/trpc/${path}`, cookie, { json: input });
  const body = res.json() as {
    result?: { data: { json: unknown } };
    error?: { json: { data: { code: string } } };
  };
  return {
    status: res.statusCode,
    code: body.error ? body.error.json.data.code : 'OK',
    data: body.result?.data.json,
  };
}

function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ code });
  expect(res.body).not.toMatch(/\bat \S+:\d+:\d+/); // no stack
}

/** A cursor or event id as a keyset writes them, made by hand: `name|part|part`. */
function forge(...parts: string[]): string {
  return Buffer.from(parts.join('|')).toString('base64url');
}

async function post(t: TestApp, cookie: string, content = 'a post') {
  const res = await req(t, 'POST', '/api/posts', cookie, { content });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().post as { id: string; content: string };
}

async function dm(t: TestApp, from: Member, to: Member, content: string, clientId?: string) {
  const res = await req(t, 'POST', '/api/messages', from.cookie, {
    receiverId: to.user.id,
    content,
    ...(clientId ? { clientId } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; senderId: string; receiverId: string };
}

async function upload(
  t: TestApp,
  cookie: string,
): Promise<{ uploadURL: string; key: string; objectPath: string }> {
  const made = await req(t, 'POST', '/api/objects/upload', cookie);
  const { uploadURL } = made.json() as { uploadURL: string };
  const key = new URL(uploadURL, 'http://x').pathname.replace('/api/objects/put/', '');
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  const put = await t.app.inject({
    method: 'PUT',
    url: uploadURL,
    payload: bytes,
    headers: { 'content-type': 'image/png' },
  });
  expect(put.statusCode, put.body).toBe(200);
  const acl = await req(t, 'PUT', '/api/objects/set-acl', cookie, {
    imageURL: uploadURL,
    visibility: 'public',
  });
  expect(acl.statusCode, acl.body).toBe(200);
  return { uploadURL, key, objectPath: acl.json().objectPath as string };
}

/** A gallery item (the gallery has no upload endpoint: items come from the seed). */
async function addMedia(t: TestApp, creatorId: string): Promise<string> {
  const id = randomUUID();
  await t.orm.em.fork().execute(
    `insert into ai_media (id, type, title, image_url, width, height, creator_id, created_at)
       values (?, 'art', 'An item', '/objects/demo/x.png', 640, 480, ?, now())`,
    [id, creatorId],
  );
  return id;
}

async function suspend(t: TestApp, member: Member): Promise<void> {
  const done = await trpc(t, mod.cookie, 'moderation.suspend', {
    userId: member.user.id,
    days: 1,
    reason: 'x',
  });
  expect(done.code).toBe('OK');
}

describe('logged out', () => {
  it('every REST row marked auth answers 401 without a session, and with a forged or oversized cookie', async ({
    t,
  }) => {
    const forged = ['cubes_session=x', `cubes_session=${'A'.repeat(200)}`, 'cubes_session=%00%0d%0a'];
    for (const route of restRows.filter((r) => 'auth' in r && r.auth)) {
      const url = route.path.replace(/:[A-Za-z]+/g, UNKNOWN_ID);
      for (const cookie of [undefined, ...forged]) {
        const res = await req(t, route.method, url, cookie, route.method === 'GET' ? undefined : {});
        expect(res.statusCode, `${route.method} ${url} ${cookie}`).toBe(401);
        expect(res.json().code).toBe('UNAUTHORIZED');
      }
    }
  });

  it('the tRPC-only member procedures are 401, the moderators’ 404, logged out', async ({ t }) => {
    for (const [path, input] of [
      ['cubey.send', { message: 'hi' }],
      ['cubey.regenerate', { sessionId: UNKNOWN_ID }],
      ['cubey.stop', { messageId: UNKNOWN_ID }],
      ['messages.typing', { userId: UNKNOWN_ID }],
      ['messages.peer', { userId: UNKNOWN_ID }],
      ['safety.blocked', {}],
      ['safety.muted', {}],
    ] as const) {
      const type = path.startsWith('safety.') || path === 'messages.peer' ? 'query' : 'mutation';
      expect((await trpc(t, undefined, path, input, type)).code, path).toBe('UNAUTHORIZED');
    }
    for (const path of ['reports', 'log']) {
      expect((await trpc(t, undefined, `moderation.${path}`, {}, 'query')).code).toBe('NOT_FOUND');
    }
  });
});

describe('CSRF: state-changing requests from another site', () => {
  it('are refused (403) on REST and /trpc, with a session cookie or without; nothing is written', async ({
    t,
  }) => {
    const mine = await post(t, alice.cookie, 'csrf target');
    const attempts: [InjectOptions['method'], string, unknown][] = [
      ['POST', '/api/posts', { content: 'forged' }],
      ['PATCH', `/api/posts/${mine.id}`, { content: 'forged' }],
      ['DELETE', `/api/posts/${mine.id}`, undefined],
      ['PUT', '/api/settings', { bio: 'forged' }],
      ['POST', '/api/account/delete', { password: alice.input.password }],
      ['POST', '/api/sessions/end-others', {}],
      ['POST', '/api/auth/logout', {}],
      ['POST', '/api/auth/login', { email: alice.input.email, password: alice.input.password }],
      ['POST', '/api/auth/register', newUserInput('csrf')],
      ['POST', '/trpc/posts.create', { json: { content: 'forged' } }],
      ['POST', '/trpc/posts.create,posts.delete?batch=1', { 0: { json: { content: 'x' } } }],
    ];
    for (const origin of [EVIL, 'null', 'http://localhost.evil.example']) {
      for (const [method, url, payload] of attempts) {
        const res = await req(t, method, url, alice.cookie, payload, { origin });
        expect(res.statusCode, `${method} ${url} from ${origin}`).toBe(403);
        expect(res.json()).toEqual({
          message: 'Cross-origin request refused',
          code: 'FORBIDDEN',
          reason: 'CROSS_ORIGIN_REFUSED',
        });
      }
    }
    const still = await req(t, 'GET', '/api/auth/me', alice.cookie);
    expect(still.statusCode).toBe(200);
    expect(still.json().user.bio).toBeNull();
    const page = await req(t, 'GET', `/api/users/${alice.user.id}/posts`, alice.cookie);
    expect((page.json() as { content: string }[]).map((p) => p.content)).not.toContain('forged');
    expect((await trpc(t, alice.cookie, 'posts.byId', { postId: mine.id }, 'query')).code).toBe('OK');
  });

  it('a mutation cannot be reached by GET (a link or <img>), and a foreign or "null" Origin cannot open a socket', async ({
    t,
    base,
  }) => {
    for (const path of ['auth.logout', 'posts.create', 'sessions.endOthers', 'account.requestExport']) {
      const res = await req(t, 'GET', `/trpc/${path}`, alice.cookie);
      expect(res.statusCode, path).toBe(405);
    }
    for (const origin of [EVIL, 'null']) {
      const status = await new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(`${base.replace('http', 'ws')}/trpc`, {
          headers: { origin, cookie: alice.cookie },
        });
        socket.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
        socket.on('open', () => reject(new Error('upgrade accepted')));
        socket.on('error', () => {});
      });
      expect(status).toBe(403);
    }
  });
});

describe('auth, sessions and settings', () => {
  it('register and settings ignore fields a member may not set (role, id, email, username, password hash)', async ({
    t,
  }) => {
    const input = newUserInput('mass');
    const res = await req(t, 'POST', '/api/auth/register', undefined, {
      ...input,
      role: 'moderator',
      isModerator: true,
      id: UNKNOWN_ID,
      suspendedAt: null,
      emailVisible: true,
    });
    expect(res.statusCode).toBe(201);
    const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect(res.json().isModerator).toBe(false);
    expect(res.json().user.id).not.toBe(UNKNOWN_ID);
    expect((await trpc(t, cookie, 'moderation.reports', {}, 'query')).code).toBe('NOT_FOUND');

    const update = await req(t, 'PUT', '/api/settings', cookie, {
      bio: 'ok',
      email: 'stolen@example.com',
      username: 'admin',
      role: 'admin',
      passwordHash: '!',
    });
    expect(update.statusCode).toBe(200);
    const settings = (await req(t, 'GET', '/api/settings', cookie)).json();
    expect(settings).toMatchObject({ bio: 'ok', email: input.email, username: input.username });
    const login = await req(t, 'POST', '/api/auth/login', undefined, {
      email: input.email,
      password: input.password,
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().isModerator).toBe(false);
  });

  it('another member’s session cannot be listed or ended; unknown and malformed ids are 404', async ({
    t,
  }) => {
    const bobs = (await req(t, 'GET', '/api/sessions', bob.cookie)).json().sessions as { id: string }[];
    const alices = (await req(t, 'GET', '/api/sessions', alice.cookie)).json().sessions as { id: string }[];
    expect(alices.map((s) => s.id)).not.toContain(bobs[0]!.id);
    for (const id of [bobs[0]!.id, UNKNOWN_ID, 'not-a-uuid', '..%2f..%2fauth%2fme', 'x'.repeat(100)]) {
      expectError(await req(t, 'DELETE', `/api/sessions/${id}`, alice.cookie), 404, 'NOT_FOUND');
    }
    // Control characters are refused by the input rule before any look-up.
    expectError(await req(t, 'DELETE', '/api/sessions/%00', alice.cookie), 400, 'BAD_REQUEST');
    expect((await req(t, 'GET', '/api/auth/me', bob.cookie)).statusCode).toBe(200);
    // Logging out everywhere else ends only one's own other sessions.
    const second = await req(t, 'POST', '/api/auth/login', undefined, {
      email: alice.input.email,
      password: alice.input.password,
    });
    expect(second.statusCode).toBe(200);
    const ended = await req(t, 'POST', '/api/sessions/end-others', alice.cookie);
    expect(ended.json()).toEqual({ ended: 1 });
    expect((await req(t, 'GET', '/api/auth/me', bob.cookie)).statusCode).toBe(200);
    expect((await req(t, 'GET', '/api/auth/me', alice.cookie)).statusCode).toBe(200);
  });

  it('a logged-out cookie replayed is 401 everywhere; logout without a session is harmless', async ({
    t,
  }) => {
    const eve = await registerUser(t.app);
    expect((await req(t, 'POST', '/api/auth/logout', eve.cookie)).json()).toEqual({ ok: true });
    expectError(await req(t, 'GET', '/api/auth/me', eve.cookie), 401, 'UNAUTHORIZED');
    expectError(await req(t, 'POST', '/api/posts', eve.cookie, { content: 'ghost' }), 401, 'UNAUTHORIZED');
    expect((await trpc(t, eve.cookie, 'sessions.list', undefined, 'query')).code).toBe('UNAUTHORIZED');
    expect((await req(t, 'POST', '/api/auth/logout')).statusCode).toBe(200);
  });

  it('password, e-mail and account deletion need the password; a wrong one changes nothing', async ({
    t,
  }) => {
    const eve = await registerUser(t.app);
    expectError(
      await req(t, 'POST', '/api/settings/password', eve.cookie, {
        currentPassword: 'wrong!!',
        newPassword: 'newpass12',
      }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await req(t, 'POST', '/api/settings/email', eve.cookie, {
        email: 'x@example.com',
        password: 'wrong!!',
      }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await req(t, 'POST', '/api/account/delete', eve.cookie, { password: 'wrong!!' }),
      400,
      'BAD_REQUEST',
    );
    const me = await req(t, 'GET', '/api/settings', eve.cookie);
    expect(me.json().email).toBe(eve.input.email);
    // Another member's address answers as a free one (it tells nothing), and changes nothing
    // until a code mailed to that address is confirmed.
    const taken = await req(t, 'POST', '/api/settings/email', eve.cookie, {
      email: alice.input.email,
      password: eve.input.password,
    });
    expect(taken.statusCode).toBe(202);
    expect((await req(t, 'GET', '/api/settings', eve.cookie)).json().email).toBe(eve.input.email);
  });

  it('an e-mail address differing only in case is the same account (no duplicate, no takeover)', async ({
    t,
  }) => {
    const upper = alice.input.email.toUpperCase();
    expectError(
      await req(t, 'POST', '/api/auth/register', undefined, { ...newUserInput(), email: upper }),
      409,
      'CONFLICT',
    );
    const eve = await registerUser(t.app);
    const asked = await req(t, 'POST', '/api/settings/email', eve.cookie, {
      email: upper,
      password: eve.input.password,
    });
    expect(asked.statusCode).toBe(202);
    // Nothing changed, and no code can be guessed into a takeover.
    expectError(
      await req(t, 'POST', '/api/settings/email/confirm', eve.cookie, { code: '123456' }),
      400,
      'BAD_REQUEST',
    );
    expect((await req(t, 'GET', '/api/settings', eve.cookie)).json().email).toBe(eve.input.email);
  });

  it('usernames cannot carry header or path characters (they go into the export’s file name)', async ({
    t,
  }) => {
    for (const username of ['a"b_cd', 'ab\r\ncd', 'ab/../cd', 'ab;cd', '~deleted']) {
      const res = await req(t, 'POST', '/api/auth/register', undefined, { ...newUserInput(), username });
      expectError(res, 400, 'BAD_REQUEST');
    }
  });
});

describe('posts and comments of others', () => {
  it('editing or deleting another member’s post is 404 and changes nothing; so are unknown and malformed ids', async ({
    t,
  }) => {
    const mine = await post(t, alice.cookie, 'alice original');
    for (const id of [mine.id, UNKNOWN_ID, 'nope', `${mine.id}x`, '%F0%9F%A7%8A']) {
      expectError(
        await req(t, 'PATCH', `/api/posts/${id}`, bob.cookie, { content: 'bob was here' }),
        404,
        'NOT_FOUND',
      );
      expectError(await req(t, 'DELETE', `/api/posts/${id}`, bob.cookie), 404, 'NOT_FOUND');
    }
    expect((await trpc(t, bob.cookie, 'posts.edit', { postId: mine.id, content: 'via trpc' })).code).toBe(
      'NOT_FOUND',
    );
    expect((await trpc(t, bob.cookie, 'posts.delete', { postId: mine.id })).code).toBe('NOT_FOUND');
    const after = await trpc(t, bob.cookie, 'posts.byId', { postId: mine.id }, 'query');
    expect(after.data).toMatchObject({ post: { content: 'alice original', editedAt: null } });
    expect((await req(t, 'GET', `/api/posts/${mine.id}/revisions`)).json()).toEqual({ revisions: [] });
  });

  it('a post cannot be written as someone else, or with another member’s image, or with a path outside storage', async ({
    t,
  }) => {
    const theirs = await upload(t, bob.cookie);
    const res = await req(t, 'POST', '/api/posts', alice.cookie, {
      content: 'mine',
      authorId: bob.user.id,
      userId: bob.user.id,
      likesCount: 1_000_000,
      createdAt: '2000-01-01T00:00:00.000Z',
    });
    expect(res.json().post).toMatchObject({ userId: alice.user.id, likesCount: 0 });
    expect(res.json().post.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
    for (const imageUrl of [
      theirs.objectPath,
      '/objects/uploads/../../../etc/passwd',
      '/objects/%2e%2e/secret',
      `${probeUrl}/x.png`,
      'javascript:alert(1)',
    ]) {
      expectError(
        await req(t, 'POST', '/api/posts', alice.cookie, { content: 'img', imageUrl }),
        400,
        'BAD_REQUEST',
      );
    }
  });

  it('only its author or the post’s author deletes a comment; a third member gets 404', async ({ t }) => {
    const carolsPost = await post(t, carol.cookie, 'carol’s thread');
    const made = await req(t, 'POST', `/api/posts/${carolsPost.id}/comments`, alice.cookie, {
      content: 'alice comments',
      authorId: bob.user.id,
    });
    expect(made.json()).toMatchObject({ userId: alice.user.id });
    const commentId = made.json().id as string;
    for (const id of [commentId, UNKNOWN_ID, 'x']) {
      expectError(await req(t, 'DELETE', `/api/comments/${id}`, bob.cookie), 404, 'NOT_FOUND');
    }
    const listed = await req(t, 'GET', `/api/posts/${carolsPost.id}/comments`);
    expect((listed.json() as { id: string }[]).map((c) => c.id)).toContain(commentId);
    // The post's author may tidy their thread (by design).
    expect((await req(t, 'DELETE', `/api/comments/${commentId}`, carol.cookie)).json()).toEqual({ ok: true });
  });

  it('a block hides the blocker’s post from the blocked member: like, comment, read, revisions are 404', async ({
    t,
  }) => {
    const hidden = await post(t, carol.cookie, 'not for bob');
    const dave = await registerUser(t.app);
    const block = await req(t, 'POST', `/api/users/${dave.user.id}/block`, carol.cookie);
    expect(block.json()).toEqual({ blocked: true });
    expectError(await req(t, 'POST', `/api/posts/${hidden.id}/like`, dave.cookie), 404, 'NOT_FOUND');
    expectError(
      await req(t, 'POST', `/api/posts/${hidden.id}/comments`, dave.cookie, { content: 'hi' }),
      404,
      'NOT_FOUND',
    );
    expectError(await req(t, 'GET', `/api/posts/${hidden.id}/comments`, dave.cookie), 404, 'NOT_FOUND');
    expectError(await req(t, 'GET', `/api/posts/${hidden.id}/revisions`, dave.cookie), 404, 'NOT_FOUND');
    expect((await trpc(t, dave.cookie, 'posts.byId', { postId: hidden.id }, 'query')).code).toBe('NOT_FOUND');
    // The blocked member "unblocking" the blocker lifts nothing.
    expect((await req(t, 'DELETE', `/api/users/${carol.user.id}/block`, dave.cookie)).json()).toEqual({
      blocked: false,
    });
    expectError(await req(t, 'POST', `/api/posts/${hidden.id}/like`, dave.cookie), 404, 'NOT_FOUND');
    expectError(await req(t, 'POST', `/api/users/${carol.user.id}/follow`, dave.cookie), 403, 'FORBIDDEN');
    for (const tab of ['posts', 'media', 'favorites']) {
      const res = await req(t, 'GET', `/api/users/${carol.user.id}/${tab}`, dave.cookie);
      expect(res.body, tab).not.toContain(hidden.id);
    }
    // Their profile by name shows no details to the blocked member.
    const profile = await req(t, 'GET', `/api/users/by-username/${carol.user.username}`, dave.cookie);
    expect(profile.json().user).toMatchObject({ email: null, bio: null, avatarUrl: null, headerUrl: null });
  });

  it('a post removed by a moderator cannot be edited back by its author', async ({ t }) => {
    const bad = await post(t, bob.cookie, 'rule-breaking');
    const report = await req(t, 'POST', '/api/reports', alice.cookie, {
      targetType: 'post',
      targetId: bad.id,
      reason: 'spam',
    });
    expect(report.statusCode).toBe(201);
    const removed = await trpc(t, mod.cookie, 'moderation.remove', {
      reportId: report.json().id,
      reason: 'spam',
    });
    expect(removed.code).toBe('OK');
    expectError(
      await req(t, 'PATCH', `/api/posts/${bad.id}`, bob.cookie, { content: 'innocent now' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await req(t, 'POST', `/api/posts/${bad.id}/comments`, bob.cookie, { content: 'x' }),
      404,
      'NOT_FOUND',
    );
    expectError(await req(t, 'GET', `/api/posts/${bad.id}/revisions`), 404, 'NOT_FOUND');
  });
});

describe('hostile text (fuzz.test.ts covers every row; these are the cases #26 names)', () => {
  it('NUL and control characters are 400, a 70,000-character body is 413, emoji are kept exactly', async ({
    t,
  }) => {
    for (const [url, field] of [
      ['/api/posts', 'content'],
      ['/api/messages', 'content'],
      ['/api/cubey/chat', 'message'],
      ['/api/reports', 'reason'],
    ] as const) {
      const body = { receiverId: carol.user.id, targetType: 'user', targetId: carol.user.id };
      expectError(
        await req(t, 'POST', url, bob.cookie, { ...body, [field]: 'a\u0000b' }),
        400,
        'BAD_REQUEST',
      );
      expectError(
        await req(t, 'POST', url, bob.cookie, { ...body, [field]: 'a\u001bb' }),
        400,
        'BAD_REQUEST',
      );
      expectError(
        await req(t, 'POST', url, bob.cookie, { ...body, [field]: 'x'.repeat(70_000) }),
        413,
        'PAYLOAD_TOO_LARGE',
      );
    }
    const emoji = '🧊 cubes 👩🏽‍💻 ∑ 漢字';
    expect((await post(t, bob.cookie, emoji)).content).toBe(emoji);
    expect((await req(t, 'PUT', '/api/settings', bob.cookie, { displayName: 'x\u0000' })).statusCode).toBe(
      400,
    );
  });
});

describe('likes, follows, blocks, mutes and favourites of others', () => {
  it('one member cannot undo another’s like, follow or favourite, nor read their block and mute lists', async ({
    t,
  }) => {
    const target = await post(t, alice.cookie, 'liked by carol');
    expect((await req(t, 'POST', `/api/posts/${target.id}/like`, carol.cookie)).json()).toEqual({
      liked: true,
      likesCount: 1,
    });
    expect((await req(t, 'DELETE', `/api/posts/${target.id}/like`, bob.cookie)).json()).toEqual({
      liked: false,
      likesCount: 1,
    });
    await req(t, 'POST', `/api/users/${alice.user.id}/follow`, carol.cookie);
    const unfollow = await req(t, 'DELETE', `/api/users/${alice.user.id}/follow`, bob.cookie);
    expect(unfollow.json()).toMatchObject({ following: false });
    expect(unfollow.json().followersCount).toBeGreaterThanOrEqual(1);
    const mediaId = await addMedia(t, alice.user.id);
    await req(t, 'POST', `/api/gallery/${mediaId}/favorite`, carol.cookie);
    expect((await req(t, 'DELETE', `/api/gallery/${mediaId}/favorite`, bob.cookie)).json()).toEqual({
      favorited: false,
      favoritesCount: 1,
    });
    expect((await req(t, 'GET', '/api/gallery/favorites', bob.cookie)).json()).toEqual([]);

    const muter = await registerUser(t.app);
    await req(t, 'POST', `/api/users/${bob.user.id}/mute`, muter.cookie);
    await req(t, 'POST', `/api/users/${carol.user.id}/block`, muter.cookie);
    for (const list of ['safety.blocked', 'safety.muted']) {
      const mine = await trpc(t, bob.cookie, list, {}, 'query');
      expect(JSON.stringify(mine.data)).not.toContain(muter.user.id);
    }
    // Self and unknown targets.
    for (const action of ['follow', 'block', 'mute']) {
      expectError(
        await req(t, 'POST', `/api/users/${bob.user.id}/${action}`, bob.cookie),
        400,
        'BAD_REQUEST',
      );
      expectError(await req(t, 'POST', `/api/users/${UNKNOWN_ID}/${action}`, bob.cookie), 404, 'NOT_FOUND');
      expectError(await req(t, 'DELETE', `/api/users/not-an-id/${action}`, bob.cookie), 404, 'NOT_FOUND');
    }
    expectError(await req(t, 'GET', `/api/users/${UNKNOWN_ID}/stats`), 404, 'NOT_FOUND');
    expectError(await req(t, 'GET', '/api/users/by-username/..%2fadmin'), 404, 'NOT_FOUND');
  });
});

describe('paging: forged cursors and limits', () => {
  it('a cursor of another list, a hand-made one or a huge limit is 400; a far-future cursor is only an empty page', async ({
    t,
  }) => {
    const threadCursor = forge('dm-thread', '2026-01-01T00:00:00.000000Z', UNKNOWN_ID);
    const commentCursor = forge('comments', '2026-01-01T00:00:00.000000Z', UNKNOWN_ID);
    for (const url of [
      `/api/posts/feed?cursor=${threadCursor}`,
      `/api/posts/feed?cursor=${commentCursor}`,
      `/api/posts/feed?cursor=${forge('posts', "2026-01-01'; drop table posts;--", UNKNOWN_ID)}`,
      `/api/posts/feed?cursor=${forge('posts', '2026-01-01T00:00:00.000000Z', UNKNOWN_ID, 'extra')}`,
      `/api/users/${alice.user.id}/posts?cursor=${'A'.repeat(201)}`,
      '/api/posts/feed?limit=1000000000',
      '/api/posts/feed?limit=-1',
      '/api/posts/feed?limit=1e400',
      `/api/gallery?cursor=${threadCursor}`,
    ]) {
      expectError(await req(t, 'GET', url, alice.cookie), 400, 'BAD_REQUEST');
    }
    // The keyset continues after any valid position: one far ahead is an empty page, not an error.
    const future = await req(
      t,
      'GET',
      `/api/posts/feed?cursor=${forge('posts', '1970-01-01T00:00:00.000000Z', UNKNOWN_ID)}`,
    );
    expect(future.statusCode).toBe(200);
    expect(future.json()).toEqual([]);
  });
});

describe('direct messages of others', () => {
  it('a member reads, pages and marks only their own threads, even with a cursor forged for another’s', async ({
    t,
  }) => {
    const secret = await dm(t, alice, carol, 'alice→carol secret');
    // bob asks for "his thread with carol" and for alice's, with cursors aimed at their messages.
    for (const peer of [carol, alice]) {
      const thread = await req(t, 'GET', `/api/messages/${peer.user.id}`, bob.cookie);
      expect(thread.statusCode).toBe(200);
      expect(thread.body).not.toContain('secret');
      const cursor = forge('dm-thread', '9999-12-31T00:00:00.000000Z', UNKNOWN_ID);
      const paged = await req(t, 'GET', `/api/messages/${peer.user.id}?cursor=${cursor}`, bob.cookie);
      expect(paged.json()).toEqual([]);
    }
    const marked = await req(t, 'POST', `/api/messages/${alice.user.id}/read`, bob.cookie);
    expect(marked.json()).toEqual({ ok: true, updated: 0 });
    const carolsUnread = await req(t, 'GET', '/api/messages/unread-count', carol.cookie);
    expect(carolsUnread.json().count).toBeGreaterThanOrEqual(1);
    expect((await req(t, 'GET', '/api/messages/conversations', bob.cookie)).body).not.toContain(secret.id);
    for (const id of [UNKNOWN_ID, 'x', '%00']) {
      expect((await req(t, 'GET', `/api/messages/${id}`, bob.cookie)).statusCode).toBe(
        id === '%00' ? 400 : 404,
      );
    }
  });

  it('a message cannot be sent as someone else, to oneself, or past a block or "nobody"', async ({ t }) => {
    const sent = await req(t, 'POST', '/api/messages', bob.cookie, {
      receiverId: carol.user.id,
      senderId: alice.user.id,
      content: 'spoofed?',
    });
    expect(sent.json()).toMatchObject({ senderId: bob.user.id, receiverId: carol.user.id });
    expectError(
      await req(t, 'POST', '/api/messages', bob.cookie, { receiverId: bob.user.id, content: 'me' }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await req(t, 'POST', '/api/messages', bob.cookie, { receiverId: UNKNOWN_ID, content: 'nobody' }),
      404,
      'NOT_FOUND',
    );
    const shy = await registerUser(t.app);
    await req(t, 'PUT', '/api/settings', shy.cookie, { messagesFrom: 'nobody' });
    expectError(
      await req(t, 'POST', '/api/messages', bob.cookie, { receiverId: shy.user.id, content: 'hi' }),
      403,
      'FORBIDDEN',
    );
    expect((await trpc(t, bob.cookie, 'messages.typing', { userId: shy.user.id })).code).toBe('FORBIDDEN');
    const blocker = await registerUser(t.app);
    await req(t, 'POST', `/api/users/${bob.user.id}/block`, blocker.cookie);
    expectError(
      await req(t, 'POST', '/api/messages', bob.cookie, { receiverId: blocker.user.id, content: 'hi' }),
      403,
      'FORBIDDEN',
    );
    expect((await trpc(t, bob.cookie, 'messages.typing', { userId: blocker.user.id })).code).toBe(
      'FORBIDDEN',
    );
  });

  it('another member’s clientId gives its owner’s message back to no one else', async ({ t }) => {
    const first = await dm(t, alice, carol, 'with a client id', 'shared-client-id');
    const bobs = await dm(t, bob, carol, 'same client id, other sender', 'shared-client-id');
    expect(bobs.id).not.toBe(first.id);
    expect(bobs).toMatchObject({ senderId: bob.user.id, clientId: 'shared-client-id' });
    // The same sender reusing it for someone else is a conflict, not the first message.
    expectError(
      await req(t, 'POST', '/api/messages', alice.cookie, {
        receiverId: bob.user.id,
        content: 'reuse',
        clientId: 'shared-client-id',
      }),
      409,
      'CONFLICT',
    );
  });

  it('only the receiver can report a message; nobody reports their own things', async ({ t }) => {
    const msg = await dm(t, alice, carol, 'reportable');
    for (const who of [bob, alice]) {
      expectError(
        await req(t, 'POST', '/api/reports', who.cookie, {
          targetType: 'message',
          targetId: msg.id,
          reason: 'x',
        }),
        404,
        'NOT_FOUND',
      );
    }
    const own = await post(t, bob.cookie, 'mine');
    expectError(
      await req(t, 'POST', '/api/reports', bob.cookie, { targetType: 'post', targetId: own.id, reason: 'x' }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await req(t, 'POST', '/api/reports', bob.cookie, {
        targetType: 'user',
        targetId: bob.user.id,
        reason: 'x',
      }),
      400,
      'BAD_REQUEST',
    );
    expect(
      (
        await req(t, 'POST', '/api/reports', carol.cookie, {
          targetType: 'message',
          targetId: msg.id,
          reason: 'x',
        })
      ).statusCode,
    ).toBe(201);
  });
});

describe('notifications of others', () => {
  it('a member sees and clears only their own bell', async ({ t }) => {
    const target = await post(t, alice.cookie, 'like me');
    await req(t, 'POST', `/api/posts/${target.id}/like`, carol.cookie);
    const before = (await req(t, 'GET', '/api/notifications/unread-count', alice.cookie)).json()
      .count as number;
    expect(before).toBeGreaterThan(0);
    expect((await req(t, 'GET', '/api/notifications', bob.cookie)).body).not.toContain(target.id);
    await req(t, 'POST', '/api/notifications/mark-all-read', bob.cookie);
    expect((await req(t, 'GET', '/api/notifications/unread-count', alice.cookie)).json().count).toBe(before);
  });
});

describe('Cubey chats of others', () => {
  it('another member’s chat cannot be read, written to, regenerated or stopped (404), and is left as it was', async ({
    t,
  }) => {
    const chat = await req(t, 'POST', '/api/cubey/chat', alice.cookie, { message: 'my private question' });
    expect(chat.statusCode, chat.body).toBe(200);
    const { sessionId, reply } = chat.json() as { sessionId: string; reply: { id: string } };
    const before = (
      await req(t, 'GET', `/api/cubey/sessions/${sessionId}/messages`, alice.cookie)
    ).json() as unknown[];

    expect((await req(t, 'GET', '/api/cubey/sessions', bob.cookie)).body).not.toContain(sessionId);
    for (const id of [sessionId, UNKNOWN_ID, 'x']) {
      expectError(await req(t, 'GET', `/api/cubey/sessions/${id}/messages`, bob.cookie), 404, 'NOT_FOUND');
    }
    expectError(
      await req(t, 'POST', '/api/cubey/chat', bob.cookie, { message: 'hijack', sessionId }),
      404,
      'NOT_FOUND',
    );
    expect((await trpc(t, bob.cookie, 'cubey.send', { message: 'hijack', sessionId })).code).toBe(
      'NOT_FOUND',
    );
    expect((await trpc(t, bob.cookie, 'cubey.regenerate', { sessionId })).code).toBe('NOT_FOUND');
    expect((await trpc(t, bob.cookie, 'cubey.stop', { messageId: reply.id })).code).toBe('NOT_FOUND');
    const after = (
      await req(t, 'GET', `/api/cubey/sessions/${sessionId}/messages`, alice.cookie)
    ).json() as unknown[];
    expect(after).toEqual(before);
  });
});

describe('moderation as a member', () => {
  it('every moderator procedure is 404 to a member; a moderator cannot suspend themself or a moderator', async ({
    t,
  }) => {
    const calls: [string, unknown, 'query' | 'mutation'][] = [
      ['moderation.reports', {}, 'query'],
      ['moderation.log', {}, 'query'],
      ['moderation.dismiss', { reportId: UNKNOWN_ID }, 'mutation'],
      ['moderation.remove', { reportId: UNKNOWN_ID, reason: 'x' }, 'mutation'],
      ['moderation.suspend', { userId: alice.user.id, days: null, reason: 'x' }, 'mutation'],
      ['moderation.unsuspend', { userId: alice.user.id, reason: 'x' }, 'mutation'],
    ];
    for (const [path, input, type] of calls) {
      expect((await trpc(t, bob.cookie, path, input, type)).code, path).toBe('NOT_FOUND');
    }
    expect((await req(t, 'GET', '/api/auth/me', alice.cookie)).statusCode).toBe(200);
    const other = await registerUser(t.app);
    await setRole(t.orm.em.fork(), other.user.username, 'moderator');
    for (const userId of [mod.user.id, other.user.id]) {
      expect((await trpc(t, mod.cookie, 'moderation.suspend', { userId, days: 1, reason: 'x' })).code).toBe(
        'BAD_REQUEST',
      );
    }
  });
});

describe('uploads, objects and exports of others', () => {
  it('another member’s upload cannot be published, shown as one’s avatar or banner, or overwritten', async ({
    t,
  }) => {
    const made = await req(t, 'POST', '/api/objects/upload', alice.cookie);
    const alicesUrl = made.json().uploadURL as string;
    const alicesKey = new URL(alicesUrl, 'http://x').pathname.replace('/api/objects/put/', '');
    expectError(
      await req(t, 'PUT', '/api/objects/set-acl', bob.cookie, { imageURL: alicesUrl, visibility: 'public' }),
      404,
      'NOT_FOUND',
    );
    const published = await upload(t, alice.cookie);
    for (const url of ['/api/users/profile-image', '/api/users/banner-image']) {
      expectError(
        await req(t, 'PUT', url, bob.cookie, { objectPath: published.objectPath }),
        400,
        'BAD_REQUEST',
      );
    }
    expectError(
      await req(t, 'PUT', '/api/settings', bob.cookie, { avatarUrl: published.objectPath }),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await req(t, 'PUT', '/api/settings', bob.cookie, { headerUrl: published.objectPath }),
      400,
      'BAD_REQUEST',
    );
    // A published object's upload URL is spent; a signature for one key does not open another.
    const again = await t.app.inject({ method: 'PUT', url: published.uploadURL, payload: Buffer.from('x') });
    expectError(again, 403, 'FORBIDDEN');
    const query = new URL(alicesUrl, 'http://x').search;
    const bobsKey = new URL(
      (await req(t, 'POST', '/api/objects/upload', bob.cookie)).json().uploadURL,
      'http://x',
    ).pathname;
    for (const path of [bobsKey, `/api/objects/put/${alicesKey}/../../x`, `/api/objects/put/${alicesKey}x`]) {
      const res = await t.app.inject({ method: 'PUT', url: `${path}${query}`, payload: Buffer.from('x') });
      expect(res.statusCode, path).toBe(403);
    }
  });

  it('/objects serves only public uploads: private keys, traversal and CRLF in the path are 404 with no injected header', async ({
    t,
  }) => {
    const made = await req(t, 'POST', '/api/objects/upload', alice.cookie);
    const key = new URL(made.json().uploadURL as string, 'http://x').pathname.replace(
      '/api/objects/put/',
      '',
    );
    for (const path of [
      `/objects/${key}`,
      '/objects/..%2f..%2f..%2fetc%2fpasswd',
      '/objects/uploads/..%2f..%2fpackage.json',
      '/objects/%2e%2e/%2e%2e/package.json',
      '/objects/uploads/x%0d%0aSet-Cookie:%20stolen=1',
      '/objects/.tmp/x',
      '/exports/..%2f..%2fpackage.json',
      '/exports/x%0d%0aSet-Cookie:%20stolen=1',
    ]) {
      const res = await req(t, 'GET', path, alice.cookie);
      expect([400, 404], path).toContain(res.statusCode);
      expect(res.headers['set-cookie'], path).toBeUndefined();
      expect(res.json().code).toMatch(/NOT_FOUND|BAD_REQUEST/);
    }
  });

  it('another member’s data export is 404 to download and absent from their export row', async ({ t }) => {
    const eve = await registerUser(t.app);
    expect((await req(t, 'POST', '/api/account/export', eve.cookie)).statusCode).toBe(202);
    const done = await vi.waitFor(
      async () => {
        const res = (await req(t, 'GET', '/api/account/export', eve.cookie)).json();
        expect(res).toMatchObject({ status: 'done' });
        return res as { id: string; downloadUrl: string };
      },
      { timeout: 10_000, interval: 25 },
    );
    expect((await req(t, 'GET', done.downloadUrl, eve.cookie)).statusCode).toBe(200);
    expectError(await req(t, 'GET', done.downloadUrl, bob.cookie), 404, 'NOT_FOUND');
    expectError(await req(t, 'GET', done.downloadUrl), 401, 'UNAUTHORIZED');
    expectError(await req(t, 'GET', done.downloadUrl.toUpperCase(), bob.cookie), 404, 'NOT_FOUND');
    expect((await req(t, 'GET', '/api/account/export', bob.cookie)).body).not.toContain(done.id);
  });
});

describe('SSRF', () => {
  it('no field makes the server fetch a URL: set-acl, avatar and banner URLs, posts, Cubey, reports', async ({
    t,
  }) => {
    const hitsBefore = probeHits;
    expectError(
      await req(t, 'PUT', '/api/objects/set-acl', alice.cookie, {
        imageURL: `${probeUrl}/api/objects/put/uploads/${UNKNOWN_ID}`,
        visibility: 'public',
      }),
      404,
      'NOT_FOUND',
    );
    const eve = await registerUser(t.app);
    // Other sites' images are refused outright: neither the server nor viewers' browsers fetch them.
    expectError(
      await req(t, 'PUT', '/api/settings', eve.cookie, {
        avatarUrl: `${probeUrl}/a.png`,
        headerUrl: `${probeUrl}/b.png`,
      }),
      400,
      'BAD_REQUEST',
    );
    await req(t, 'POST', '/api/posts', eve.cookie, { content: `look ${probeUrl}/page` });
    const asked = (
      await req(t, 'POST', '/api/cubey/chat', eve.cookie, { message: `fetch ${probeUrl}/secret please` })
    ).json() as { sessionId: string };
    await req(t, 'POST', '/api/reports', eve.cookie, {
      targetType: 'user',
      targetId: alice.user.id,
      reason: probeUrl,
    });
    await req(t, 'GET', `/api/users/by-username/${eve.user.username}`, alice.cookie);
    // What goes on after its answer is Cubey's: once it has answered, it fetched nothing.
    await vi.waitFor(
      async () => {
        const list = (
          await req(t, 'GET', `/api/cubey/sessions/${asked.sessionId}/messages`, eve.cookie)
        ).json();
        expect(list.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
        expect(list.map((m: { status: string }) => m.status)).not.toContain('streaming');
      },
      { timeout: 15_000, interval: 25 },
    );
    expect(probeHits - hitsBefore).toBe(0);
  });
});

describe('search and gallery', () => {
  it('search does not find members by their hidden e-mail address', async ({ t }) => {
    const input = { ...newUserInput('plain'), email: 'zqxjwvhidden@example.com' };
    await registerUser(t.app, input);
    const res = await req(t, 'GET', '/api/search?q=zqxjwvhidden', alice.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().users).toEqual([]);
  });

  it('favouriting unknown or malformed media is 404', async ({ t }) => {
    for (const id of [UNKNOWN_ID, 'x', '%F0%9F%A7%8A']) {
      expectError(await req(t, 'POST', `/api/gallery/${id}/favorite`, alice.cookie), 404, 'NOT_FOUND');
    }
  });
});

describe('content hidden from the caller (block either way, suspended author)', () => {
  it('cannot be reported: a post or comment the reporter cannot see is 404, as for a like', async ({ t }) => {
    const author = await registerUser(t.app);
    const blocked = await registerUser(t.app);
    const hiddenPost = await post(t, author.cookie, 'hidden from the blocked member');
    const commented = await req(t, 'POST', `/api/posts/${hiddenPost.id}/comments`, author.cookie, {
      content: 'mine',
    });
    const commentId = commented.json().id as string;
    await req(t, 'POST', `/api/users/${blocked.user.id}/block`, author.cookie);
    for (const [targetType, targetId] of [
      ['post', hiddenPost.id],
      ['comment', commentId],
    ]) {
      expectError(
        await req(t, 'POST', '/api/reports', blocked.cookie, { targetType, targetId, reason: 'x' }),
        404,
        'NOT_FOUND',
      );
      // ... and the blocker cannot report into the blocked member's hidden content either.
    }
    const blockedPost = await post(t, blocked.cookie, 'hidden from the blocker');
    expectError(
      await req(t, 'POST', '/api/reports', author.cookie, {
        targetType: 'post',
        targetId: blockedPost.id,
        reason: 'x',
      }),
      404,
      'NOT_FOUND',
    );
    // The member themself stays reportable: one may block and report.
    expect(
      (
        await req(t, 'POST', '/api/reports', blocked.cookie, {
          targetType: 'user',
          targetId: author.user.id,
          reason: 'x',
        })
      ).statusCode,
    ).toBe(201);

    const suspended = await registerUser(t.app);
    const goneWith = await post(t, suspended.cookie, 'out of sight while suspended');
    const goneComment = await req(t, 'POST', `/api/posts/${hiddenPost.id}/comments`, suspended.cookie, {
      content: 'c',
    });
    await suspend(t, suspended);
    for (const [targetType, targetId] of [
      ['post', goneWith.id],
      ['comment', goneComment.json().id as string],
    ]) {
      expectError(
        await req(t, 'POST', '/api/reports', alice.cookie, { targetType, targetId, reason: 'x' }),
        404,
        'NOT_FOUND',
      );
    }
  });

  it('cannot be favourited: media of a creator blocked either way or suspended is 404, as a like is', async ({
    t,
  }) => {
    const creator = await registerUser(t.app);
    const fan = await registerUser(t.app);
    const mediaId = await addMedia(t, creator.user.id);
    await req(t, 'POST', `/api/users/${fan.user.id}/block`, creator.cookie);
    expectError(await req(t, 'POST', `/api/gallery/${mediaId}/favorite`, fan.cookie), 404, 'NOT_FOUND');
    const suspended = await registerUser(t.app);
    const hiddenMedia = await addMedia(t, suspended.user.id);
    await suspend(t, suspended);
    expectError(await req(t, 'POST', `/api/gallery/${hiddenMedia}/favorite`, alice.cookie), 404, 'NOT_FOUND');
    const gallery = await req(t, 'GET', '/api/gallery', alice.cookie);
    expect(gallery.body).not.toContain(hiddenMedia);
    // Search and suggestions leave both out too.
    for (const [viewer, hidden] of [
      [fan, creator],
      [alice, suspended],
    ] as const) {
      const found = await req(t, 'GET', `/api/search?q=${hidden.user.username}`, viewer.cookie);
      expect(found.json().users.map((u: { id: string }) => u.id)).not.toContain(hidden.user.id);
      // Popular media included: an item by a creator blocked either way is not suggested.
      expect((await req(t, 'GET', '/api/search/suggestions', viewer.cookie)).body).not.toContain(
        hidden.user.id,
      );
    }
    // Taking a favourite back always works.
    expect(
      (await req(t, 'DELETE', `/api/gallery/${hiddenMedia}/favorite`, alice.cookie)).json(),
    ).toMatchObject({
      favorited: false,
    });
  });

  it('a suspended member’s Favorites tab is out of sight like the rest of their profile', async ({ t }) => {
    const creator = await registerUser(t.app);
    const mediaId = await addMedia(t, creator.user.id);
    const member = await registerUser(t.app);
    expect((await req(t, 'POST', `/api/gallery/${mediaId}/favorite`, member.cookie)).statusCode).toBe(200);
    const before = await req(t, 'GET', `/api/users/${member.user.id}/favorites`, alice.cookie);
    expect((before.json() as { id: string }[]).map((m) => m.id)).toEqual([mediaId]);
    await suspend(t, member);
    for (const cookie of [alice.cookie, undefined]) {
      const after = await req(t, 'GET', `/api/users/${member.user.id}/favorites`, cookie);
      expect(after.statusCode).toBe(200);
      expect(after.json()).toEqual([]);
    }
    expect(
      (await trpc(t, alice.cookie, 'gallery.favoritesOf', { userId: member.user.id }, 'query')).data,
    ).toMatchObject({ items: [] });
  });
});

describe('subscriptions of others (real WebSockets)', () => {
  it('messages.live with a forged lastEventId and another member’s id catches up only on one’s own messages and typing', async ({
    t,
    live,
  }) => {
    const secret = await dm(t, alice, carol, 'never for bob');
    const mine = await dm(t, carol, bob, 'for bob');
    const socket = live({ cookie: bob.cookie });
    const events = new Events<
      Tracked<{ type: string; message?: { id: string; senderId: string; receiverId: string } }>
    >();
    const since = forge('dm-live', '1970-01-01T00:00:00.000000Z', UNKNOWN_ID, '1970-01-01T00:00:00.000000Z');
    socket.client.messages.live.subscribe({ lastEventId: since, userId: alice.user.id } as never, {
      onData: (e) => events.push(e as never),
      onError: events.fail,
    });
    for (;;) {
      const e = await events.next();
      if (e.data.type === 'unread') break;
    }
    const ids = events.items.flatMap((e) => (e.data.message ? [e.data.message] : []));
    expect(ids.map((m) => m.id)).toContain(mine.id);
    expect(ids.map((m) => m.id)).not.toContain(secret.id);
    for (const m of ids) expect([m.senderId, m.receiverId]).toContain(bob.user.id);
    // Others' traffic, typing included, does not reach bob's stream.
    await dm(t, alice, carol, 'still not for bob');
    await trpc(t, alice.cookie, 'messages.typing', { userId: carol.user.id });
    // Then carol types to bob: the first event after those is hers.
    await trpc(t, carol.cookie, 'messages.typing', { userId: bob.user.id });
    expect((await events.next()).data).toMatchObject({ type: 'typing', userId: carol.user.id });
  });

  it('notifications.onChange and cubey.onSessions carry only one’s own, whatever lastEventId says', async ({
    t,
    live,
  }) => {
    const socket = live({ cookie: bob.cookie });
    const bell = new Events<Tracked<{ unreadCount: number; newestId: string | null }>>();
    socket.client.notifications.onChange.subscribe(
      { lastEventId: `0.${UNKNOWN_ID}` },
      { onData: (e) => bell.push(e as never), onError: bell.fail },
    );
    const first = await bell.next();
    const chats = new Events<Tracked<{ sessionId: string }>>();
    socket.client.cubey.onSessions.subscribe(
      { lastEventId: '2000-01-01T00:00:00.000000Z' },
      { onStarted: chats.start, onData: (e) => chats.push(e as never), onError: chats.fail },
    );
    await chats.started;

    const alicesPost = await post(t, alice.cookie, 'bell for alice only');
    await req(t, 'POST', `/api/posts/${alicesPost.id}/like`, carol.cookie);
    await req(t, 'POST', '/api/cubey/chat', alice.cookie, { message: 'alice asks' });
    // Then bob's own: the first change of his bell is his, and his chat comes after nothing of hers.
    const bobsPost = await post(t, bob.cookie, 'bell for bob');
    await req(t, 'POST', `/api/posts/${bobsPost.id}/like`, carol.cookie);
    const bobsChat = (
      await req(t, 'POST', '/api/cubey/chat', bob.cookie, { message: 'bob asks' })
    ).json() as {
      sessionId: string;
    };
    expect((await bell.next()).data.unreadCount).toBe(first.data.unreadCount + 1);
    await waitFor(
      () => chats.items.some((e) => e.data.sessionId === bobsChat.sessionId),
      15_000,
      "bob's chat",
    );
    const bobsSessions = (await req(t, 'GET', '/api/cubey/sessions', bob.cookie)).json() as { id: string }[];
    for (const e of chats.items) expect(bobsSessions.map((s) => s.id)).toContain(e.data.sessionId);
  });

  it('posts.onNew with a forged lastEventId catches up at most 20 posts, none hidden from the caller', async ({
    t,
    live,
  }) => {
    const blocker = await registerUser(t.app);
    const hiddenPost = (
      await req(t, 'POST', '/api/posts', blocker.cookie, { content: 'hidden by a block' })
    ).json().post as { id: string; createdAt: string };
    await req(t, 'POST', `/api/users/${bob.user.id}/block`, blocker.cookie);
    const shown: string[] = [];
    for (let i = 0; i < 3; i += 1) shown.push((await post(t, carol.cookie, `catch-up ${i}`)).id);
    const justBefore = new Date(Date.parse(hiddenPost.createdAt) - 1).toISOString().replace('Z', '000Z');
    const socket = live({ cookie: bob.cookie });
    for (const since of [justBefore, '1970-01-01T00:00:00.000000Z']) {
      const news = new Events<Tracked<{ postId: string; authorId: string }>>();
      socket.client.posts.onNew.subscribe(
        { lastEventId: forge('posts', since, UNKNOWN_ID) },
        { onData: (e) => news.push(e as never), onError: news.fail },
      );
      await news.next(); // the catch-up has begun: the subscription is listening
      // A post written now comes after the whole catch-up.
      const last = await post(t, carol.cookie, 'after the catch-up');
      await waitFor(() => news.items.some((e) => e.data.postId === last.id), 15_000, 'the new post');
      const ids = news.items.map((e) => e.data.postId).filter((id) => id !== last.id);
      expect(ids.length).toBeLessThanOrEqual(20);
      expect(ids).not.toContain(hiddenPost.id);
      if (since === justBefore) expect(ids).toEqual(shown);
    }
  });

  it('cubey.onAnswer for another member’s answer, or an unknown one, is NOT_FOUND', async ({ t, live }) => {
    const chat = await req(t, 'POST', '/api/cubey/chat', alice.cookie, { message: 'what is new?' });
    const messageId = (chat.json() as { reply: { id: string } }).reply.id;
    const socket = live({ cookie: bob.cookie });
    for (const id of [messageId, UNKNOWN_ID, 'not-a-uuid']) {
      const answer = new Events<unknown>();
      socket.client.cubey.onAnswer.subscribe(
        { messageId: id, lastEventId: '0' },
        { onData: answer.push, onError: answer.fail },
      );
      await expect(answer.next()).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    }
  });

  it('a logged-out socket can subscribe only to the public streams and call no member procedure', async ({
    live,
  }) => {
    const socket = live();
    for (const sub of [
      socket.client.messages.live,
      socket.client.notifications.onChange,
      socket.client.cubey.onSessions,
    ]) {
      const events = new Events<unknown>();
      sub.subscribe({}, { onData: events.push, onError: events.fail });
      await expect(events.next()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
    }
    await expect(socket.client.posts.create.mutate({ content: 'anon' })).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
    await expect(socket.client.moderation.reports.query({})).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
  });

  it('one socket holds a bounded number of live subscriptions; ended ones free their place', async ({
    live,
  }) => {
    const socket = live({ cookie: carol.cookie });
    type Subscribable = {
      subscribe: (
        input: never,
        options: { onData: () => void; onError: (error: unknown) => void },
      ) => { unsubscribe: () => void };
    };
    const open = (sub: Subscribable, input: object) =>
      new Promise<{ outcome: string; stop: () => void }>((resolve) => {
        const handle = sub.subscribe(input as never, {
          onData: () => resolve({ outcome: 'started', stop: () => handle.unsubscribe() }),
          onError: (error: unknown) =>
            resolve({
              outcome: (error as { data?: { code?: string } }).data?.code ?? 'error',
              stop: () => handle.unsubscribe(),
            }),
        });
      });
    // Subscriptions the server ended (here: NOT_FOUND) hold no place.
    for (let wave = 0; wave < 3; wave += 1) {
      const ended = await Promise.all(
        Array.from({ length: MAX_SUBSCRIPTIONS_PER_SOCKET / 2 }, () =>
          open(socket.client.cubey.onAnswer as unknown as Subscribable, { messageId: UNKNOWN_ID }),
        ),
      );
      expect(new Set(ended.map((e) => e.outcome))).toEqual(new Set(['NOT_FOUND']));
    }
    const bell = socket.client.notifications.onChange as unknown as Subscribable;
    const held = await Promise.all(
      Array.from({ length: MAX_SUBSCRIPTIONS_PER_SOCKET }, () => open(bell, {})),
    );
    expect(held.every((h) => h.outcome === 'started')).toBe(true);
    // One more on the same socket is refused, without closing it or the others.
    const over = await open(bell, {});
    expect(over.outcome).toBe('TOO_MANY_REQUESTS');
    // A subscription the client stops frees its place.
    held[0]!.stop();
    // The place is given back once the server has ended the subscription (a refused one takes none).
    await vi.waitFor(async () => expect((await open(bell, {})).outcome).toBe('started'), {
      timeout: 15_000,
      interval: 25,
    });
    expect(socket.closes).toEqual([]);
    // Another socket has places of its own.
    const other = live({ cookie: carol.cookie });
    expect((await open(other.client.notifications.onChange as unknown as Subscribable, {})).outcome).toBe(
      'started',
    );
  });

  it('a socket does not outlive its session: logout, a session ended elsewhere, suspension, account deletion', async ({
    t,
    live,
  }) => {
    const cases: [string, (m: Member) => Promise<void>][] = [
      ['logout', async (m) => void (await req(t, 'POST', '/api/auth/logout', m.cookie))],
      [
        'ended from another device',
        async (m) => {
          const other = await req(t, 'POST', '/api/auth/login', undefined, {
            email: m.input.email,
            password: m.input.password,
          });
          const cookie = other.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
          await req(t, 'POST', '/api/sessions/end-others', cookie);
        },
      ],
      ['suspended', (m) => suspend(t, m)],
      [
        'deleted',
        async (m) =>
          void (await req(t, 'POST', '/api/account/delete', m.cookie, { password: m.input.password })),
      ],
    ];
    for (const [name, end] of cases) {
      const member = await registerUser(t.app);
      const socket = live({ cookie: member.cookie });
      const events = new Events<unknown>();
      socket.client.messages.live.subscribe({}, { onData: events.push, onError: events.fail });
      await events.next();
      await end(member);
      await waitFor(() => socket.closes.includes(4401), 3_000, `${name}: socket closed with 4401`);
      // The client reconnects with the same (dead) cookie: no member stream for it any more. (A
      // query asked while it reconnects can meet the closing socket: it is asked once it is open.)
      await waitFor(() => socket.opens() >= 2, 15_000, `${name}: the client reconnected`);
      await expect(socket.client.auth.me.query()).rejects.toMatchObject({ data: { code: 'UNAUTHORIZED' } });
      expectError(await req(t, 'GET', '/api/auth/me', member.cookie), 401, 'UNAUTHORIZED');
    }
  });
});
