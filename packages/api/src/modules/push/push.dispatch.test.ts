/**
 * The fan-out on a real PostgreSQL: a notification is claimed once however many fan-outs run at
 * the same time (two instances, a job run twice), one send is queued per browser, the window keeps
 * old notifications out, and a mention (the kind another module adds) is pushed by its name. A
 * send the guard refuses for its endpoint drops the subscription with one warning.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@cubes/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, setupDatabase } from '../../../test/harness.js';
import type { JobQueue } from '../../jobs/jobs.queue.js';
import { deliver, fanOut, notificationPayload, type PushDeps, type PushSendJob } from './push.dispatch.js';
import { generateVapidKeys } from './push.keys.js';

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
    expect(sent[0]!.payload).toEqual({
      text: `${bob.user.username} liked your post`,
      who: bob.user.username,
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

  it('words a mention by its name, and sends a follow to the profile', () => {
    expect(notificationPayload({ id: 'n', type: 'mention', post_id: 'p1', username: 'bob' })).toEqual({
      text: 'bob mentioned you',
      who: 'bob',
      url: '/posts/p1',
    });
    expect(notificationPayload({ id: 'n', type: 'follow', post_id: null, username: 'b o' })).toEqual({
      text: 'b o started following you',
      who: 'b o',
      url: '/profile/b%20o',
    });
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
    const payload = { text: 'bob liked your post', who: 'bob', url: '/' };
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
