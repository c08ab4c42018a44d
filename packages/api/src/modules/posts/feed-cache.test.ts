import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, setupDatabase, visitor } from '../../../test/harness.js';
import { FEED_CACHE_TTL_MS } from './feed-cache.js';

let db: Awaited<ReturnType<typeof setupDatabase>>;
beforeAll(async () => {
  db = await setupDatabase();
});
afterAll(() => db.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the cached first feed page', () => {
  it('reflects every write made through this process at once, with each viewer’s own likes', async () => {
    const bob = await createMember(db.orm);
    const alice = await createMember(db.orm);
    const carol = await createMember(db.orm);
    const { post } = await bob.caller.posts.create({ content: 'fresh from the oven' });
    expect((await visitor(db.orm).posts.feed({ limit: 5 })).items[0]?.id).toBe(post.id);

    await alice.caller.posts.like({ postId: post.id });
    const forAlice = (await alice.caller.posts.feed({ limit: 5 })).items[0]!;
    const forCarol = (await carol.caller.posts.feed({ limit: 5 })).items[0]!;
    expect(forAlice).toMatchObject({ id: post.id, likesCount: 1, isLiked: true });
    expect(forCarol).toMatchObject({ id: post.id, likesCount: 1, isLiked: false });

    await alice.caller.comments.create({ postId: post.id, content: 'yum' });
    expect((await carol.caller.posts.feed({ limit: 5 })).items[0]?.commentsCount).toBe(1);
    await bob.caller.settings.update({ displayName: 'Bob the Baker' });
    expect((await carol.caller.posts.feed({ limit: 5 })).items[0]?.userDisplayName).toBe('Bob the Baker');

    await alice.caller.posts.unlike({ postId: post.id });
    expect((await alice.caller.posts.feed({ limit: 5 })).items[0]).toMatchObject({
      likesCount: 0,
      isLiked: false,
    });
  });

  it('shows writes made elsewhere (another instance) within a second', async () => {
    const dan = await createMember(db.orm);
    await visitor(db.orm).posts.feed({ limit: 5 }); // warm the cache
    const id = randomUUID();
    await db.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into posts (id, author_id, content, created_at) values (?, ?, 'from elsewhere', now())`,
        [id, dan.user.id],
      );
    await sleep(FEED_CACHE_TTL_MS + 50);
    expect((await visitor(db.orm).posts.feed({ limit: 5 })).items[0]?.id).toBe(id);
  });
});
