/**
 * The kept Following page (following.cache.ts) through the real procedures on a real database:
 * every write that changes a member's first page shows on their very next read, and nothing
 * else reaches the database while no event changed it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member, setupDatabase } from '../../../test/harness.js';
import { setRole } from '../moderation/moderation.access.js';

let db: Awaited<ReturnType<typeof setupDatabase>>;
beforeAll(async () => {
  db = await setupDatabase();
});
afterAll(() => db.close());

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
    // Page 2 is read from the database, without counting the followees again: two statements.
    const later = () => reader.caller.posts.feed({ scope: 'following', limit: 5, cursor: first.nextCursor });
    expect(await statements(later)).toBe(2);
    expect((await later()).items.map((p) => p.id)).toEqual(made.slice(5));
    await reader.caller.follows.unfollow({ userId: author.user.id });
    expect(await ids(reader)).toEqual([]);
  });
});
