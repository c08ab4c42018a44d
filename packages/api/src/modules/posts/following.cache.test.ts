/**
 * The kept Following page (following.cache.ts) through the real procedures on a real database:
 * every write that changes a member's first page shows on their very next read, and nothing
 * else reaches the database while no event changed it.
 */
import { describe, expect, it } from 'vitest';
import { createMember, type Member, useDatabase } from '../../../test/harness.js';
import { setRole } from '../moderation/moderation.access.js';

const db = useDatabase();

const page = (m: Member) => m.caller.posts.feed({ scope: 'following', limit: 5 });
const ids = async (m: Member) => (await page(m)).items.map((p) => p.id);

/**
 * Connections taken from the pool while `fn` runs: each statement outside a transaction takes
 * one, prepared (prepared.ts, which bypasses the query builder) or not.
 */
async function statements(fn: () => Promise<unknown>): Promise<number> {
  const pool = db.orm.em.getConnection().getKnex().client as { acquireConnection: () => Promise<unknown> };
  const acquire = pool.acquireConnection;
  let n = 0;
  pool.acquireConnection = function (this: unknown) {
    n += 1;
    return acquire.call(this);
  };
  try {
    await fn();
  } finally {
    pool.acquireConnection = acquire;
  }
  return n;
}

describe("a member's kept Following page", () => {
  it('answers from memory until a followed author posts, and not for others', async () => {
    const reader = await createMember(db.orm);
    const author = await createMember(db.orm);
    const stranger = await createMember(db.orm);
    await reader.caller.follows.follow({ userId: author.user.id });
    expect(await statements(() => page(reader))).toBeGreaterThan(0);
    expect(await statements(() => page(reader))).toBe(0);
    await stranger.caller.posts.create({ content: 'not followed' });
    expect(await statements(() => page(reader))).toBe(0);
    const { post } = await author.caller.posts.create({ content: 'followed' });
    expect(await ids(reader)).toEqual([post.id]);
    // The reader's own post shows too.
    const own = await reader.caller.posts.create({ content: 'mine' });
    expect(await ids(reader)).toEqual([own.post.id, post.id]);
  });

  it("shows a like's count, the reader's own like, an edit and a comment count", async () => {
    const reader = await createMember(db.orm);
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    await reader.caller.follows.follow({ userId: author.user.id });
    const { post } = await author.caller.posts.create({ content: 'before' });
    await page(reader);
    await fan.caller.posts.like({ postId: post.id });
    expect((await page(reader)).items[0]).toMatchObject({ likesCount: 1, isLiked: false });
    await reader.caller.posts.like({ postId: post.id });
    expect((await page(reader)).items[0]).toMatchObject({ likesCount: 2, isLiked: true });
    await author.caller.posts.edit({ postId: post.id, content: 'after' });
    expect((await page(reader)).items[0]?.content).toBe('after');
    await fan.caller.comments.create({ postId: post.id, content: 'hi' });
    expect((await page(reader)).items[0]?.commentsCount).toBe(1);
  });

  it('leaves out an author once muted, blocked, suspended, or their post removed or deleted', async () => {
    const reader = await createMember(db.orm);
    const authors = await Promise.all([1, 2, 3, 4, 5].map(() => createMember(db.orm)));
    const [muted, blocked, suspended, removed, deleted] = authors as [Member, Member, Member, Member, Member];
    const posts: Record<string, string> = {};
    for (const a of authors) {
      await reader.caller.follows.follow({ userId: a.user.id });
      posts[a.user.id] = (await a.caller.posts.create({ content: `by ${a.user.username}` })).post.id;
    }
    const shown = async () => new Set(await ids(reader));
    expect((await shown()).size).toBe(5);
    await reader.caller.safety.mute({ userId: muted.user.id });
    expect((await shown()).has(posts[muted.user.id]!)).toBe(false);
    await blocked.caller.safety.block({ userId: reader.user.id });
    expect((await shown()).has(posts[blocked.user.id]!)).toBe(false);
    const mod = await createMember(db.orm);
    await setRole(db.orm.em.fork(), mod.user.username, 'moderator');
    await page(reader);
    await mod.caller.moderation.suspend({ userId: suspended.user.id, days: 1, reason: 'x' });
    expect((await shown()).has(posts[suspended.user.id]!)).toBe(false);
    const report = await reader.caller.reports.create({
      targetType: 'post',
      targetId: posts[removed.user.id]!,
      reason: 'spam',
    });
    await mod.caller.moderation.remove({ reportId: report.id, reason: 'spam' });
    expect((await shown()).has(posts[removed.user.id]!)).toBe(false);
    await deleted.caller.posts.delete({ postId: posts[deleted.user.id]! });
    expect(await shown()).toEqual(new Set());
  });

  it('follows a follow and an unfollow at once, and pages on from the kept page', async () => {
    const reader = await createMember(db.orm);
    const author = await createMember(db.orm);
    const made: string[] = [];
    for (let i = 0; i < 7; i++)
      made.unshift((await author.caller.posts.create({ content: `p${i}` })).post.id);
    expect(await ids(reader)).toEqual([]);
    await reader.caller.follows.follow({ userId: author.user.id });
    const first = await page(reader);
    expect(first.items.map((p) => p.id)).toEqual(made.slice(0, 5));
    // Page 2 chooses its window without counting the followees again, reads its posts and the
    // reader's marks among the window's (three statements); read again, all three are kept.
    const later = () => reader.caller.posts.feed({ scope: 'following', limit: 5, cursor: first.nextCursor });
    expect(await statements(later)).toBe(3);
    expect(await statements(later)).toBe(0);
    expect((await later()).items.map((p) => p.id)).toEqual(made.slice(5));
    await reader.caller.follows.unfollow({ userId: author.user.id });
    expect(await ids(reader)).toEqual([]);
  });

  it('reads later pages from a window of chosen posts, as the database would, and past it', async () => {
    const reader = await createMember(db.orm);
    const authors = [await createMember(db.orm), await createMember(db.orm)] as const;
    const made: { id: string; by: Member }[] = [];
    // 2 × 16 posts: pages of 5 are the first, a window of five more (25 posts, 2 to 6) and a last.
    for (let i = 0; i < 16; i++)
      for (const by of authors)
        made.unshift({ id: (await by.caller.posts.create({ content: `w${i}` })).post.id, by });
    for (const a of authors) await reader.caller.follows.follow({ userId: a.user.id });
    const walk = async () => {
      const seen: string[] = [];
      const counts: number[] = [];
      let cursor = (await page(reader)).nextCursor;
      while (cursor) {
        const at = cursor;
        let next: Awaited<ReturnType<typeof page>> | undefined;
        counts.push(
          await statements(async () => {
            next = await reader.caller.posts.feed({ scope: 'following', limit: 5, cursor: at });
          }),
        );
        seen.push(...next!.items.map((p) => p.id));
        cursor = next!.nextCursor;
      }
      return { seen, counts };
    };
    const later = made.slice(5).map((p) => p.id);
    const first = await walk();
    expect(first.seen).toEqual(later);
    // Page 2 chooses pages 2 to 6 and reads the reader's marks among them; 3 to 6 are read by id;
    // 7 (the last) chooses again.
    expect(first.counts).toEqual([3, 1, 1, 1, 1, 3]);
    // One window is kept at a time: the walk again chooses again where it left the last one, and
    // looks the marks up again. The posts are kept.
    expect((await walk()).counts).toEqual([2, 0, 0, 0, 0, 2]);

    // A post deleted from the window drops it at once: the next pages are whole, without it.
    const feedAfter = (cursor: string | null) =>
      reader.caller.posts.feed({ scope: 'following', limit: 5, cursor });
    const page2 = await feedAfter((await page(reader)).nextCursor);
    const gone = made[17]!;
    await gone.by.caller.posts.delete({ postId: gone.id });
    const page3 = await feedAfter(page2.nextCursor);
    const page4 = await feedAfter(page3.nextCursor);
    const ids = (m: typeof made) => m.map((p) => p.id);
    expect(page3.items.map((p) => p.id)).toEqual(ids(made.slice(10, 15)));
    expect(page4.items.map((p) => p.id)).toEqual(ids([...made.slice(15, 17), ...made.slice(18, 21)]));
    expect((await walk()).seen).toEqual(later.filter((id) => id !== gone.id));

    // A mute drops the kept pages and their window: none of the muted author's posts is read.
    await reader.caller.safety.mute({ userId: authors[0].user.id });
    const shown = made
      .slice(0)
      .filter((p) => p.by === authors[1] && p.id !== gone.id)
      .map((p) => p.id);
    const firstPage = (await page(reader)).items.map((p) => p.id);
    expect([...firstPage, ...(await walk()).seen]).toEqual(shown);
  });

  it('keeps a window through new posts, and drops it when an author in it is suspended', async () => {
    const reader = await createMember(db.orm);
    const [a, b] = [await createMember(db.orm), await createMember(db.orm)] as const;
    const made: { id: string; by: Member }[] = [];
    for (let i = 0; i < 6; i++)
      for (const by of [a, b])
        made.unshift({ id: (await by.caller.posts.create({ content: `k${i}` })).post.id, by });
    for (const m of [a, b]) await reader.caller.follows.follow({ userId: m.user.id });
    const first = await reader.caller.posts.feed({ scope: 'following', limit: 3 });
    const page2 = () => reader.caller.posts.feed({ scope: 'following', limit: 3, cursor: first.nextCursor });
    expect(await statements(page2)).toBe(3);
    // A new post is newer than every later page: the window, its marks and the posts stay.
    await a.caller.posts.create({ content: 'newest' });
    expect(await statements(page2)).toBe(0);
    const mod = await createMember(db.orm);
    await setRole(db.orm.em.fork(), mod.user.username, 'moderator');
    await mod.caller.moderation.suspend({ userId: b.user.id, days: 1, reason: 'x' });
    // Chosen again (and the followees counted: the first page went too), without b's posts, which
    // are read again: the kept posts went too.
    expect(await statements(page2)).toBe(4);
    expect((await page2()).items.map((p) => p.id)).toEqual(
      made
        .slice(3)
        .filter((p) => p.by === a)
        .slice(0, 3)
        .map((p) => p.id),
    );
  });

  it("shows on a later page, from kept posts, a like, the reader's like, a comment, an edit and a new name", async () => {
    const reader = await createMember(db.orm);
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const made: string[] = [];
    for (let i = 0; i < 4; i++)
      made.unshift((await author.caller.posts.create({ content: `l${i}` })).post.id);
    await reader.caller.follows.follow({ userId: author.user.id });
    const first = await reader.caller.posts.feed({ scope: 'following', limit: 2 });
    const later = async () =>
      (await reader.caller.posts.feed({ scope: 'following', limit: 2, cursor: first.nextCursor })).items[0]!;
    const postId = made[2]!;
    expect((await later()).id).toBe(postId);
    // Read again from memory: the post, the window and the reader's marks are kept.
    expect(await statements(later)).toBe(0);
    await fan.caller.posts.like({ postId });
    expect(await later()).toMatchObject({ likesCount: 1, isLiked: false });
    await reader.caller.posts.like({ postId });
    expect(await later()).toMatchObject({ likesCount: 2, isLiked: true });
    // Another reader's copy of the same kept post is theirs: not liked.
    await fan.caller.follows.follow({ userId: author.user.id });
    const fanFirst = await fan.caller.posts.feed({ scope: 'following', limit: 2 });
    const fanLater = await fan.caller.posts.feed({
      scope: 'following',
      limit: 2,
      cursor: fanFirst.nextCursor,
    });
    expect(fanLater.items[0]).toMatchObject({ id: postId, likesCount: 2, isLiked: true });
    await reader.caller.posts.unlike({ postId });
    expect(await later()).toMatchObject({ likesCount: 1, isLiked: false });
    await reader.caller.bookmarks.add({ postId });
    expect((await later()).isBookmarked).toBe(true);
    await fan.caller.comments.create({ postId, content: 'hi' });
    expect((await later()).commentsCount).toBe(1);
    await author.caller.posts.edit({ postId, content: 'edited' });
    expect((await later()).content).toBe('edited');
    await author.caller.settings.update({ displayName: 'Renamed author' });
    expect((await later()).userDisplayName).toBe('Renamed author');
  });
});
