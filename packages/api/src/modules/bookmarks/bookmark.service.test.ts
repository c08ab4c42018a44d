import { describe, expect, it } from 'vitest';
import { createMember, expectCode, UNKNOWN_ID, useDatabase, visitor } from '../../../test/harness.js';
import { POST_NOT_FOUND } from '../posts/post.service.js';

const db = useDatabase();

async function sql(query: string, params: unknown[] = []): Promise<unknown> {
  return db.orm.em.fork().execute(query, params);
}

describe('bookmarks.add, bookmarks.remove and bookmarks.list', () => {
  it('are idempotent, list newest bookmark first in pages, and mark isBookmarked for the owner only', async () => {
    const me = await createMember(db.orm);
    const author = await createMember(db.orm);
    const { post: first } = await author.caller.posts.create({ content: 'first' });
    const { post: second } = await author.caller.posts.create({ content: 'second' });
    expect(first.isBookmarked).toBe(false);
    // Bookmarked in the opposite order of writing: the list follows the bookmark's time.
    expect(await me.caller.bookmarks.add({ postId: second.id })).toEqual({ bookmarked: true });
    expect(await me.caller.bookmarks.add({ postId: first.id })).toEqual({ bookmarked: true });
    expect(await me.caller.bookmarks.add({ postId: first.id.toUpperCase() })).toEqual({ bookmarked: true });

    const page1 = await me.caller.bookmarks.list({ limit: 1 });
    expect(page1.items.map((p) => p.id)).toEqual([first.id]);
    expect(page1.items[0]).toMatchObject({ isBookmarked: true, content: 'first', userId: author.user.id });
    const page2 = await me.caller.bookmarks.list({ limit: 1, cursor: page1.nextCursor });
    expect(page2.items.map((p) => p.id)).toEqual([second.id]);
    expect(page2.nextCursor).toBeNull();

    // Every post answer carries the viewer's mark; nobody else's.
    expect((await me.caller.posts.byId({ postId: first.id })).post.isBookmarked).toBe(true);
    expect((await author.caller.posts.byId({ postId: first.id })).post.isBookmarked).toBe(false);
    expect((await visitor(db.orm).posts.byId({ postId: first.id })).post.isBookmarked).toBe(false);
    const feed = await me.caller.posts.feed({ limit: 50 });
    expect(feed.items.find((p) => p.id === first.id)?.isBookmarked).toBe(true);
    const theirFeed = await author.caller.posts.feed({ limit: 50 });
    expect(theirFeed.items.find((p) => p.id === first.id)?.isBookmarked).toBe(false);
    const profile = await me.caller.users.posts({ userId: author.user.id, limit: 50 });
    expect(profile.items.find((p) => p.id === second.id)?.isBookmarked).toBe(true);

    // Private: the author's list is empty, and nobody was notified.
    expect((await author.caller.bookmarks.list({})).items).toEqual([]);
    expect((await author.caller.notifications.unreadCount()).count).toBe(0);

    expect(await me.caller.bookmarks.remove({ postId: first.id })).toEqual({ bookmarked: false });
    expect(await me.caller.bookmarks.remove({ postId: first.id })).toEqual({ bookmarked: false });
    expect((await me.caller.bookmarks.list({})).items.map((p) => p.id)).toEqual([second.id]);
    expect(
      (await me.caller.posts.feed({ limit: 50 })).items.find((p) => p.id === first.id)?.isBookmarked,
    ).toBe(false);
  });

  it('refuse visitors, unknown and hostile ids, and bad cursors', async () => {
    const me = await createMember(db.orm);
    const { post } = await me.caller.posts.create({ content: 'mine' });
    await expectCode(visitor(db.orm).bookmarks.add({ postId: post.id }), 'UNAUTHORIZED');
    await expectCode(visitor(db.orm).bookmarks.remove({ postId: post.id }), 'UNAUTHORIZED');
    await expectCode(visitor(db.orm).bookmarks.list({}), 'UNAUTHORIZED');
    await expectCode(me.caller.bookmarks.add({ postId: UNKNOWN_ID }), 'NOT_FOUND', POST_NOT_FOUND);
    await expectCode(me.caller.bookmarks.remove({ postId: UNKNOWN_ID }), 'NOT_FOUND', POST_NOT_FOUND);
    for (const postId of ['not-a-uuid', 'x'.repeat(100), '💥', "' or 1=1 --"]) {
      await expectCode(me.caller.bookmarks.add({ postId }), 'NOT_FOUND', POST_NOT_FOUND);
    }
    await expectCode(me.caller.bookmarks.add({ postId: 'a\u0000b' }), 'BAD_REQUEST');
    await expectCode(me.caller.bookmarks.add({ postId: 'x'.repeat(70_000) }), 'BAD_REQUEST');
    // biome-ignore lint/suspicious/noExplicitAny: a wrong type on purpose
    await expectCode(me.caller.bookmarks.add({ postId: 42 as any }), 'BAD_REQUEST');
    await expectCode(me.caller.bookmarks.list({ cursor: 'garbage' }), 'BAD_REQUEST', 'Invalid cursor');
    await expectCode(me.caller.bookmarks.list({ limit: 51 }), 'BAD_REQUEST');
    // Bookmarking one's own post is fine.
    expect(await me.caller.bookmarks.add({ postId: post.id })).toEqual({ bookmarked: true });
  });

  it('refuse a post hidden by a block either way, and the list leaves it out while the block stands', async () => {
    const me = await createMember(db.orm);
    const blocker = await createMember(db.orm);
    const blocked = await createMember(db.orm);
    const { post: byBlocker } = await blocker.caller.posts.create({ content: 'blocker writes' });
    const { post: byBlocked } = await blocked.caller.posts.create({ content: 'blocked writes' });
    await me.caller.bookmarks.add({ postId: byBlocker.id });
    await blocker.caller.safety.block({ userId: me.user.id });
    await me.caller.safety.block({ userId: blocked.user.id });
    // They blocked me: their post is gone from my list, and cannot be bookmarked again.
    expect((await me.caller.bookmarks.list({})).items).toEqual([]);
    await expectCode(me.caller.bookmarks.add({ postId: byBlocker.id }), 'NOT_FOUND', POST_NOT_FOUND);
    // I blocked them: the same.
    await expectCode(me.caller.bookmarks.add({ postId: byBlocked.id }), 'NOT_FOUND', POST_NOT_FOUND);
    // Taking back a bookmark of a hidden post still works.
    expect(await me.caller.bookmarks.remove({ postId: byBlocker.id })).toEqual({ bookmarked: false });
    await blocker.caller.safety.unblock({ userId: me.user.id });
    await me.caller.bookmarks.add({ postId: byBlocker.id });
    expect((await me.caller.bookmarks.list({})).items.map((p) => p.id)).toEqual([byBlocker.id]);
  });

  it('leaves out posts of muted and suspended authors, removed posts, and deleted ones', async () => {
    const me = await createMember(db.orm);
    const muted = await createMember(db.orm);
    const suspended = await createMember(db.orm);
    const other = await createMember(db.orm);
    const { post: byMuted } = await muted.caller.posts.create({ content: 'muted writes' });
    const { post: bySuspended } = await suspended.caller.posts.create({ content: 'suspended writes' });
    const { post: removed } = await other.caller.posts.create({ content: 'will be removed' });
    const { post: deleted } = await other.caller.posts.create({ content: 'will be deleted' });
    const { post: kept } = await other.caller.posts.create({ content: 'stays' });
    for (const p of [byMuted, bySuspended, removed, deleted, kept])
      await me.caller.bookmarks.add({ postId: p.id });
    expect((await me.caller.bookmarks.list({})).items).toHaveLength(5);

    await me.caller.safety.mute({ userId: muted.user.id });
    await sql('update users set suspended_at = now(), suspended_until = null where id = ?', [
      suspended.user.id,
    ]);
    await sql('update posts set removed_at = now() where id = ?', [removed.id]);
    await other.caller.posts.delete({ postId: deleted.id });
    expect((await me.caller.bookmarks.list({})).items.map((p) => p.id)).toEqual([kept.id]);
    // A suspended author's or removed post cannot be bookmarked anew.
    await me.caller.bookmarks.remove({ postId: bySuspended.id });
    await expectCode(me.caller.bookmarks.add({ postId: bySuspended.id }), 'NOT_FOUND', POST_NOT_FOUND);
    await expectCode(me.caller.bookmarks.add({ postId: removed.id }), 'NOT_FOUND', POST_NOT_FOUND);
    // The deleted post took its bookmark along.
    await expectCode(me.caller.bookmarks.remove({ postId: deleted.id }), 'NOT_FOUND', POST_NOT_FOUND);

    // Unmuted and reinstated: back in the list, in bookmark order.
    await me.caller.safety.unmute({ userId: muted.user.id });
    await sql('update users set suspended_at = null where id = ?', [suspended.user.id]);
    expect((await me.caller.bookmarks.list({})).items.map((p) => p.id)).toEqual([kept.id, byMuted.id]);
  });
});
