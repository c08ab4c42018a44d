import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createMember,
  expectCode,
  type Member,
  publicObject,
  UNKNOWN_ID,
  useDatabase,
  visitor,
} from '../../../test/harness.js';
import { NOT_ACCEPTING } from '../messages/message.service.js';
import { POST_NOT_FOUND } from '../posts/post.service.js';
import { CANNOT_BLOCK_SELF, CANNOT_FOLLOW_BLOCKED, CANNOT_MUTE_SELF } from './safety.service.js';

const db = useDatabase();

/** The ids in the first feed page (50 posts: everything the test just wrote is among them). */
async function feedIds(caller: Member['caller'] | ReturnType<typeof visitor>): Promise<string[]> {
  return (await caller.posts.feed({ limit: 50 })).items.map((p) => p.id);
}

async function notificationCount(m: Member): Promise<number> {
  return (await m.caller.notifications.unreadCount()).count;
}

describe('safety.block and safety.unblock', () => {
  it('are idempotent, and the lists show who, newest first, in pages', async () => {
    const me = await createMember(db.orm);
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    expect(await me.caller.safety.block({ userId: a.user.id })).toEqual({ blocked: true });
    expect(await me.caller.safety.block({ userId: a.user.id })).toEqual({ blocked: true });
    expect(await me.caller.safety.block({ userId: b.user.id.toUpperCase() })).toEqual({ blocked: true });
    const first = await me.caller.safety.blocked({ limit: 1 });
    expect(first.items.map((e) => e.username)).toEqual([b.user.username]);
    expect(first.items[0]).toMatchObject({
      userId: b.user.id,
      displayName: expect.any(String),
      avatarUrl: null,
    });
    expect(first.items[0]!.since).toBeInstanceOf(Date);
    const second = await me.caller.safety.blocked({ limit: 1, cursor: first.nextCursor });
    expect(second.items.map((e) => e.username)).toEqual([a.user.username]);
    expect(second.nextCursor).toBeNull();
    expect((await me.caller.safety.muted({})).items).toEqual([]);
    // Another member's list is their own.
    expect((await a.caller.safety.blocked({})).items).toEqual([]);

    expect(await me.caller.safety.unblock({ userId: a.user.id })).toEqual({ blocked: false });
    expect(await me.caller.safety.unblock({ userId: a.user.id })).toEqual({ blocked: false });
    expect((await me.caller.safety.blocked({})).items.map((e) => e.userId)).toEqual([b.user.id]);
  });

  it('refuse yourself, unknown users, hostile ids and visitors', async () => {
    const me = await createMember(db.orm);
    await expectCode(me.caller.safety.block({ userId: me.user.id }), 'BAD_REQUEST', CANNOT_BLOCK_SELF);
    await expectCode(me.caller.safety.mute({ userId: me.user.id }), 'BAD_REQUEST', CANNOT_MUTE_SELF);
    for (const procedure of ['block', 'unblock', 'mute', 'unmute'] as const) {
      await expectCode(me.caller.safety[procedure]({ userId: UNKNOWN_ID }), 'NOT_FOUND', 'User not found');
      for (const userId of ['x', '🧊', `${UNKNOWN_ID}\n`]) {
        await expectCode(me.caller.safety[procedure]({ userId }), 'NOT_FOUND', 'User not found');
      }
      await expectCode(
        me.caller.safety[procedure]({ userId: 'a\u0000b' }),
        'BAD_REQUEST',
        'Id contains characters that are not allowed',
      );
      await expectCode(me.caller.safety[procedure]({ userId: 'x'.repeat(70_000) }), 'BAD_REQUEST');
      // biome-ignore lint/suspicious/noExplicitAny: a client that ignores the types
      await expectCode(me.caller.safety[procedure]({ userId: 42 as any }), 'BAD_REQUEST');
      await expectCode(visitor(db.orm).safety[procedure]({ userId: me.user.id }), 'UNAUTHORIZED');
    }
    await expectCode(visitor(db.orm).safety.blocked({}), 'UNAUTHORIZED');
    await expectCode(visitor(db.orm).safety.muted({}), 'UNAUTHORIZED');
    await expectCode(me.caller.safety.blocked({ cursor: 'nonsense' }), 'BAD_REQUEST', 'Invalid cursor');
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
    await expectCode(me.caller.safety.block({ userId: target.user.id }), 'TOO_MANY_REQUESTS');
    await expectCode(me.caller.safety.mute({ userId: target.user.id }), 'TOO_MANY_REQUESTS');
    expect(hits).toEqual([`react:user:${me.user.id}`, `react:user:${me.user.id}`]);
  });
});

describe('a block', () => {
  it('ends follows both ways with their notifications, and refuses new ones both ways', async () => {
    const me = await createMember(db.orm);
    const them = await createMember(db.orm);
    await me.caller.follows.follow({ userId: them.user.id });
    await them.caller.follows.follow({ userId: me.user.id });
    expect(await notificationCount(me)).toBe(1);
    expect(await notificationCount(them)).toBe(1);

    await me.caller.safety.block({ userId: them.user.id });
    const stats = await visitor(db.orm).users.stats({ userId: me.user.id });
    expect(stats).toMatchObject({ followersCount: 0, followingCount: 0 });
    expect(await notificationCount(me)).toBe(0);
    expect(await notificationCount(them)).toBe(0);
    expect(await them.caller.notifications.list()).toEqual([]);
    await expectCode(them.caller.follows.follow({ userId: me.user.id }), 'FORBIDDEN', CANNOT_FOLLOW_BLOCKED);
    await expectCode(me.caller.follows.follow({ userId: them.user.id }), 'FORBIDDEN', CANNOT_FOLLOW_BLOCKED);
    // Unfollowing stays possible (and changes nothing).
    expect(await them.caller.follows.unfollow({ userId: me.user.id })).toEqual({
      following: false,
      followersCount: 0,
    });

    // Unblocking does not bring the follows back, but allows following again.
    await me.caller.safety.unblock({ userId: them.user.id });
    expect((await visitor(db.orm).users.stats({ userId: me.user.id })).followersCount).toBe(0);
    expect(await them.caller.follows.follow({ userId: me.user.id })).toEqual({
      following: true,
      followersCount: 1,
    });
  });

  it('hides each one’s posts from the other: feed, post, profile posts, likes and comments', async () => {
    const me = await createMember(db.orm);
    const them = await createMember(db.orm);
    const other = await createMember(db.orm);
    const { post: mine } = await me.caller.posts.create({ content: 'mine' });
    const { post: theirs } = await them.caller.posts.create({ content: 'theirs' });
    await them.caller.comments.create({ postId: mine.id, content: 'a comment before the block' });
    const { post: third } = await other.caller.posts.create({ content: 'a third party post' });
    const myComment = await me.caller.comments.create({ postId: third.id, content: 'from me' });
    const theirComment = await them.caller.comments.create({ postId: third.id, content: 'from them' });

    await me.caller.safety.block({ userId: them.user.id });

    for (const [viewer, hidden] of [
      [me, theirs],
      [them, mine],
    ] as const) {
      expect(await feedIds(viewer.caller)).not.toContain(hidden.id);
      await expectCode(viewer.caller.posts.byId({ postId: hidden.id }), 'NOT_FOUND', POST_NOT_FOUND);
      expect((await viewer.caller.users.posts({ userId: hidden.userId })).items).toEqual([]);
      await expectCode(viewer.caller.posts.like({ postId: hidden.id }), 'NOT_FOUND', POST_NOT_FOUND);
      await expectCode(
        viewer.caller.comments.create({ postId: hidden.id, content: 'hello' }),
        'NOT_FOUND',
        POST_NOT_FOUND,
      );
      await expectCode(viewer.caller.comments.list({ postId: hidden.id }), 'NOT_FOUND', POST_NOT_FOUND);
    }
    // Under a third member's post, each sees their own comment and not the other's.
    expect((await me.caller.comments.list({ postId: third.id })).items.map((c) => c.id)).toEqual([
      myComment.id,
    ]);
    expect((await them.caller.comments.list({ postId: third.id })).items.map((c) => c.id)).toEqual([
      theirComment.id,
    ]);
    // Their old comment under my post is hidden from me; my own post is untouched for me.
    expect((await me.caller.comments.list({ postId: mine.id })).items).toEqual([]);
    expect((await me.caller.posts.byId({ postId: mine.id })).post.id).toBe(mine.id);
    expect(await feedIds(me.caller)).toContain(mine.id);
    // Everyone else sees everything.
    for (const caller of [other.caller, visitor(db.orm)]) {
      const ids = await feedIds(caller);
      expect(ids).toContain(mine.id);
      expect(ids).toContain(theirs.id);
      expect((await caller.comments.list({ postId: third.id })).items).toHaveLength(2);
    }
    // Their feed, read page by page past the cache, still leaves my post out.
    const page1 = await them.caller.posts.feed({ limit: 1 });
    const seen = [...page1.items];
    let cursor = page1.nextCursor;
    while (cursor) {
      const page = await them.caller.posts.feed({ limit: 1, cursor });
      seen.push(...page.items);
      cursor = page.nextCursor;
    }
    expect(seen.map((p) => p.id)).not.toContain(mine.id);
    expect(seen.map((p) => p.id)).toContain(third.id);

    // After the unblock, all of it is back.
    await me.caller.safety.unblock({ userId: them.user.id });
    expect(await feedIds(me.caller)).toContain(theirs.id);
    expect((await them.caller.posts.like({ postId: mine.id })).liked).toBe(true);
    expect((await me.caller.comments.list({ postId: mine.id })).items).toHaveLength(1);
  });

  it('withholds profile details both ways, and says who blocked whom', async () => {
    const me = await createMember(db.orm);
    const them = await createMember(db.orm, { emailVisible: true });
    const avatarUrl = await publicObject(db.orm, them.user.id);
    await them.caller.settings.update({ bio: 'their bio', avatarUrl });
    await me.caller.safety.block({ userId: them.user.id });

    const seenByMe = await me.caller.users.byUsername({ username: them.user.username });
    expect(seenByMe).toMatchObject({
      isBlocking: true,
      isBlockedBy: false,
      isMuting: false,
      isFollowing: false,
    });
    expect(seenByMe.user).toMatchObject({
      username: them.user.username,
      bio: null,
      avatarUrl: null,
      headerUrl: null,
      email: null,
    });
    const seenByThem = await them.caller.users.byUsername({ username: me.user.username });
    expect(seenByThem).toMatchObject({ isBlocking: false, isBlockedBy: true });
    expect(seenByThem.user.bio).toBeNull();
    // Their own profile and a visitor's view are whole.
    const own = await them.caller.users.byUsername({ username: them.user.username });
    expect(own.user).toMatchObject({ bio: 'their bio', email: them.user.email });
    expect(own).toMatchObject({ isBlocking: false, isBlockedBy: false, isMuting: false });
    const public_ = await visitor(db.orm).users.byUsername({ username: them.user.username });
    expect(public_.user).toMatchObject({ bio: 'their bio', avatarUrl });
  });

  it('wins over who may message whom, even over "whoever you wrote to can answer"', async () => {
    const me = await createMember(db.orm);
    const them = await createMember(db.orm);
    await me.caller.messages.send({ receiverId: them.user.id, content: 'hi' });
    await them.caller.messages.send({ receiverId: me.user.id, content: 'hello back' });
    expect((await them.caller.messages.peer({ userId: me.user.id })).canMessage).toBe(true);

    await me.caller.safety.block({ userId: them.user.id });
    for (const [from, to] of [
      [them, me],
      [me, them],
    ] as const) {
      await expectCode(
        from.caller.messages.send({ receiverId: to.user.id, content: 'still there?' }),
        'FORBIDDEN',
        NOT_ACCEPTING,
      );
      await expectCode(from.caller.messages.typing({ userId: to.user.id, active: true }), 'FORBIDDEN');
      expect((await from.caller.messages.peer({ userId: to.user.id })).canMessage).toBe(false);
    }
    await me.caller.safety.unblock({ userId: them.user.id });
    expect((await them.caller.messages.send({ receiverId: me.user.id, content: 'back' })).content).toBe(
      'back',
    );
  });

  it('leaves each one out of the other’s search and suggestions', async () => {
    const me = await createMember(db.orm);
    const them = await createMember(db.orm, { username: 'zanzibarblocked' });
    const { post } = await them.caller.posts.create({ content: 'quokkaword appears here' });
    // Someone likes it, so it trends.
    await me.caller.posts.like({ postId: post.id });
    const find = async (m: Member) => {
      const found = await m.caller.search.query({ q: 'zanzibarblocked' });
      const posts = await m.caller.search.query({ q: 'quokkaword' });
      const suggested = await m.caller.search.suggestions();
      return {
        users: found.users.map((u) => u.id),
        posts: posts.posts.map((p) => p.id),
        suggestedPosts: suggested.posts.map((p) => p.id),
      };
    };
    const before = await find(me);
    expect(before.users).toContain(them.user.id);
    expect(before.posts).toContain(post.id);
    expect(before.suggestedPosts).toContain(post.id);

    await me.caller.safety.block({ userId: them.user.id });
    const after = await find(me);
    expect(after.users).not.toContain(them.user.id);
    expect(after.posts).not.toContain(post.id);
    expect(after.suggestedPosts).not.toContain(post.id);
    expect((await me.caller.search.suggestions()).users.map((u) => u.id)).not.toContain(them.user.id);
    const mine = await them.caller.search.query({ q: me.user.username });
    expect(mine.users.map((u) => u.id)).not.toContain(me.user.id);
    expect((await them.caller.search.suggestions()).users.map((u) => u.id)).not.toContain(me.user.id);
    // A visitor still finds them.
    expect((await visitor(db.orm).search.query({ q: 'zanzibarblocked' })).users.map((u) => u.id)).toContain(
      them.user.id,
    );
  });

  it('leaves out the gallery items each one created, and the other’s favourites', async () => {
    const me = await createMember(db.orm);
    const them = await createMember(db.orm);
    const mediaId = randomUUID();
    await db.orm.em
      .fork()
      .execute(
        `insert into ai_media (id, type, title, image_url, width, height, creator_id) values (?, 'art', 'Blockable tesseract', 'https://example.com/t.png', 64, 48, ?)`,
        [mediaId, them.user.id],
      );
    await them.caller.gallery.favorite({ mediaId });
    const seen = async (m: Member) => ({
      gallery: (await m.caller.gallery.list({ limit: 50 })).items.map((i) => i.id),
      favorites: (await m.caller.gallery.favoritesOf({ userId: them.user.id })).items.map((i) => i.id),
      search: (await m.caller.search.query({ q: 'tesseract' })).aiMedia.map((i) => i.id),
    });
    expect(await seen(me)).toEqual({ gallery: [mediaId], favorites: [mediaId], search: [mediaId] });
    await me.caller.safety.block({ userId: them.user.id });
    expect(await seen(me)).toEqual({ gallery: [], favorites: [], search: [] });
    // Their own view is whole.
    expect((await them.caller.gallery.favoritesOf({ userId: them.user.id })).items).toHaveLength(1);
  });
});

describe('a mute', () => {
  it('takes their posts out of my feed only, and stops their notifications without telling them', async () => {
    const me = await createMember(db.orm);
    const them = await createMember(db.orm);
    const other = await createMember(db.orm);
    const { post: mine } = await me.caller.posts.create({ content: 'mine' });
    const { post: theirs } = await them.caller.posts.create({ content: 'theirs' });
    await them.caller.posts.like({ postId: mine.id });
    expect(await notificationCount(me)).toBe(1);

    expect(await me.caller.safety.mute({ userId: them.user.id })).toEqual({ muted: true });
    expect(await me.caller.safety.mute({ userId: them.user.id })).toEqual({ muted: true });
    expect((await me.caller.safety.muted({})).items.map((e) => e.userId)).toEqual([them.user.id]);
    expect(await feedIds(me.caller)).not.toContain(theirs.id);
    expect(await feedIds(other.caller)).toContain(theirs.id);
    // Not a block: their profile, post and comments stay reachable.
    expect((await me.caller.posts.byId({ postId: theirs.id })).post.id).toBe(theirs.id);
    expect((await me.caller.users.posts({ userId: them.user.id })).items.map((p) => p.id)).toEqual([
      theirs.id,
    ]);
    const profile = await me.caller.users.byUsername({ username: them.user.username });
    expect(profile).toMatchObject({ isMuting: true, isBlocking: false, isBlockedBy: false });

    // Their notifications stop, the old one included.
    expect(await notificationCount(me)).toBe(0);
    expect(await me.caller.notifications.list()).toEqual([]);
    await them.caller.comments.create({ postId: mine.id, content: 'still commenting' });
    await them.caller.follows.follow({ userId: me.user.id });
    expect(await notificationCount(me)).toBe(0);
    // Another member's notifications still arrive.
    await other.caller.posts.like({ postId: mine.id });
    expect((await me.caller.notifications.list()).map((n) => n.username)).toEqual([other.user.username]);

    // They cannot tell: my profile, posts and their actions answer as before.
    const seenByThem = await them.caller.users.byUsername({ username: me.user.username });
    expect(seenByThem).toMatchObject({
      isBlockedBy: false,
      isBlocking: false,
      isMuting: false,
      isFollowing: true,
    });
    expect(await feedIds(them.caller)).toContain(mine.id);

    // Unmuting brings back their posts and the notifications that were kept.
    expect(await me.caller.safety.unmute({ userId: them.user.id })).toEqual({ muted: false });
    expect(await me.caller.safety.unmute({ userId: them.user.id })).toEqual({ muted: false });
    expect(await feedIds(me.caller)).toContain(theirs.id);
    // The two likes of one post are one item of two (grouped notifications, issue #49).
    expect((await me.caller.notifications.list()).map((n) => [n.type, n.actorsCount])).toEqual([['like', 2]]);
  });

  it('leaves them out of my suggestions', async () => {
    const me = await createMember(db.orm);
    const them = await createMember(db.orm);
    // A followed-by-many member is the first suggestion; muting them removes them.
    for (let i = 0; i < 3; i++) {
      const fan = await createMember(db.orm);
      await fan.caller.follows.follow({ userId: them.user.id });
    }
    expect((await me.caller.search.suggestions()).users.map((u) => u.id)).toContain(them.user.id);
    await me.caller.safety.mute({ userId: them.user.id });
    expect((await me.caller.search.suggestions()).users.map((u) => u.id)).not.toContain(them.user.id);
  });
});
