/** Pinned posts: own posts only, at most 3 (also under concurrent pins), first on the profile. */
import { describe, expect, it } from 'vitest';
import { createMember, expectCode, useDatabase, visitor } from '../../../test/harness.js';
import { POST_NOT_FOUND } from './post.service.js';
import { TOO_MANY_PINS } from './post-pins.service.js';

const db = useDatabase();

describe('posts.pin and posts.unpin', () => {
  it('lead the profile with up to 3 of one’s own posts, and put them back in place', async () => {
    const me = await createMember(db.orm);
    const other = await createMember(db.orm);
    const posts = [];
    for (const content of ['one', 'two', 'three', 'four', 'five']) {
      posts.push((await me.caller.posts.create({ content })).post);
    }
    const [one, two, three, four] = posts as [
      (typeof posts)[0],
      (typeof posts)[0],
      (typeof posts)[0],
      (typeof posts)[0],
    ];
    const profile = async (limit = 2) => {
      const all: { content: string; pinned: boolean }[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof other.caller.users.posts>> = await visitor(db.orm).users.posts({
          userId: me.user.id,
          limit,
          cursor,
        });
        all.push(...page.items.map((p) => ({ content: p.content, pinned: p.pinned })));
        cursor = page.nextCursor;
      } while (cursor);
      return all.map((p) => (p.pinned ? `📌${p.content}` : p.content));
    };
    expect(await me.caller.posts.pin({ postId: two.id })).toEqual({ pinned: true });
    expect(await me.caller.posts.pin({ postId: two.id })).toEqual({ pinned: true });
    expect(await me.caller.posts.pin({ postId: one.id })).toEqual({ pinned: true });
    expect(await profile()).toEqual(['📌one', '📌two', 'five', 'four', 'three']);

    // Another member's post, or an unknown one: 404. Visitors: 401.
    await expectCode(other.caller.posts.pin({ postId: one.id }), 'NOT_FOUND', POST_NOT_FOUND);
    await expectCode(other.caller.posts.unpin({ postId: one.id }), 'NOT_FOUND', POST_NOT_FOUND);
    await expectCode(me.caller.posts.pin({ postId: 'nope' }), 'NOT_FOUND', POST_NOT_FOUND);
    await expectCode(visitor(db.orm).posts.pin({ postId: one.id }), 'UNAUTHORIZED');

    // Two pins at once with one place left: one wins.
    const results = await Promise.allSettled([
      me.caller.posts.pin({ postId: three.id }),
      me.caller.posts.pin({ postId: four.id }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as Error).message).toBe(TOO_MANY_PINS);
    const pinnedNow = (await profile(10)).filter((c) => c.startsWith('📌'));
    expect(pinnedNow).toHaveLength(3);

    for (const p of posts) await me.caller.posts.unpin({ postId: p.id });
    expect(await me.caller.posts.unpin({ postId: one.id })).toEqual({ pinned: false });
    expect(await profile()).toEqual(['five', 'four', 'three', 'two', 'one']);
  });
});
