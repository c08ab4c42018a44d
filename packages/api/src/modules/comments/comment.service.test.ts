import { describe, expect, it } from 'vitest';
import { createMember, expectCode, UNKNOWN_ID, useDatabase, visitor } from '../../../test/harness.js';

const db = useDatabase();

describe('comments', () => {
  it('adds comments with the author joined and counts them on the post', async () => {
    const author = await createMember(db.orm);
    const bob = await createMember(db.orm, { displayName: 'Bob' });
    const { post } = await author.caller.posts.create({ content: 'discuss' });
    const comment = await bob.caller.comments.create({ postId: post.id, content: '  first!  ' });
    expect(Object.keys(comment).sort()).toEqual(
      [
        'content',
        'createdAt',
        'id',
        'mentions',
        'userAvatarUrl',
        'userDisplayName',
        'userId',
        'username',
      ].sort(),
    );
    expect(comment).toMatchObject({
      userId: bob.user.id,
      username: bob.user.username,
      userDisplayName: 'Bob',
      userAvatarUrl: null,
      content: 'first!',
    });
    await author.caller.comments.create({ postId: post.id, content: 'second' });
    const feed = await visitor(db.orm).posts.feed({ limit: 50 });
    expect(feed.items.find((p) => p.id === post.id)?.commentsCount).toBe(2);
  });

  it('counts and notifies exactly under concurrent comments, and refuses an unknown or removed post', async () => {
    const author = await createMember(db.orm);
    const fans = await Promise.all(Array.from({ length: 12 }, () => createMember(db.orm)));
    const { post } = await author.caller.posts.create({ content: 'busy' });
    await Promise.all(
      fans.flatMap((fan, i) => [
        fan.caller.comments.create({ postId: post.id, content: `a${i}` }),
        fan.caller.comments.create({ postId: post.id, content: `b${i}` }),
      ]),
    );
    const { post: after } = await visitor(db.orm).posts.byId({ postId: post.id });
    expect(after.commentsCount).toBe(24);
    expect((await visitor(db.orm).comments.list({ postId: post.id })).items).toHaveLength(24);
    const notes = await author.caller.notifications.list();
    expect(notes.filter((n) => n.type === 'comment')).toHaveLength(24);
    await expectCode(fans[0]!.caller.comments.create({ postId: UNKNOWN_ID, content: 'x' }), 'NOT_FOUND');
    await db.orm.em.fork().execute('update posts set removed_at = now() where id = ?', [post.id]);
    await expectCode(fans[0]!.caller.comments.create({ postId: post.id, content: 'x' }), 'NOT_FOUND');
    const [row] = await db.orm.em
      .fork()
      .execute<{ n: number }[]>('select comments_count::int as n from posts where id = ?', [post.id]);
    expect(row!.n).toBe(24);
  });

  it('lists oldest first, publicly', async () => {
    const author = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'thread' });
    for (const content of ['one', 'two', 'three'])
      await author.caller.comments.create({ postId: post.id, content });
    const list = await visitor(db.orm).comments.list({ postId: post.id });
    expect(list.items.map((c) => c.content)).toEqual(['one', 'two', 'three']);
    expect(list.items[0]!.createdAt).toBe(new Date(list.items[0]!.createdAt).toISOString());
    expect(list.nextCursor).toBeNull();
  });

  it('pages a long thread with no gaps or duplicates while comments keep coming', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'a busy thread' });
    for (let i = 0; i < 120; i++) await fan.caller.comments.create({ postId: post.id, content: `c${i}` });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof fan.caller.comments.list>> = await visitor(db.orm).comments.list({
        postId: post.id,
        cursor,
      });
      expect(page.items.length).toBeLessThanOrEqual(50); // the default page
      seen.push(...page.items.map((c) => c.content));
      cursor = page.nextCursor;
      pages += 1;
      if (pages === 1) await author.caller.comments.create({ postId: post.id, content: 'late' });
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...Array.from({ length: 120 }, (_, i) => `c${i}`), 'late']);

    const small = await visitor(db.orm).comments.list({ postId: post.id, limit: 2 });
    expect(small.items.map((c) => c.content)).toEqual(['c0', 'c1']);
    await expectCode(
      visitor(db.orm).comments.list({ postId: post.id, cursor: 'garbage' }),
      'BAD_REQUEST',
      'Invalid cursor',
    );
    await expectCode(
      visitor(db.orm).comments.list({ postId: post.id, limit: 51 }),
      'BAD_REQUEST',
      'Limit must be between 1 and 50',
    );
  });

  it('validates content, needs a login and answers 404 for unknown posts', async () => {
    const author = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'strict' });
    await expectCode(
      author.caller.comments.create({ postId: post.id, content: '   ' }),
      'BAD_REQUEST',
      'Comment cannot be empty',
    );
    await expectCode(
      author.caller.comments.create({ postId: post.id, content: 'x'.repeat(2001) }),
      'BAD_REQUEST',
      'Comment must be at most 2000 characters',
    );
    await expectCode(visitor(db.orm).comments.create({ postId: post.id, content: 'hi' }), 'UNAUTHORIZED');
    await expectCode(
      author.caller.comments.create({ postId: UNKNOWN_ID, content: 'hi' }),
      'NOT_FOUND',
      'Post not found',
    );
    await expectCode(
      author.caller.comments.create({ postId: 'bad', content: 'hi' }),
      'NOT_FOUND',
      'Post not found',
    );
    await expectCode(visitor(db.orm).comments.list({ postId: UNKNOWN_ID }), 'NOT_FOUND', 'Post not found');
    await expectCode(visitor(db.orm).comments.list({ postId: 'bad' }), 'NOT_FOUND', 'Post not found');
    // Nothing was counted for the failed attempts.
    const feed = await visitor(db.orm).posts.feed({ limit: 50 });
    expect(feed.items.find((p) => p.id === post.id)?.commentsCount).toBe(0);
  });

  it('counts against the write bucket', async () => {
    const hits: string[] = [];
    const author = await createMember(
      db.orm,
      {},
      {
        rateLimit: async (bucket, key) => {
          hits.push(`${bucket}:${key}`);
          return { allowed: true };
        },
      },
    );
    const { post } = await author.caller.posts.create({ content: 'limits' });
    await author.caller.comments.create({ postId: post.id, content: 'c' });
    await author.caller.comments.list({ postId: post.id });
    expect(hits).toEqual([`write:user:${author.user.id}`, `write:user:${author.user.id}`]);
  });
});
