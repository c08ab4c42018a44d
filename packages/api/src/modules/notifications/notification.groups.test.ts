/**
 * Grouped notifications (issue #49): likes and reposts of one post, and follows, on one UTC day
 * are one item; the other kinds one item each; hidden actors neither shown nor counted.
 */
import { describe, expect, it } from 'vitest';
import { createMember, expectCode, type Member, useDatabase, visitor } from '../../../test/harness.js';
import { publishEvent } from '../../context.js';
import { dayBucket, notificationGroupKey } from './notification.groups.js';

const db = useDatabase();

const DAY_MS = 86_400_000;

async function members(n: number, at?: () => Date): Promise<Member[]> {
  const out: Member[] = [];
  // One by one: the shared clock gives each a later time, so "newest" is unambiguous.
  for (let i = 0; i < n; i++) out.push(await createMember(db.orm, {}, at ? { now: at } : {}));
  return out;
}

async function suspend(id: string, suspended: boolean): Promise<void> {
  await db.orm.em
    .fork()
    .execute(
      suspended
        ? 'update users set suspended_at = now(), suspended_until = null where id = ?'
        : 'update users set suspended_at = null where id = ?',
      [id],
    );
}

describe('the group key', () => {
  it('is the UTC calendar day: 00:00 to 23:59:59.999 UTC is one group, the next day another', () => {
    const post = '6f1c1a0e-0000-4000-8000-000000000001';
    const morning = new Date('2026-11-29T00:00:00.000Z');
    const night = new Date('2026-11-29T23:59:59.999Z');
    const next = new Date('2026-11-30T00:00:00.000Z');
    expect(dayBucket(morning)).toBe('2026-11-29');
    expect(notificationGroupKey('like', post, morning)).toBe(`like:${post}:2026-11-29`);
    expect(notificationGroupKey('like', post, night)).toBe(notificationGroupKey('like', post, morning));
    expect(notificationGroupKey('like', post, next)).toBe(`like:${post}:2026-11-30`);
    expect(notificationGroupKey('repost', post, night)).toBe(`repost:${post}:2026-11-29`);
    expect(notificationGroupKey('follow', null, night)).toBe('follow:2026-11-29');
    for (const type of ['comment', 'mention', 'quote', 'removal', 'poll_ended'] as const) {
      expect(notificationGroupKey(type, post, night)).toBeNull();
    }
  });
});

describe('grouped notifications', () => {
  it('shows four likes of one post as one item: newest actor first, three avatars, four counted', async () => {
    const author = await createMember(db.orm);
    const fans = await members(4);
    const { post } = await author.caller.posts.create({ content: 'like me' });
    for (const fan of fans) await fan.caller.posts.like({ postId: post.id });

    const list = await author.caller.notifications.list();
    expect(list).toHaveLength(1);
    const [item] = list;
    const newest = fans[3]!;
    expect(item).toMatchObject({
      type: 'like',
      username: newest.user.username,
      message: 'liked your post',
      postId: post.id,
      isRead: false,
      actorsCount: 4,
      snippet: 'like me',
    });
    expect(item!.groupKey).toMatch(new RegExp(`^like:${post.id}:\\d{4}-\\d{2}-\\d{2}$`));
    expect(item!.actors.map((a) => a.username)).toEqual(
      [fans[3], fans[2], fans[1]].map((f) => f!.user.username),
    );
    expect(Object.keys(item!.actors[0]!).sort()).toEqual(['avatarUrl', 'displayName', 'id', 'username']);
    expect(await author.caller.notifications.unreadCount()).toEqual({ count: 1 });

    // Opening the group lists everyone, newest first, paged.
    const first = await author.caller.notifications.groupActors({ id: item!.id, limit: 3 });
    expect(first.items.map((a) => a.id)).toEqual([fans[3], fans[2], fans[1]].map((f) => f!.user.id));
    const rest = await author.caller.notifications.groupActors({
      id: item!.id,
      limit: 3,
      cursor: first.nextCursor,
    });
    expect(rest.items.map((a) => a.id)).toEqual([fans[0]!.user.id]);
    expect(rest.nextCursor).toBeNull();
  });

  it('keeps likes of different posts apart, and reposts apart from likes', async () => {
    const author = await createMember(db.orm);
    const [a, b] = await members(2);
    const { post: one } = await author.caller.posts.create({ content: 'one' });
    const { post: two } = await author.caller.posts.create({ content: 'two' });
    await a!.caller.posts.like({ postId: one.id });
    await b!.caller.posts.like({ postId: two.id });
    await b!.caller.posts.like({ postId: one.id });
    await a!.caller.reposts.add({ postId: one.id });
    await b!.caller.reposts.add({ postId: one.id });
    const list = await author.caller.notifications.list();
    expect(list.map((n) => [n.type, n.postId, n.actorsCount])).toEqual([
      ['repost', one.id, 2],
      ['like', one.id, 2],
      ['like', two.id, 1],
    ]);
    expect(list[0]!.message).toBe('reposted your post');
    expect(await author.caller.notifications.unreadCount()).toEqual({ count: 3 });
  });

  it('opens a new group on the next UTC day', async () => {
    const author = await createMember(db.orm);
    const yesterday = await createMember(db.orm, {}, { now: () => new Date(Date.now() - DAY_MS) });
    const [today1, today2] = await members(2);
    const { post } = await author.caller.posts.create({ content: 'two days' });
    await yesterday.caller.posts.like({ postId: post.id });
    await today1!.caller.posts.like({ postId: post.id });
    await today2!.caller.posts.like({ postId: post.id });
    const list = await author.caller.notifications.list();
    expect(list.map((n) => n.actorsCount)).toEqual([2, 1]);
    expect(list[1]!.username).toBe(yesterday.user.username);
    expect(list[0]!.groupKey).not.toBe(list[1]!.groupKey);
  });

  it('groups the follows of a day: "… followed you"', async () => {
    const me = await createMember(db.orm);
    const fans = await members(3);
    for (const fan of fans) await fan.caller.follows.follow({ userId: me.user.id });
    const list = await me.caller.notifications.list();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      type: 'follow',
      actorsCount: 3,
      postId: null,
      username: fans[2]!.user.username,
    });
    expect(list[0]!.groupKey).toMatch(/^follow:\d{4}-\d{2}-\d{2}$/);
    // An unfollow takes its actor out of the group.
    await fans[2]!.caller.follows.unfollow({ userId: me.user.id });
    const after = await me.caller.notifications.list();
    expect(after[0]).toMatchObject({ actorsCount: 2, username: fans[1]!.user.username });
  });

  it('keeps comments, mentions and quotes one item each', async () => {
    const author = await createMember(db.orm);
    const [a, b] = await members(2);
    const { post } = await author.caller.posts.create({ content: 'talk' });
    await a!.caller.comments.create({ postId: post.id, content: 'one' });
    await b!.caller.comments.create({ postId: post.id, content: 'two' });
    await a!.caller.posts.create({ content: `hey @${author.user.username}` });
    await b!.caller.posts.create({ content: `hey @${author.user.username}` });
    await a!.caller.posts.create({ content: 'quoting', quotePostId: post.id });
    await b!.caller.posts.create({ content: 'quoting too', quotePostId: post.id });
    const list = await author.caller.notifications.list();
    expect(list.map((n) => n.type)).toEqual(['quote', 'quote', 'mention', 'mention', 'comment', 'comment']);
    for (const item of list) {
      expect(item.actorsCount).toBe(1);
      expect(item.groupKey).toBe(item.id);
      expect(item.actors).toHaveLength(1);
      expect(item.actors[0]!.username).toBe(item.username);
    }
    expect(new Set(list.map((n) => n.groupKey)).size).toBe(6);
    expect(await author.caller.notifications.unreadCount()).toEqual({ count: 6 });
  });

  it('leaves out muted, blocked and suspended actors, and a group whose actors are all hidden', async () => {
    const author = await createMember(db.orm);
    const [kept, muted, blocked, suspended] = await members(4);
    const { post } = await author.caller.posts.create({ content: 'hidden fans' });
    const { post: other } = await author.caller.posts.create({ content: 'only hidden' });
    for (const fan of [kept, muted, blocked, suspended]) await fan!.caller.posts.like({ postId: post.id });
    await muted!.caller.posts.like({ postId: other.id });
    await suspended!.caller.posts.like({ postId: other.id });
    expect((await author.caller.notifications.list()).map((n) => n.actorsCount)).toEqual([2, 4]);

    await author.caller.safety.mute({ userId: muted!.user.id });
    await author.caller.safety.block({ userId: blocked!.user.id });
    await suspend(suspended!.user.id, true);
    const list = await author.caller.notifications.list();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ postId: post.id, actorsCount: 1, username: kept!.user.username });
    expect(list[0]!.actors.map((a) => a.id)).toEqual([kept!.user.id]);
    expect(await author.caller.notifications.unreadCount()).toEqual({ count: 1 });
    const everyone = await author.caller.notifications.groupActors({ id: list[0]!.id });
    expect(everyone.items.map((a) => a.id)).toEqual([kept!.user.id]);
    const page = await author.caller.notifications.page({});
    expect(page.items.map((n) => n.actorsCount)).toEqual([1]);

    // The suspension's end and the unmute bring them back.
    await suspend(suspended!.user.id, false);
    await author.caller.safety.unmute({ userId: muted!.user.id });
    expect((await author.caller.notifications.list()).map((n) => n.actorsCount)).toEqual([2, 3]);
  });

  it('takes a removed member out of the group (their rows go with their account)', async () => {
    const author = await createMember(db.orm);
    const [gone, stays] = await members(2);
    const { post } = await author.caller.posts.create({ content: 'removals' });
    await stays!.caller.posts.like({ postId: post.id });
    await gone!.caller.posts.like({ postId: post.id });
    expect((await author.caller.notifications.list())[0]).toMatchObject({
      actorsCount: 2,
      username: gone!.user.username,
    });
    await db.orm.em.fork().execute('delete from users where id = ?', [gone!.user.id]);
    // As the account's deletion does: its recipients' bells hear it (and kept lists drop).
    publishEvent(author.ctx, 'notifications', { recipientId: author.user.id });
    const [item] = await author.caller.notifications.list();
    expect(item).toMatchObject({ actorsCount: 1, username: stays!.user.username });
    expect(item!.actors.map((a) => a.id)).toEqual([stays!.user.id]);
  });

  it('counts unread groups, marks a whole group read by its item id, and mark-all still works', async () => {
    const author = await createMember(db.orm);
    const fans = await members(3);
    const { post } = await author.caller.posts.create({ content: 'read me' });
    for (const fan of fans) await fan.caller.posts.like({ postId: post.id });
    await fans[0]!.caller.comments.create({ postId: post.id, content: 'c' });
    await fans[1]!.caller.follows.follow({ userId: author.user.id });
    expect(await author.caller.notifications.unreadCount()).toEqual({ count: 3 });

    const likes = (await author.caller.notifications.list()).find((n) => n.type === 'like')!;
    expect(await author.caller.notifications.markRead({ id: likes.id })).toEqual({ ok: true, updated: 1 });
    expect(await author.caller.notifications.markRead({ id: likes.id })).toEqual({ ok: true, updated: 0 });
    expect(await author.caller.notifications.unreadCount()).toEqual({ count: 2 });
    const list = await author.caller.notifications.list();
    expect(list.find((n) => n.type === 'like')!.isRead).toBe(true);
    expect(list.filter((n) => !n.isRead).map((n) => n.type)).toEqual(['follow', 'comment']);

    // A new like makes the group unread again: one group, still counted once.
    const late = await createMember(db.orm);
    await late.caller.posts.like({ postId: post.id });
    const again = (await author.caller.notifications.list()).find((n) => n.type === 'like')!;
    expect(again).toMatchObject({ isRead: false, actorsCount: 4, username: late.user.username });
    expect(await author.caller.notifications.unreadCount()).toEqual({ count: 3 });

    expect(await author.caller.notifications.markAllRead()).toMatchObject({ ok: true });
    expect(await author.caller.notifications.unreadCount()).toEqual({ count: 0 });
  });

  it('pages across groups newest first without repeating or skipping one', async () => {
    const me = await createMember(db.orm);
    const fans = await members(3);
    const posts = [];
    for (let i = 0; i < 5; i++) posts.push((await me.caller.posts.create({ content: `p${i}` })).post);
    // Likes interleaved across posts: each post's group's newest like decides its place.
    for (const fan of fans) for (const post of posts) await fan.caller.posts.like({ postId: post.id });
    await fans[0]!.caller.comments.create({ postId: posts[0]!.id, content: 'between' });
    await fans[1]!.caller.posts.like({ postId: posts[0]!.id }); // already liked: nothing new
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof me.caller.notifications.page>> =
        await me.caller.notifications.page({
          limit: 2,
          cursor,
        });
      seen.push(...page.items.map((n) => `${n.type}:${n.postId}:${n.actorsCount}`));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([`comment:${posts[0]!.id}:1`, ...[...posts].reverse().map((p) => `like:${p.id}:3`)]);
    const list = await me.caller.notifications.list();
    expect(list.map((n) => `${n.type}:${n.postId}:${n.actorsCount}`)).toEqual(seen);
  });

  it("answers 404 for an unknown id, another member's notification and a malformed id", async () => {
    const author = await createMember(db.orm);
    const other = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'mine' });
    await fan.caller.posts.like({ postId: post.id });
    const [item] = await author.caller.notifications.list();
    await expectCode(
      other.caller.notifications.groupActors({ id: item!.id }),
      'NOT_FOUND',
      'Notification not found',
    );
    await expectCode(other.caller.notifications.markRead({ id: item!.id }), 'NOT_FOUND');
    expect((await author.caller.notifications.list())[0]!.isRead).toBe(false);
    await expectCode(
      author.caller.notifications.groupActors({ id: '00000000-0000-4000-8000-000000000000' }),
      'NOT_FOUND',
    );
    await expectCode(author.caller.notifications.groupActors({ id: 'not-a-uuid' }), 'NOT_FOUND');
    await expectCode(author.caller.notifications.groupActors({ id: 'a\u0000b' }), 'BAD_REQUEST');
    await expectCode(author.caller.notifications.groupActors({ id: 'x'.repeat(5000) }), 'BAD_REQUEST');
    await expectCode(visitor(db.orm).notifications.groupActors({ id: item!.id }), 'UNAUTHORIZED');
  });
});
