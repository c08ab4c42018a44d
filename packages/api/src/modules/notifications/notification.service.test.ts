import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, expectCode, setupDatabase, visitor } from '../../../test/harness.js';

let db: Awaited<ReturnType<typeof setupDatabase>>;
beforeAll(async () => {
  db = await setupDatabase();
});
afterAll(() => db.close());

async function countRows(sql: string, params: unknown[]): Promise<number> {
  const rows = await db.orm.em
    .fork()
    .execute<{ n: number }[]>(`select count(*)::int as n from (${sql}) x`, params);
  return rows[0]!.n;
}

describe('notifications', () => {
  it('tells the author about likes, comments and follows, newest first, in the contract shape', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'notify me' });
    await fan.caller.posts.like({ postId: post.id });
    await fan.caller.comments.create({ postId: post.id, content: 'nice' });
    await fan.caller.follows.follow({ userId: author.user.id });

    const list = await author.caller.notifications.list();
    expect(list.map((n) => n.type)).toEqual(['follow', 'comment', 'like']);
    expect(Object.keys(list[0]!).sort()).toEqual(
      ['id', 'isRead', 'message', 'postId', 'timestamp', 'type', 'userAvatar', 'username'].sort(),
    );
    expect(list[0]).toMatchObject({
      type: 'follow',
      username: fan.user.username,
      userAvatar: null,
      message: 'started following you',
      isRead: false,
      postId: null,
    });
    expect(list[1]).toMatchObject({ type: 'comment', message: 'commented on your post', postId: post.id });
    expect(list[2]).toMatchObject({ type: 'like', message: 'liked your post', postId: post.id });
    expect(list[0]!.timestamp).toBeInstanceOf(Date);
    expect(await author.caller.notifications.unreadCount()).toEqual({ count: 3 });
    // The fan was told nothing.
    expect(await fan.caller.notifications.list()).toEqual([]);
  });

  it('says nothing about acting on your own post', async () => {
    const me = await createMember(db.orm);
    const { post } = await me.caller.posts.create({ content: 'mine' });
    await me.caller.posts.like({ postId: post.id });
    await me.caller.comments.create({ postId: post.id, content: 'talking to myself' });
    expect(await me.caller.notifications.list()).toEqual([]);
  });

  it('keeps one like notification per actor and post through like, unlike, like', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'fickle' });
    await fan.caller.posts.like({ postId: post.id });
    await fan.caller.posts.like({ postId: post.id });
    await fan.caller.posts.unlike({ postId: post.id });
    await fan.caller.posts.like({ postId: post.id });
    const likes = (await author.caller.notifications.list()).filter((n) => n.type === 'like');
    expect(likes).toHaveLength(1);
    expect(
      await countRows("select 1 from notifications where type = 'like' and actor_id = ? and post_id = ?", [
        fan.user.id,
        post.id,
      ]),
    ).toBe(1);
    // Unliking takes it back.
    await fan.caller.posts.unlike({ postId: post.id });
    expect((await author.caller.notifications.list()).filter((n) => n.type === 'like')).toHaveLength(0);
  });

  it('keeps one follow notification per follower through follow, unfollow, follow', async () => {
    const star = await createMember(db.orm);
    const fan = await createMember(db.orm);
    await fan.caller.follows.follow({ userId: star.user.id });
    await fan.caller.follows.follow({ userId: star.user.id });
    await fan.caller.follows.unfollow({ userId: star.user.id });
    await fan.caller.follows.follow({ userId: star.user.id });
    expect((await star.caller.notifications.list()).filter((n) => n.type === 'follow')).toHaveLength(1);
  });

  it('makes one notification per comment', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'chatty' });
    await fan.caller.comments.create({ postId: post.id, content: 'a' });
    await fan.caller.comments.create({ postId: post.id, content: 'b' });
    expect((await author.caller.notifications.list()).filter((n) => n.type === 'comment')).toHaveLength(2);
  });

  it('marks all read, only for the caller', async () => {
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    const fan = await createMember(db.orm);
    await fan.caller.follows.follow({ userId: a.user.id });
    await fan.caller.follows.follow({ userId: b.user.id });
    const { post } = await a.caller.posts.create({ content: 'x' });
    await fan.caller.posts.like({ postId: post.id });

    expect(await a.caller.notifications.markAllRead()).toEqual({ ok: true, updated: 2 });
    expect(await a.caller.notifications.markAllRead()).toEqual({ ok: true, updated: 0 });
    expect((await a.caller.notifications.list()).every((n) => n.isRead)).toBe(true);
    expect(await a.caller.notifications.unreadCount()).toEqual({ count: 0 });
    expect((await b.caller.notifications.list()).map((n) => n.isRead)).toEqual([false]);
  });

  it('shows each user only their own and caps the list at 50', async () => {
    const busy = await createMember(db.orm);
    const other = await createMember(db.orm);
    const fans = await Promise.all(Array.from({ length: 55 }, () => createMember(db.orm)));
    await Promise.all(fans.map((f) => f.caller.follows.follow({ userId: busy.user.id })));
    const list = await busy.caller.notifications.list();
    expect(list).toHaveLength(50);
    for (let i = 1; i < list.length; i++) {
      expect(list[i - 1]!.timestamp.getTime()).toBeGreaterThanOrEqual(list[i]!.timestamp.getTime());
    }
    expect(await other.caller.notifications.list()).toEqual([]);
  });

  it('needs a login', async () => {
    await expectCode(visitor(db.orm).notifications.list(), 'UNAUTHORIZED');
    await expectCode(visitor(db.orm).notifications.markAllRead(), 'UNAUTHORIZED');
    await expectCode(visitor(db.orm).notifications.unreadCount(), 'UNAUTHORIZED');
  });
});
