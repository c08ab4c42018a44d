import { describe, expect, it } from 'vitest';
import { createMember, expectCode, UNKNOWN_ID, useDatabase, visitor } from '../../../test/harness.js';

const db = useDatabase();

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
    await expectCode(me.caller.follows.follow({ userId: UNKNOWN_ID }), 'NOT_FOUND', 'User not found');
    await expectCode(me.caller.follows.unfollow({ userId: UNKNOWN_ID }), 'NOT_FOUND', 'User not found');
    // Control characters are refused by the text rule before any lookup.
    await expectCode(
      me.caller.follows.follow({ userId: 'a\u0000b' }),
      'BAD_REQUEST',
      'Id contains characters that are not allowed',
    );
    for (const userId of ['x', '🧊', `${UNKNOWN_ID}\n`]) {
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

describe('follows.followers and follows.following', () => {
  const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

  it('page who follows a member and whom they follow, most recent first, with isFollowing for the viewer', async () => {
    const star = await createMember(db.orm);
    const fans: Awaited<ReturnType<typeof createMember>>[] = [];
    for (let i = 0; i < 5; i++) {
      const fan = await createMember(db.orm);
      await fan.caller.follows.follow({ userId: star.user.id });
      fans.push(fan);
    }
    await star.caller.follows.follow({ userId: fans[1]!.user.id });
    const viewer = await createMember(db.orm);
    await viewer.caller.follows.follow({ userId: fans[3]!.user.id });

    const newestFirst = fans.map((fan) => fan.user.id).reverse();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof viewer.caller.follows.followers>> =
        await viewer.caller.follows.followers({ userId: star.user.id, limit: 2, cursor });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...ids(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);

    const all = await viewer.caller.follows.followers({ userId: star.user.id });
    expect(all.nextCursor).toBeNull();
    expect(all.items.find((item) => item.id === fans[3]!.user.id)).toMatchObject({
      username: fans[3]!.user.username,
      isFollowing: true,
      followersCount: 1,
    });
    expect(all.items.filter((item) => item.isFollowing)).toHaveLength(1);
    expect(Object.keys(all.items[0]!).sort()).toEqual(
      ['avatarUrl', 'bio', 'displayName', 'followersCount', 'id', 'isFollowing', 'username'].sort(),
    );
    // The fan the star follows back has the star in their Following list… and 2 followers.
    expect(ids(await visitor(db.orm).follows.following({ userId: fans[1]!.user.id }))).toEqual([
      star.user.id,
    ]);
    expect(await visitor(db.orm).follows.following({ userId: star.user.id })).toMatchObject({
      items: [{ id: fans[1]!.user.id, followersCount: 1, isFollowing: false }],
      nextCursor: null,
    });
    // A member with no follows has empty lists.
    expect(await viewer.caller.follows.followers({ userId: viewer.user.id })).toEqual({
      items: [],
      nextCursor: null,
    });
  });

  it('leave out members blocked either way with the viewer or suspended, and hide a hidden member’s lists', async () => {
    const star = await createMember(db.orm);
    const viewer = await createMember(db.orm);
    const blockedByViewer = await createMember(db.orm);
    const blockerOfViewer = await createMember(db.orm);
    const suspended = await createMember(db.orm);
    const plain = await createMember(db.orm);
    for (const fan of [viewer, blockedByViewer, blockerOfViewer, suspended, plain]) {
      await fan.caller.follows.follow({ userId: star.user.id });
      await star.caller.follows.follow({ userId: fan.user.id });
    }
    await viewer.caller.safety.block({ userId: blockedByViewer.user.id });
    await blockerOfViewer.caller.safety.block({ userId: viewer.user.id });
    await db.orm.em
      .fork()
      .execute('update users set suspended_at = now(), suspended_until = null where id = ?', [
        suspended.user.id,
      ]);

    const shownToViewer = [plain.user.id, viewer.user.id].sort();
    expect(ids(await viewer.caller.follows.followers({ userId: star.user.id })).sort()).toEqual(
      shownToViewer,
    );
    expect(ids(await viewer.caller.follows.following({ userId: star.user.id })).sort()).toEqual(
      shownToViewer,
    );
    // Someone else sees all but the suspended member.
    const shownToVisitor = [plain, blockerOfViewer, blockedByViewer, viewer].map((m) => m.user.id).sort();
    expect(ids(await visitor(db.orm).follows.followers({ userId: star.user.id })).sort()).toEqual(
      shownToVisitor,
    );
    // The viewer's own row says they do not follow themselves.
    const own = (await viewer.caller.follows.followers({ userId: star.user.id })).items.find(
      (item) => item.id === viewer.user.id,
    );
    expect(own?.isFollowing).toBe(false);

    // A blocked pair sees neither of the other's lists, as neither sees the other's stats.
    for (const [who, whose] of [
      [viewer, blockedByViewer],
      [blockedByViewer, viewer],
      [viewer, blockerOfViewer],
      [blockerOfViewer, viewer],
    ] as const) {
      await expectCode(
        who.caller.follows.followers({ userId: whose.user.id }),
        'NOT_FOUND',
        'User not found',
      );
      await expectCode(
        who.caller.follows.following({ userId: whose.user.id }),
        'NOT_FOUND',
        'User not found',
      );
    }
    // Nor does anyone see a suspended member's lists.
    await expectCode(visitor(db.orm).follows.followers({ userId: suspended.user.id }), 'NOT_FOUND');
    await expectCode(plain.caller.follows.following({ userId: suspended.user.id }), 'NOT_FOUND');
  });

  it('answer 404 for unknown members and 400 for a bad cursor or limit', async () => {
    const me = await createMember(db.orm);
    for (const userId of [UNKNOWN_ID, 'x']) {
      await expectCode(me.caller.follows.followers({ userId }), 'NOT_FOUND', 'User not found');
      await expectCode(visitor(db.orm).follows.following({ userId }), 'NOT_FOUND', 'User not found');
    }
    await expectCode(
      me.caller.follows.followers({ userId: me.user.id, cursor: 'bm9wZQ' }),
      'BAD_REQUEST',
      'Invalid cursor',
    );
    await expectCode(me.caller.follows.following({ userId: me.user.id, limit: 0 }), 'BAD_REQUEST');
    await expectCode(me.caller.follows.following({ userId: me.user.id, limit: 51 }), 'BAD_REQUEST');
  });
});
