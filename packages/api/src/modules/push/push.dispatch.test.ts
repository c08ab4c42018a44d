/**
 * The fan-out on a real PostgreSQL: a notification is claimed once however many fan-outs run at
 * the same time (two instances, a job run twice), one send is queued per browser, the window keeps
 * old notifications out, and a mention (the kind another module adds) is pushed by its name. A
 * payload carries the kind, the names and the recipient's language, no sentence (issue #50). A
 * send the guard refuses for its endpoint drops the subscription with one warning.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@cubes/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, setupDatabase } from '../../../test/harness.js';
import type { JobQueue } from '../../jobs/jobs.queue.js';
import { SNIPPET_MAX_LENGTH } from '../notifications/notification.schema.js';
import {
  deliver,
  fanOut,
  messagePayload,
  notificationPayload,
  type PushDeps,
  type PushSendJob,
  pushName,
} from './push.dispatch.js';
import { generateVapidKeys } from './push.keys.js';
import { PUSH_NAME_MAX, pushPayloadSchema } from './push.schema.js';

let orm: MikroORM;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ orm, close } = await setupDatabase());
});
afterAll(() => close());

function recordingDeps(): { deps: PushDeps; sent: PushSendJob[] } {
  const sent: PushSendJob[] = [];
  const queue: JobQueue = {
    send: async (_name, data) => {
      sent.push(data as PushSendJob);
    },
  };
  const deps: PushDeps = {
    fork: () => orm.em.fork(),
    settings: { ...generateVapidKeys(), subject: 'mailto:ops@example.com', allowPrivateEndpoints: false },
    queue,
    logError: () => {},
    logWarn: () => {},
  };
  return { deps, sent };
}

async function subscribe(userId: string, n: number) {
  for (let i = 0; i < n; i++) {
    await orm.em
      .fork()
      .execute(
        `insert into push_subscriptions (id, user_id, endpoint, p256dh, auth) values (?, ?, ?, 'k', 'a')`,
        [randomUUID(), userId, `https://push.example.com/${randomUUID()}`],
      );
  }
}

async function notify(recipientId: string, actorId: string, type: string, ageMinutes = 0) {
  const em = orm.em.fork();
  const [post] = await em.execute<{ id: string }[]>(
    `insert into posts (id, author_id, content) values (gen_random_uuid(), ?, 'hello') returning id`,
    [recipientId],
  );
  await em.execute(
    `insert into notifications (id, recipient_id, actor_id, type, post_id, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?, now() - make_interval(mins => ?))`,
    [recipientId, actorId, type, type === 'follow' ? null : post!.id, ageMinutes],
  );
  return post!.id;
}

describe('push fan-out', () => {
  it('claims a notification once across concurrent fan-outs, one send per browser', async () => {
    const alice = await createMember(orm);
    const bob = await createMember(orm);
    await subscribe(alice.user.id, 2);
    const postId = await notify(alice.user.id, bob.user.id, 'like');
    const { deps, sent } = recordingDeps();
    const counts = await Promise.all(
      Array.from({ length: 6 }, () => fanOut(deps, { recipientId: alice.user.id })),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((s) => s.subscriptionId)).size).toBe(2);
    // The kind and the names, in the recipient's language, no sentence (issue #50).
    expect(sent[0]!.payload).toEqual({
      kind: 'like',
      who: bob.user.username,
      name: expect.stringMatching(/\S/),
      snippet: null,
      lang: 'en',
      url: `/posts/${postId}`,
    });
    // Again later: nothing new.
    expect(await fanOut(deps, { recipientId: alice.user.id })).toBe(0);
  });

  it('leaves out notifications older than the window, and members with no browser', async () => {
    const alice = await createMember(orm);
    const bob = await createMember(orm);
    const carol = await createMember(orm);
    await subscribe(alice.user.id, 1);
    await notify(alice.user.id, bob.user.id, 'like', 30);
    await notify(carol.user.id, bob.user.id, 'like');
    const { deps, sent } = recordingDeps();
    expect(await fanOut(deps, { recipientId: alice.user.id })).toBe(0);
    expect(await fanOut(deps, { recipientId: carol.user.id })).toBe(0);
    expect(sent).toEqual([]);
  });

  it('carries the recipient’s language and what was said to them, never a sentence', async () => {
    const alice = await createMember(orm);
    const bob = await createMember(orm);
    await orm.em.fork().execute(`update users set language = 'de' where id = ?`, [alice.user.id]);
    await orm.em
      .fork()
      .execute(`update users set display_name = ? where id = ?`, ['Bob\u202e 🧊\nder Große', bob.user.id]);
    await subscribe(alice.user.id, 1);
    const postId = await notify(alice.user.id, bob.user.id, 'follow');
    const em = orm.em.fork();
    const [comment] = await em.execute<{ id: string }[]>(
      `insert into comments (id, post_id, author_id, content) values (gen_random_uuid(), ?, ?, ?) returning id`,
      [postId, bob.user.id, `Schöner   Würfel!\n${'sehr '.repeat(60)}`],
    );
    await em.execute(
      `insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at)
       values (gen_random_uuid(), ?, ?, 'comment', ?, ?, now())`,
      [alice.user.id, bob.user.id, postId, comment!.id],
    );
    const { deps, sent } = recordingDeps();
    expect(await fanOut(deps, { recipientId: alice.user.id })).toBe(2);
    const byKind = Object.fromEntries(sent.map((s) => [s.payload.kind, s.payload]));
    expect(byKind.follow).toEqual({
      kind: 'follow',
      who: bob.user.username,
      name: 'Bob 🧊 der Große',
      snippet: null,
      lang: 'de',
      url: `/profile/${bob.user.username}`,
    });
    expect(byKind.comment).toMatchObject({ kind: 'comment', lang: 'de', url: `/posts/${postId}` });
    const snippet = byKind.comment!.snippet!;
    expect(snippet.startsWith('Schöner Würfel! sehr sehr')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(Array.from(snippet).length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH);
    for (const { payload } of sent) {
      expect(JSON.stringify(payload)).not.toMatch(/liked|commented|following|mentioned|sent you/);
      expect(pushPayloadSchema.parse(payload)).toEqual(payload);
    }
  });

  it('quotes nothing removed, nor a post behind a content warning', async () => {
    const alice = await createMember(orm);
    const bob = await createMember(orm);
    await subscribe(alice.user.id, 1);
    const em = orm.em.fork();
    const [post] = await em.execute<{ id: string }[]>(
      `insert into posts (id, author_id, content, content_warning) values (gen_random_uuid(), ?, 'hi @al', 'spoilers') returning id`,
      [bob.user.id],
    );
    const postId = await notify(alice.user.id, bob.user.id, 'follow');
    const [comment] = await em.execute<{ id: string }[]>(
      `insert into comments (id, post_id, author_id, content, removed_at) values (gen_random_uuid(), ?, ?, 'gone', now()) returning id`,
      [postId, bob.user.id],
    );
    await em.execute(
      `insert into notifications (id, recipient_id, actor_id, type, post_id, comment_id, created_at)
       values (gen_random_uuid(), ?, ?, 'comment', ?, ?, now()), (gen_random_uuid(), ?, ?, 'mention', ?, null, now())`,
      [alice.user.id, bob.user.id, postId, comment!.id, alice.user.id, bob.user.id, post!.id],
    );
    const { deps, sent } = recordingDeps();
    expect(await fanOut(deps, { recipientId: alice.user.id })).toBe(3);
    expect(sent.map((s) => [s.payload.kind, s.payload.snippet]).sort()).toEqual([
      ['comment', null],
      ['follow', null],
      ['mention', null],
    ]);
  });

  it('pushes a mention by its kind, a follow to the profile; kinds never pushed are left out', () => {
    const claimed = { id: 'n', display_name: 'Bob', snippet: 'hi @al', language: 'ar' };
    expect(notificationPayload({ ...claimed, type: 'mention', post_id: 'p1', username: 'bob' })).toEqual({
      kind: 'mention',
      who: 'bob',
      name: 'Bob',
      snippet: 'hi @al',
      lang: 'ar',
      url: '/posts/p1',
    });
    expect(
      notificationPayload({ ...claimed, type: 'follow', post_id: null, username: 'b o', language: 'xx' }),
    ).toMatchObject({ kind: 'follow', snippet: null, lang: 'en', url: '/profile/b%20o' });
    expect(notificationPayload({ ...claimed, type: 'removal', post_id: null, username: 'm' })).toBeNull();
    expect(
      messagePayload({ id: 'm', sender_id: 'u1', username: 'bob', display_name: '', language: 'de' }),
    ).toEqual({ kind: 'message', who: 'bob', name: 'bob', snippet: null, lang: 'de', url: '/chat?user=u1' });
  });

  it('keeps a name on one line, without controls, cut at a character, and a payload far below 4 KB', () => {
    expect(pushName('a\u0000b\u0007\tc\u2066d\u200f', 'x')).toBe('a b cd');
    expect(pushName(' \u202e\n ', 'fallback')).toBe('fallback');
    const long = pushName('👩‍👩‍👧'.repeat(40), 'x');
    expect(Array.from(long).length).toBeLessThanOrEqual(PUSH_NAME_MAX);
    expect(long.endsWith('…')).toBe(true);
    // No half of a surrogate pair.
    expect(/\p{Cs}/u.test(long)).toBe(false);
    // The largest payload: the longest name and snippet of 4-byte characters, a long username.
    const payload = notificationPayload({
      id: 'n',
      type: 'comment',
      post_id: '9a1b0c8e-0000-4000-8000-000000000010',
      username: 'u'.repeat(30),
      display_name: '𝔘'.repeat(500),
      snippet: '𝔘'.repeat(500),
      language: 'ar',
    });
    // RFC 8291 leaves 3,993 bytes for a payload in one aes128gcm record; push services accept 4,096.
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThan(1_000);
  });

  it('drops a subscription whose endpoint the guard refuses at send time, with one warning and no error', async () => {
    const alice = await createMember(orm);
    const endpoints = ['https://localhost:8443/a', 'https://foo.localhost', 'https://127.0.0.1/x'];
    const ids: string[] = [];
    for (const endpoint of endpoints) {
      // Saved before subscribe-time checks existed: only the send can find it out.
      const id = randomUUID();
      ids.push(id);
      await orm.em
        .fork()
        .execute(
          `insert into push_subscriptions (id, user_id, endpoint, p256dh, auth) values (?, ?, ?, 'k', 'a')`,
          [id, alice.user.id, endpoint],
        );
    }
    const warnings: { fields: Record<string, unknown>; message: string }[] = [];
    const errors: unknown[] = [];
    const { deps } = recordingDeps();
    const strict: PushDeps = {
      ...deps,
      logError: (_message, error) => errors.push(error),
      logWarn: (fields, message) => warnings.push({ fields, message }),
    };
    const payload = { kind: 'like', who: 'bob', name: 'Bob', snippet: null, lang: 'en', url: '/' } as const;
    for (const subscriptionId of ids) {
      const outcome = await deliver(strict, { subscriptionId, payload });
      expect(outcome?.kind, subscriptionId).toBe('refused');
    }
    expect(errors).toEqual([]);
    expect(warnings).toHaveLength(endpoints.length);
    for (const warning of warnings) {
      expect(warning.message).toBe('push endpoint refused; subscription dropped');
      expect(warning.fields).toMatchObject({ component: 'push', reason: expect.any(String) });
      expect(warning.fields).not.toHaveProperty('err');
    }
    const [row] = await orm.em
      .fork()
      .execute<{ n: number }[]>('select count(*)::int as n from push_subscriptions where user_id = ?', [
        alice.user.id,
      ]);
    expect(row!.n).toBe(0);
  });
});
