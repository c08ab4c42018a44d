import { TRPCError } from '@trpc/server';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import {
  createMember,
  expectCode,
  publicObject,
  UNKNOWN_ID,
  useDatabase,
  visitor,
} from '../../../test/harness.js';
import { describeError } from '../../trpc.js';
import { findMemberMarks } from '../posts/member-marks.repository.js';

const db = useDatabase();

describe('users.byUsername', () => {
  it('finds a user whatever the case, with stats and isFollowing', async () => {
    const carol = await createMember(db.orm, { username: 'Carol_Cube' });
    const fan = await createMember(db.orm);
    await carol.caller.posts.create({ content: 'one' });
    await carol.caller.posts.create({ content: 'two' });
    await fan.caller.follows.follow({ userId: carol.user.id });
    await carol.caller.follows.follow({ userId: fan.user.id });

    const seenByFan = await fan.caller.users.byUsername({ username: 'carol_cube' });
    expect(seenByFan.user.id).toBe(carol.user.id);
    expect(seenByFan.user.username).toBe('Carol_Cube');
    expect(seenByFan.stats).toEqual({ followersCount: 1, followingCount: 1, postsCount: 2 });
    expect(seenByFan.isFollowing).toBe(true);

    const seenByVisitor = await visitor(db.orm).users.byUsername({ username: 'CAROL_CUBE' });
    expect(seenByVisitor.isFollowing).toBe(false);
    expect((await carol.caller.users.byUsername({ username: 'Carol_Cube' })).isFollowing).toBe(false);
  });

  it('hides the email from others unless it is made visible', async () => {
    const hidden = await createMember(db.orm);
    const shown = await createMember(db.orm, { emailVisible: true });
    const other = await createMember(db.orm);
    expect((await other.caller.users.byUsername({ username: hidden.user.username })).user.email).toBeNull();
    expect(
      (await visitor(db.orm).users.byUsername({ username: hidden.user.username })).user.email,
    ).toBeNull();
    expect((await hidden.caller.users.byUsername({ username: hidden.user.username })).user.email).toBe(
      hidden.user.email,
    );
    expect((await other.caller.users.byUsername({ username: shown.user.username })).user.email).toBe(
      shown.user.email,
    );
    const profile = await other.caller.users.byUsername({ username: hidden.user.username });
    expect(profile.user).not.toHaveProperty('passwordHash');
  });

  it('answers 404 for unknown users', async () => {
    await expectCode(
      visitor(db.orm).users.byUsername({ username: 'nobody_here' }),
      'NOT_FOUND',
      'User not found',
    );
  });
});

describe('users.stats and users.posts', () => {
  it('count followers, following and posts; 404 for unknown or malformed ids', async () => {
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    const c = await createMember(db.orm);
    await b.caller.follows.follow({ userId: a.user.id });
    await c.caller.follows.follow({ userId: a.user.id });
    await a.caller.follows.follow({ userId: b.user.id });
    await a.caller.posts.create({ content: 'p' });
    expect(await visitor(db.orm).users.stats({ userId: a.user.id })).toEqual({
      followersCount: 2,
      followingCount: 1,
      postsCount: 1,
    });
    expect(await visitor(db.orm).users.stats({ userId: c.user.id })).toEqual({
      followersCount: 0,
      followingCount: 1,
      postsCount: 0,
    });
    await expectCode(visitor(db.orm).users.stats({ userId: UNKNOWN_ID }), 'NOT_FOUND', 'User not found');
    await expectCode(visitor(db.orm).users.stats({ userId: 'not-a-uuid' }), 'NOT_FOUND', 'User not found');
  });

  it('answers 404 for a suspended member and across a block either way, as their posts do', async () => {
    const member = await createMember(db.orm);
    const blocker = await createMember(db.orm);
    const other = await createMember(db.orm);
    await member.caller.posts.create({ content: 'counted' });
    await blocker.caller.safety.block({ userId: member.user.id });
    const stats = { followersCount: 0, followingCount: 0, postsCount: 1 };
    await expectCode(blocker.caller.users.stats({ userId: member.user.id }), 'NOT_FOUND', 'User not found');
    await expectCode(member.caller.users.stats({ userId: blocker.user.id }), 'NOT_FOUND', 'User not found');
    expect(await other.caller.users.stats({ userId: member.user.id })).toEqual(stats);
    expect(await visitor(db.orm).users.stats({ userId: member.user.id })).toEqual(stats);

    const suspend = (sql: string) => db.orm.em.fork().execute(sql, [member.user.id]);
    await suspend('update users set suspended_at = now(), suspended_until = null where id = ?');
    await expectCode(other.caller.users.stats({ userId: member.user.id }), 'NOT_FOUND', 'User not found');
    await expectCode(visitor(db.orm).users.stats({ userId: member.user.id }), 'NOT_FOUND', 'User not found');
    // Nor does their profile count what is hidden.
    const profile = await other.caller.users.byUsername({ username: member.user.username });
    expect(profile).toMatchObject({ isSuspended: true, stats: { followersCount: 0, postsCount: 0 } });
    await suspend('update users set suspended_at = null where id = ?');
    expect(await other.caller.users.stats({ userId: member.user.id })).toEqual(stats);
  });

  it("page a user's own posts newest first, with isLiked for the viewer", async () => {
    const author = await createMember(db.orm);
    const someoneElse = await createMember(db.orm);
    const viewer = await createMember(db.orm);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push((await author.caller.posts.create({ content: `mine ${i}` })).post.id);
      await someoneElse.caller.posts.create({ content: `theirs ${i}` });
    }
    await viewer.caller.posts.like({ postId: ids[6]! });
    const first = await viewer.caller.users.posts({ userId: author.user.id, limit: 3 });
    expect(first.items.map((p) => p.id)).toEqual([ids[6], ids[5], ids[4]]);
    expect(first.items[0]!.isLiked).toBe(true);
    expect(first.items[1]!.isLiked).toBe(false);
    const second = await viewer.caller.users.posts({
      userId: author.user.id,
      limit: 3,
      cursor: first.nextCursor,
    });
    const third = await viewer.caller.users.posts({
      userId: author.user.id,
      limit: 3,
      cursor: second.nextCursor,
    });
    expect([...second.items, ...third.items].map((p) => p.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(third.nextCursor).toBeNull();
    expect((await visitor(db.orm).users.posts({ userId: author.user.id })).items).toHaveLength(7);
    await expectCode(visitor(db.orm).users.posts({ userId: UNKNOWN_ID }), 'NOT_FOUND', 'User not found');
    await expectCode(
      visitor(db.orm).users.posts({ userId: author.user.id, cursor: 'zzz' }),
      'BAD_REQUEST',
      'Invalid cursor',
    );
  });
});

describe('users.posts, a first page nobody read this second', () => {
  /** What `read` sent to PostgreSQL: every statement goes through a pg Client's query. */
  async function statementsOf<T>(read: () => Promise<T>): Promise<{ value: T; statements: number }> {
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    try {
      const value = await read();
      return { value, statements: sent.mock.calls.length };
    } finally {
      sent.mockRestore();
    }
  }

  it("costs a member one statement: the page, with the member's likes, bookmarks and blocks", async () => {
    const author = await createMember(db.orm);
    const viewer = await createMember(db.orm);
    const ids: string[] = [];
    for (const content of ['one', 'two', 'three']) {
      ids.push((await author.caller.posts.create({ content })).post.id);
    }
    await viewer.caller.posts.like({ postId: ids[0]! });
    await viewer.caller.bookmarks.add({ postId: ids[2]! });

    const seen = await statementsOf(() => viewer.caller.users.posts({ userId: author.user.id }));
    expect(seen.statements).toBe(1);
    expect(seen.value.items.map((p) => [p.content, p.isLiked, p.isBookmarked])).toEqual([
      ['three', false, true],
      ['two', false, false],
      ['one', true, false],
    ]);
    // The kept page is everyone's: a visitor reads it from memory, without the member's marks.
    const asVisitor = await statementsOf(() => visitor(db.orm).users.posts({ userId: author.user.id }));
    expect(asVisitor.statements).toBe(0);
    expect(asVisitor.value.items.map((p) => [p.isLiked, p.isBookmarked])).toEqual([
      [false, false],
      [false, false],
      [false, false],
    ]);

    // Blocked by the author: an empty page, in the same one statement.
    const other = await createMember(db.orm);
    const blocked = await createMember(db.orm);
    await other.caller.posts.create({ content: 'not for you' });
    await other.caller.safety.block({ userId: blocked.user.id });
    const hidden = await statementsOf(() => blocked.caller.users.posts({ userId: other.user.id }));
    expect(hidden.statements).toBe(1);
    expect(hidden.value).toEqual({ items: [], nextCursor: null });
    expect((await visitor(db.orm).users.posts({ userId: other.user.id })).items).toHaveLength(1);
  });

  it('costs a reader new to a kept page no statement once their marks are kept, and follows their writes', async () => {
    const authors = [await createMember(db.orm), await createMember(db.orm), await createMember(db.orm)];
    const posts: string[] = [];
    for (const author of authors) posts.push((await author.caller.posts.create({ content: 'kept' })).post.id);
    // Each page is kept, read by a visitor.
    for (const author of authors) await visitor(db.orm).users.posts({ userId: author.user.id });
    const reader = await createMember(db.orm);
    await reader.caller.posts.like({ postId: posts[1]! });
    const read = (i: number) =>
      statementsOf(() => reader.caller.users.posts({ userId: authors[i]!.user.id }));

    // Their first kept page loads their marks and blocks once (two statements); the next, none.
    expect((await read(0)).statements).toBe(2);
    const second = await read(1);
    expect(second.statements).toBe(0);
    expect(second.value.items[0]).toMatchObject({ id: posts[1], isLiked: true, isBookmarked: false });
    // A bookmark, a repost, a like taken back, a block: each shows on their next read.
    await reader.caller.bookmarks.add({ postId: posts[2]! });
    expect((await read(2)).value.items[0]).toMatchObject({ isBookmarked: true, isReposted: false });
    await reader.caller.reposts.add({ postId: posts[0]! });
    expect((await read(0)).value.items[0]).toMatchObject({ isReposted: true });
    await reader.caller.posts.unlike({ postId: posts[1]! });
    expect((await read(1)).value.items[0]).toMatchObject({ isLiked: false });
    await authors[2]!.caller.safety.block({ userId: reader.user.id });
    expect((await read(2)).value).toEqual({ items: [], nextCursor: null });
    expect((await visitor(db.orm).users.posts({ userId: authors[2]!.user.id })).items).toHaveLength(1);

    // A page with a poll asks the database for the reader's view of it (their vote).
    const pollster = await createMember(db.orm);
    const { post: withPoll } = await pollster.caller.posts.create({
      content: 'vote',
      poll: { options: ['yes', 'no'], expiresInMinutes: 60 },
    } as never);
    await visitor(db.orm).users.posts({ userId: pollster.user.id });
    await reader.caller.polls.vote({ postId: withPoll.id, choices: [1] });
    const polled = await statementsOf(() => reader.caller.users.posts({ userId: pollster.user.id }));
    expect(polled.statements).toBe(1);
    expect(polled.value.items[0]?.poll).toMatchObject({ ownChoices: [1] });
  });

  it('keeps no marks for a member with more of a kind than the cap: their pages ask per page', async () => {
    const author = await createMember(db.orm);
    const reader = await createMember(db.orm);
    for (const content of ['a', 'b']) {
      const { post } = await author.caller.posts.create({ content });
      await reader.caller.posts.like({ postId: post.id });
    }
    const em = db.orm.em.fork();
    expect(await findMemberMarks(em, reader.user.id, 1)).toBeNull();
    expect((await findMemberMarks(em, reader.user.id, 2))?.liked).toHaveLength(2);
  });
});

/** The error a call fails with, as a client sees it. */
async function answerOf(p: Promise<unknown>) {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return { code: (error as TRPCError).code, ...describeError(error as TRPCError) };
}

describe('profile images: settings.update and users.setProfileImage / setBannerImage', () => {
  it('answer a reference to an image that is not the caller’s own public upload alike: 400 naming the field', async () => {
    const me = await createMember(db.orm);
    const other = await createMember(db.orm);
    const refused = [
      await publicObject(db.orm, other.user.id),
      await publicObject(db.orm, other.user.id, 'private'),
      await publicObject(db.orm, me.user.id, 'private'),
      '/objects/uploads/00000000-0000-4000-8000-000000000000',
      '/objects/not-an-upload',
    ];
    for (const objectPath of refused) {
      const viaSettings = await answerOf(
        me.caller.settings.update({ avatarUrl: objectPath, bio: 'changed' }),
      );
      const viaUpload = await answerOf(me.caller.users.setProfileImage({ objectPath }));
      expect(viaSettings).toEqual({
        code: 'BAD_REQUEST',
        message: 'Profile picture must be an image you uploaded',
        reason: 'AVATAR_NOT_YOURS',
      });
      expect(viaUpload).toEqual(viaSettings);
      const bannerViaSettings = await answerOf(me.caller.settings.update({ headerUrl: objectPath }));
      expect(bannerViaSettings).toEqual({
        code: 'BAD_REQUEST',
        message: 'Banner must be an image you uploaded',
        reason: 'BANNER_NOT_YOURS',
      });
      expect(await answerOf(me.caller.users.setBannerImage({ objectPath }))).toEqual(bannerViaSettings);
    }
    // Nothing was set, not even the fields sent alongside.
    expect(await me.caller.settings.get()).toMatchObject({ avatarUrl: null, headerUrl: null, bio: null });
  });

  it('check every image before setting any', async () => {
    const me = await createMember(db.orm);
    const other = await createMember(db.orm);
    const mine = await publicObject(db.orm, me.user.id);
    expect(
      await answerOf(
        me.caller.settings.update({ avatarUrl: mine, headerUrl: await publicObject(db.orm, other.user.id) }),
      ),
    ).toEqual({
      code: 'BAD_REQUEST',
      message: 'Banner must be an image you uploaded',
      reason: 'BANNER_NOT_YOURS',
    });
    expect(await me.caller.settings.get()).toMatchObject({ avatarUrl: null, headerUrl: null });
  });

  it('take the caller’s own public upload either way, keep their current images, and clear', async () => {
    const me = await createMember(db.orm);
    const avatar = await publicObject(db.orm, me.user.id);
    const banner = await publicObject(db.orm, me.user.id);
    expect((await me.caller.users.setProfileImage({ objectPath: avatar })).user.avatarUrl).toBe(avatar);
    expect((await me.caller.settings.update({ headerUrl: banner })).user.headerUrl).toBe(banner);
    // Swapping them and saving the form again pass without a new upload.
    const swapped = await me.caller.settings.update({ avatarUrl: banner, headerUrl: avatar });
    expect(swapped.user).toMatchObject({ avatarUrl: banner, headerUrl: avatar });
    expect((await me.caller.users.setBannerImage({ objectPath: avatar })).user.headerUrl).toBe(avatar);
    const cleared = await me.caller.settings.update({ avatarUrl: '', headerUrl: null });
    expect(cleared.user).toMatchObject({ avatarUrl: null, headerUrl: null });
    // A URL of another site is no image of theirs, by either way in.
    await expectCode(
      me.caller.settings.update({ headerUrl: 'https://cdn.example/b.png' }),
      'BAD_REQUEST',
      'Must be an image you uploaded',
    );
    await expectCode(
      me.caller.users.setBannerImage({ objectPath: 'https://cdn.example/b.png' }),
      'BAD_REQUEST',
      'objectPath must be an uploaded image path',
    );
  });
});
