import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, expectCode, setupDatabase, visitor } from '../../../test/harness.js';

let db: Awaited<ReturnType<typeof setupDatabase>>;
beforeAll(async () => {
  db = await setupDatabase();
});
afterAll(() => db.close());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('follows.follow and follows.unfollow', () => {
  it('are idempotent and answer the followers count', async () => {
    const star = await createMember(db.orm);
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    expect(await a.caller.follows.follow({ userId: star.user.id })).toEqual({
      following: true,
      followersCount: 1,
    });
    expect(await a.caller.follows.follow({ userId: star.user.id })).toEqual({
      following: true,
      followersCount: 1,
    });
    expect(await b.caller.follows.follow({ userId: star.user.id })).toEqual({
      following: true,
      followersCount: 2,
    });
    expect(await a.caller.follows.unfollow({ userId: star.user.id })).toEqual({
      following: false,
      followersCount: 1,
    });
    expect(await a.caller.follows.unfollow({ userId: star.user.id })).toEqual({
      following: false,
      followersCount: 1,
    });
  });

  it("show on the followee's profile and stats, for the follower only", async () => {
    const star = await createMember(db.orm);
    const fan = await createMember(db.orm);
    await fan.caller.follows.follow({ userId: star.user.id.toUpperCase() });
    const seenByFan = await fan.caller.users.byUsername({ username: star.user.username });
    expect(seenByFan.isFollowing).toBe(true);
    expect(seenByFan.stats.followersCount).toBe(1);
    expect((await star.caller.users.byUsername({ username: star.user.username })).isFollowing).toBe(false);
    expect((await visitor(db.orm).users.stats({ userId: fan.user.id })).followingCount).toBe(1);
    await fan.caller.follows.unfollow({ userId: star.user.id });
    expect((await fan.caller.users.byUsername({ username: star.user.username })).isFollowing).toBe(false);
    expect((await visitor(db.orm).users.stats({ userId: star.user.id })).followersCount).toBe(0);
  });

  it('refuse following yourself, unknown users and visitors', async () => {
    const me = await createMember(db.orm);
    await expectCode(
      me.caller.follows.follow({ userId: me.user.id }),
      'BAD_REQUEST',
      'You cannot follow yourself',
    );
    await expectCode(me.caller.follows.follow({ userId: UNKNOWN }), 'NOT_FOUND', 'User not found');
    await expectCode(me.caller.follows.unfollow({ userId: UNKNOWN }), 'NOT_FOUND', 'User not found');
    // Control characters are refused by the text rule before any lookup.
    await expectCode(
      me.caller.follows.follow({ userId: 'a\u0000b' }),
      'BAD_REQUEST',
      'Id contains characters that are not allowed',
    );
    for (const userId of ['x', '🧊', `${UNKNOWN}\n`]) {
      await expectCode(me.caller.follows.follow({ userId }), 'NOT_FOUND', 'User not found');
      await expectCode(me.caller.follows.unfollow({ userId }), 'NOT_FOUND', 'User not found');
    }
    await expectCode(me.caller.follows.follow({ userId: 'x'.repeat(70_000) }), 'BAD_REQUEST');
    // biome-ignore lint/suspicious/noExplicitAny: a client that ignores the types
    await expectCode(me.caller.follows.follow({ userId: 42 as any }), 'BAD_REQUEST', 'Id is required');
    await expectCode(visitor(db.orm).follows.follow({ userId: me.user.id }), 'UNAUTHORIZED');
    await expectCode(visitor(db.orm).follows.unfollow({ userId: me.user.id }), 'UNAUTHORIZED');
  });

  it('count against the react bucket', async () => {
    const hits: string[] = [];
    const target = await createMember(db.orm);
    const me = await createMember(
      db.orm,
      {},
      {
        rateLimit: async (bucket, key) => {
          hits.push(`${bucket}:${key}`);
          return { allowed: false, retryAfterSeconds: 5 };
        },
      },
    );
    await expectCode(me.caller.follows.follow({ userId: target.user.id }), 'TOO_MANY_REQUESTS');
    expect(hits).toEqual([`react:user:${me.user.id}`]);
  });
});
