/**
 * Web push over REST, end to end with a real local push service (web-push-testing): the key,
 * subscriptions saved and removed (hostile input refused, an endpoint another member registered
 * refused with 409, names of this machine refused at subscribe time), per-kind preferences, a like and a
 * direct message from another member delivered encrypted and decrypted by the service with no
 * more than the kind, the sender's names, a snippet of what was said to the recipient, their
 * language and url (no sentence: issue #50), a 410 deleting the subscription, and no push across
 * a mute, a block or a suspension.
 */
import { generateVapidKeys, PUSH_ENDPOINT_TAKEN } from '@cubes/api';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import { contractError } from './error-shape.js';
import { itWith } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';
import { MIN_WAIT_MS } from './live-client.js';
import { type PushService, startPushService, type TestSubscription } from './push-service.js';

let service: PushService;
const keys = generateVapidKeys();

const it = itWith({
  config: { push: { ...keys, subject: 'mailto:ops@example.com', allowPrivateEndpoints: true } },
});
beforeAll(async () => {
  service = await startPushService();
}, 60_000);
afterAll(async () => {
  await service?.close();
});

type Member = Awaited<ReturnType<typeof registerUser>>;

async function call(t: TestApp, method: string, url: string, cookie?: string, payload?: unknown) {
  return t.app.inject({
    method: method as 'GET',
    url,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function subscribed(t: TestApp, member: Member): Promise<TestSubscription> {
  const sub = await service.subscribe(keys.publicKey);
  const res = await call(t, 'POST', '/api/push/subscriptions', member.cookie, {
    endpoint: sub.endpoint,
    expirationTime: null,
    keys: sub.keys,
  });
  expect(res.statusCode, res.body).toBe(201);
  return sub;
}

async function post(t: TestApp, member: Member, content: string): Promise<string> {
  const res = await call(t, 'POST', '/api/posts', member.cookie, { content });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().post.id;
}

async function like(t: TestApp, member: Member, postId: string) {
  const res = await call(t, 'POST', `/api/posts/${postId}/like`, member.cookie);
  expect(res.statusCode, res.body).toBe(200);
}

/** The pushes the subscription received, once there are at least `count` (polled, with a generous bound). */
async function received(sub: TestSubscription, count: number): Promise<unknown[]> {
  return vi.waitFor(
    async () => {
      const got = (await service.received(sub.clientHash)).map((m) => JSON.parse(m) as unknown);
      if (got.length < count) throw new Error(`${got.length} of ${count} pushes`);
      return got;
    },
    { timeout: MIN_WAIT_MS, interval: 50 },
  );
}

/**
 * No push beyond the first `count` came (docs/development.md, "Tests": there is no waiting for
 * nothing). A new member follows the recipient after all the rest, so her fan-out's claim (one
 * statement taking everything due: push.repository.ts) runs after every notification before it
 * was written: the follow is pushed, it is the next push, and that claim took the follow alone.
 */
async function nothingMore(t: TestApp, sub: TestSubscription, recipient: Member, count: number) {
  const follower = await registerUser(t.app);
  const followed = await call(t, 'POST', `/api/users/${recipient.user.id}/follow`, follower.cookie);
  expect(followed.statusCode, followed.body).toBe(200);
  expect((await received(sub, count + 1)).slice(count)).toEqual([
    {
      kind: 'follow',
      who: follower.user.username,
      name: follower.input.displayName,
      snippet: null,
      lang: 'en',
      url: `/profile/${follower.user.username}`,
    },
  ]);
  const [claim] = await t.orm.em.fork().execute<{ together: number }[]>(
    `select count(*)::int as together from push_deliveries d
      where d.created_at = (select c.created_at from push_deliveries c
                              join notifications n on n.id = c.source_id
                             where n.recipient_id = ? and n.actor_id = ? and n.type = 'follow')`,
    [recipient.user.id, follower.user.id],
  );
  expect(claim!.together).toBe(1);
}

async function subscriptionCount(t: TestApp, userId: string): Promise<number> {
  const [row] = await t.orm.em
    .fork()
    .execute<{ n: number }[]>('select count(*)::int as n from push_subscriptions where user_id = ?', [
      userId,
    ]);
  return row!.n;
}

/** push.status (tRPC only): whether `endpoint` is subscribed for the member. */
async function status(t: TestApp, member: Member, endpoint: string): Promise<boolean> {
  const input = encodeURIComponent(JSON.stringify({ json: { endpoint } }));
  const res = await call(t, 'GET', `/trpc/push.status?input=${input}`, member.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.data.json.subscribed;
}

describe('GET /api/push/key', () => {
  it('answers the VAPID public key to anyone', async ({ t }) => {
    const res = await call(t, 'GET', '/api/push/key');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ publicKey: keys.publicKey });
  });
});

describe('POST · DELETE /api/push/subscriptions', () => {
  it('needs a session', async ({ t }) => {
    const res = await call(t, 'POST', '/api/push/subscriptions', undefined, {
      endpoint: 'https://push.example.com/x',
      keys: { p256dh: 'a', auth: 'b' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses hostile and malformed subscriptions with 400', async ({ t }) => {
    const alice = await registerUser(t.app);
    const good = await service.subscribe(keys.publicKey);
    const cases: unknown[] = [
      { endpoint: 'ftp://push.example.com/x', keys: good.keys },
      { endpoint: 'https://user:pw@push.example.com/x', keys: good.keys },
      { endpoint: `https://push.example.com/${'a'.repeat(3_000)}`, keys: good.keys },
      { endpoint: 'https://push.example.com/\u0000', keys: good.keys },
      { endpoint: 'not a url', keys: good.keys },
      { endpoint: 42, keys: good.keys },
      { endpoint: good.endpoint, keys: { p256dh: 'short', auth: good.keys.auth } },
      { endpoint: good.endpoint, keys: { p256dh: good.keys.p256dh, auth: '🙂🙂🙂' } },
      { endpoint: good.endpoint, keys: { p256dh: good.keys.p256dh, auth: good.keys.auth, extra: 1 } },
      { endpoint: good.endpoint },
      ['not', 'an', 'object'],
    ];
    for (const payload of cases) {
      const res = await call(t, 'POST', '/api/push/subscriptions', alice.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 100)).toBe(400);
    }
    // 70,000 characters: beyond the body limit, refused before any parsing.
    const huge = await call(t, 'POST', '/api/push/subscriptions', alice.cookie, {
      endpoint: `https://push.example.com/${'a'.repeat(70_000)}`,
      keys: good.keys,
    });
    expect(huge.statusCode).toBe(413);
    expect(await subscriptionCount(t, alice.user.id)).toBe(0);
  });

  it('keeps an endpoint its registering member’s: another member posting it gets 409', async ({ t }) => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const sub = await subscribed(t, alice);
    expect(await subscriptionCount(t, alice.user.id)).toBe(1);
    // The same again from Alice: renewed, still one.
    const renewed = await call(t, 'POST', '/api/push/subscriptions', alice.cookie, {
      endpoint: sub.endpoint,
      keys: sub.keys,
    });
    expect(renewed.statusCode, renewed.body).toBe(201);
    expect(await subscriptionCount(t, alice.user.id)).toBe(1);
    // Bob posts Alice's endpoint: refused, and it stays hers.
    const request = { method: 'POST', url: '/api/push/subscriptions' };
    const taken = await call(t, 'POST', request.url, bob.cookie, { endpoint: sub.endpoint, keys: sub.keys });
    expect(contractError(taken, request)).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: PUSH_ENDPOINT_TAKEN,
      reason: 'PUSH_ENDPOINT_TAKEN',
    });
    expect(await subscriptionCount(t, alice.user.id)).toBe(1);
    expect(await subscriptionCount(t, bob.user.id)).toBe(0);
    expect(await status(t, alice, sub.endpoint)).toBe(true);
    expect(await status(t, bob, sub.endpoint)).toBe(false);
    // Bob cannot remove it by naming its endpoint.
    const theirs = await call(t, 'DELETE', '/api/push/subscriptions', bob.cookie, { endpoint: sub.endpoint });
    expect(theirs.statusCode).toBe(200);
    expect(await subscriptionCount(t, alice.user.id)).toBe(1);
    // Alice can.
    const mine = await call(t, 'DELETE', '/api/push/subscriptions', alice.cookie, { endpoint: sub.endpoint });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ ok: true });
    expect(await subscriptionCount(t, alice.user.id)).toBe(0);
    expect(await status(t, alice, sub.endpoint)).toBe(false);
    // Idempotent.
    const again = await call(t, 'DELETE', '/api/push/subscriptions', alice.cookie, {
      endpoint: sub.endpoint,
    });
    expect(again.statusCode).toBe(200);
    // Once she removed it, Bob may register it.
    const freed = await call(t, 'POST', request.url, bob.cookie, { endpoint: sub.endpoint, keys: sub.keys });
    expect(freed.statusCode, freed.body).toBe(201);
    expect(await status(t, bob, sub.endpoint)).toBe(true);
  });

  it('refuses, at subscribe time, names that are this machine (400), unless private endpoints are allowed', async ({
    appWith,
  }) => {
    const strict = await appWith({
      config: { push: { ...keys, subject: 'mailto:ops@example.com', allowPrivateEndpoints: false } },
    });
    const carol = await registerUser(strict.app);
    const good = await service.subscribe(keys.publicKey);
    for (const endpoint of ['https://localhost:8443/a', 'https://foo.localhost', good.endpoint]) {
      const request = { method: 'POST', url: '/api/push/subscriptions' };
      const res = await strict.app.inject({
        method: 'POST',
        url: request.url,
        headers: { cookie: carol.cookie },
        payload: { endpoint, keys: good.keys },
      });
      const error = contractError(res, request);
      expect({ status: error.status, code: error.code }, endpoint).toEqual({
        status: 400,
        code: 'BAD_REQUEST',
      });
      expect(error.message, endpoint).toMatch(/^Endpoint refused: /);
    }
    const [row] = await strict.orm.em
      .fork()
      .execute<{ n: number }[]>('select count(*)::int as n from push_subscriptions');
    expect(row!.n).toBe(0);
  }, 60_000);
});

describe('account deletion', () => {
  it('removes the member’s subscriptions and choices', async ({ t }) => {
    const leaver = await registerUser(t.app);
    await subscribed(t, leaver);
    await call(t, 'PATCH', '/api/push/preferences', leaver.cookie, { likes: false });
    const res = await call(t, 'POST', '/api/account/delete', leaver.cookie, {
      password: leaver.input.password,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await subscriptionCount(t, leaver.user.id)).toBe(0);
    const [row] = await t.orm.em
      .fork()
      .execute<{ n: number }[]>('select count(*)::int as n from push_preferences where user_id = ?', [
        leaver.user.id,
      ]);
    expect(row!.n).toBe(0);
  });
});

describe('GET · PATCH /api/push/preferences', () => {
  it('starts all on, changes only the kinds given, refuses wrong types', async ({ t }) => {
    const alice = await registerUser(t.app);
    const all = { likes: true, comments: true, follows: true, mentions: true, messages: true };
    expect((await call(t, 'GET', '/api/push/preferences', alice.cookie)).json()).toEqual(all);
    const changed = await call(t, 'PATCH', '/api/push/preferences', alice.cookie, { likes: false });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ ...all, likes: false });
    await call(t, 'PATCH', '/api/push/preferences', alice.cookie, { messages: false });
    expect((await call(t, 'GET', '/api/push/preferences', alice.cookie)).json()).toEqual({
      ...all,
      likes: false,
      messages: false,
    });
    for (const bad of [{ likes: 'yes' }, {}, { unknown: true }, [true]]) {
      expect((await call(t, 'PATCH', '/api/push/preferences', alice.cookie, bad)).statusCode).toBe(400);
    }
    expect((await call(t, 'GET', '/api/push/preferences')).statusCode).toBe(401);
  });
});

describe('delivery through a real push service', () => {
  it('pushes a like with only its kind, names, language and url; a 410 deletes the subscription', async ({
    t,
  }) => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const sub = await subscribed(t, alice);
    const postId = await post(t, alice, 'push me');
    await like(t, bob, postId);
    const [message] = await received(sub, 1);
    expect(message).toEqual({
      kind: 'like',
      who: bob.user.username,
      name: bob.input.displayName,
      snippet: null,
      lang: 'en',
      url: `/posts/${postId}`,
    });
    // Unlike and like again: the new notification is pushed once more, never twice.
    await call(t, 'DELETE', `/api/posts/${postId}/like`, bob.cookie);
    await like(t, bob, postId);
    expect(await received(sub, 2)).toHaveLength(2);
    await nothingMore(t, sub, alice, 2);

    await service.expire(sub.clientHash);
    const carol = await registerUser(t.app);
    await like(t, carol, postId);
    await vi.waitFor(async () => expect(await subscriptionCount(t, alice.user.id)).toBe(0), {
      timeout: MIN_WAIT_MS,
      interval: 100,
    });
  });

  it('pushes a follow (to the profile), a direct message (to the conversation) and a comment, in the member’s language', async ({
    t,
  }) => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const sub = await subscribed(t, alice);
    const german = await call(t, 'PUT', '/api/settings', alice.cookie, { language: 'de' });
    expect(german.statusCode, german.body).toBe(200);
    const follow = await call(t, 'POST', `/api/users/${alice.user.id}/follow`, bob.cookie);
    expect(follow.statusCode, follow.body).toBe(200);
    const [followed] = await received(sub, 1);
    expect(followed).toEqual({
      kind: 'follow',
      who: bob.user.username,
      name: bob.input.displayName,
      snippet: null,
      lang: 'de',
      url: `/profile/${bob.user.username}`,
    });
    const sent = await call(t, 'POST', '/api/messages', bob.cookie, {
      receiverId: alice.user.id,
      content: 'secret words',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const got = await received(sub, 2);
    expect(got[1]).toEqual({
      kind: 'message',
      who: bob.user.username,
      name: bob.input.displayName,
      snippet: null,
      lang: 'de',
      url: `/chat?user=${bob.user.id}`,
    });
    // The message's words never travel in a push.
    expect(JSON.stringify(got)).not.toContain('secret words');
    const postId = await post(t, alice, 'ein Würfel');
    const commented = await call(t, 'POST', `/api/posts/${postId}/comments`, bob.cookie, {
      content: 'Schöner Würfel!',
    });
    expect(commented.statusCode, commented.body).toBe(201);
    const [, , comment] = await received(sub, 3);
    expect(comment).toEqual({
      kind: 'comment',
      who: bob.user.username,
      name: bob.input.displayName,
      snippet: 'Schöner Würfel!',
      lang: 'de',
      url: `/posts/${postId}`,
    });
    // No English sentence in any of them: the service worker words them.
    expect(JSON.stringify(await received(sub, 3))).not.toMatch(/liked|following|sent you|commented/);
  });

  it('pushes nothing of a kind turned off', async ({ t }) => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const sub = await subscribed(t, alice);
    await call(t, 'PATCH', '/api/push/preferences', alice.cookie, { likes: false });
    await like(t, bob, await post(t, alice, 'quiet'));
    await nothingMore(t, sub, alice, 0);
  });

  it('pushes nothing from a muted member, across a block, or while either side is suspended', async ({
    t,
  }) => {
    const alice = await registerUser(t.app);
    const muted = await registerUser(t.app);
    const suspended = await registerUser(t.app);
    const sub = await subscribed(t, alice);
    const postId = await post(t, alice, 'guarded');

    expect((await call(t, 'POST', `/api/users/${muted.user.id}/mute`, alice.cookie)).statusCode).toBe(200);
    await like(t, muted, postId);
    await nothingMore(t, sub, alice, 0);

    // A notification that exists when a block begins is not pushed afterwards either.
    const blocked = await registerUser(t.app);
    await like(t, blocked, postId);
    expect((await received(sub, 2))[1]).toMatchObject({ who: blocked.user.username });
    const em = t.orm.em.fork();
    // Unclaimed again, as if it had not been pushed yet.
    await em.execute(
      'delete from push_deliveries where source_id in (select id from notifications where actor_id = ?)',
      [blocked.user.id],
    );
    expect((await call(t, 'POST', `/api/users/${blocked.user.id}/block`, alice.cookie)).statusCode).toBe(200);
    await nothingMore(t, sub, alice, 2);

    // A notification from a member suspended before it is pushed: not pushed. Alice blocking a
    // stranger sends a notifications event for her, which runs her fan-out.
    const notifyFrom = (actorId: string, type: string) =>
      em.execute(
        `insert into notifications (id, recipient_id, actor_id, type, post_id, created_at)
         values (gen_random_uuid(), ?, ?, ?, ?, now())`,
        [alice.user.id, actorId, type, postId],
      );
    await em.execute('update users set suspended_at = now() where id = ?', [suspended.user.id]);
    await notifyFrom(suspended.user.id, 'like');
    const stranger = await registerUser(t.app);
    expect((await call(t, 'POST', `/api/users/${stranger.user.id}/block`, alice.cookie)).statusCode).toBe(
      200,
    );
    await nothingMore(t, sub, alice, 3);

    // The recipient suspended: nothing reaches them. Another member blocking Alice runs her fan-out.
    await em.execute('update users set suspended_at = null where id = ?', [suspended.user.id]);
    await notifyFrom(suspended.user.id, 'comment');
    await em.execute('update users set suspended_at = now() where id = ?', [alice.user.id]);
    const trigger = await registerUser(t.app);
    expect((await call(t, 'POST', `/api/users/${alice.user.id}/block`, trigger.cookie)).statusCode).toBe(200);
    // Nothing reaches Alice now, so no later push of hers can show the absence: one to another
    // member, sent after, arrives, and Alice's count has not moved.
    const witness = await registerUser(t.app);
    await nothingMore(t, await subscribed(t, witness), witness, 0);
    expect(await service.received(sub.clientHash)).toHaveLength(4);
    // Lifted: the same event pushes what is due (the suspended-at-the-time like is due too now).
    await em.execute('update users set suspended_at = null where id = ?', [alice.user.id]);
    const trigger2 = await registerUser(t.app);
    expect((await call(t, 'POST', `/api/users/${alice.user.id}/block`, trigger2.cookie)).statusCode).toBe(
      200,
    );
    const all = await received(sub, 6);
    expect(all).toHaveLength(6);
    expect(all.slice(4)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'like', who: suspended.user.username }),
        expect.objectContaining({ kind: 'comment', who: suspended.user.username }),
      ]),
    );
  });
});
