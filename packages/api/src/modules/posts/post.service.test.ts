import { describe, expect, it } from 'vitest';
import { createMember, expectCode, publicObject, useDatabase, visitor } from '../../../test/harness.js';
import { postKeyset } from './post.repository.js';
import type { PostDto } from './post.serializer.js';
import { liveNewPosts } from './post.service.js';

const db = useDatabase();

const POST_KEYS = [
  'commentsCount',
  'content',
  'contentWarning',
  'createdAt',
  'editedAt',
  'id',
  'imageUrl',
  'images',
  'isBookmarked',
  'isLiked',
  'isReposted',
  'likesCount',
  'linkCard',
  'mentions',
  'pinned',
  'poll',
  'quote',
  'quotePostId',
  'repostedBy',
  'repostsCount',
  'tags',
  'userAvatarUrl',
  'userDisplayName',
  'userId',
  'username',
];

/** Walks the whole feed page by page, as a client would. */
async function readFeed(caller: ReturnType<typeof visitor>, limit: number): Promise<PostDto[]> {
  const all: PostDto[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: PostDto[]; nextCursor: string | null } = await caller.posts.feed({ cursor, limit });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

function expectNewestFirst(posts: PostDto[]) {
  for (let i = 1; i < posts.length; i++) {
    const a = posts[i - 1]!;
    const b = posts[i]!;
    const newer =
      Date.parse(a.createdAt) > Date.parse(b.createdAt) ||
      (Date.parse(a.createdAt) === Date.parse(b.createdAt) && a.id > b.id);
    expect(newer, `${a.id} before ${b.id}`).toBe(true);
  }
}

describe('posts.create', () => {
  it('creates a post with the author joined, trimmed content and no image', async () => {
    const alice = await createMember(db.orm, { displayName: 'Alice' });
    const { post } = await alice.caller.posts.create({ content: '  hello cubes  ' });
    expect(Object.keys(post).sort()).toEqual(POST_KEYS);
    expect(post).toMatchObject({
      userId: alice.user.id,
      username: alice.user.username,
      userDisplayName: 'Alice',
      userAvatarUrl: null,
      content: 'hello cubes',
      contentWarning: null,
      imageUrl: null,
      likesCount: 0,
      commentsCount: 0,
      isLiked: false,
    });
    expect(post.createdAt).toBe(new Date(post.createdAt).toISOString());
  });

  it('accepts the caller’s own public upload and nothing else', async () => {
    const { caller, user } = await createMember(db.orm);
    const other = await createMember(db.orm);
    const own = await publicObject(db.orm, user.id);
    const ok = await caller.posts.create({ content: 'pic', imageUrl: own });
    expect(ok.post.imageUrl).toBe(own);
    for (const imageUrl of [await publicObject(db.orm, other.user.id), '/objects/uploads/0b7c1e2f-image']) {
      await expectCode(
        caller.posts.create({ content: 'x', imageUrl }),
        'BAD_REQUEST',
        'Image not found: upload it first',
      );
    }
    expect((await caller.posts.create({ content: 'no pic', imageUrl: null })).post.imageUrl).toBeNull();
    for (const imageUrl of [
      'https://evil.example/a.png',
      '//evil.example/a.png',
      '/objects/../etc/passwd',
      '/objects/',
      '/objectsx/a',
      'javascript:alert(1)',
      `/objects/${'a'.repeat(600)}`,
      42,
    ]) {
      await expectCode(
        caller.posts.create({ content: 'x', imageUrl: imageUrl as string }),
        'BAD_REQUEST',
        'Invalid image URL',
      );
    }
  });

  it('validates the content length after trimming', async () => {
    const { caller } = await createMember(db.orm);
    await expectCode(caller.posts.create({ content: '' }), 'BAD_REQUEST', 'Post cannot be empty');
    await expectCode(caller.posts.create({ content: ' \n\t ' }), 'BAD_REQUEST', 'Post cannot be empty');
    await expectCode(
      caller.posts.create({ content: 'x'.repeat(2001) }),
      'BAD_REQUEST',
      'Post must be at most 2000 characters',
    );
    const max = await caller.posts.create({ content: ` ${'x'.repeat(2000)} ` });
    expect(max.post.content).toHaveLength(2000);
  });

  it('needs a login', async () => {
    await expectCode(visitor(db.orm).posts.create({ content: 'hi' }), 'UNAUTHORIZED');
  });

  it('counts posts against the write bucket and likes against the react bucket, per user', async () => {
    const hits: string[] = [];
    const author = await createMember(db.orm);
    const limited = await createMember(
      db.orm,
      {},
      {
        rateLimit: async (bucket, key) => {
          hits.push(`${bucket}:${key}`);
          return bucket === 'write' ? { allowed: false, retryAfterSeconds: 30 } : { allowed: true };
        },
      },
    );
    const { post } = await author.caller.posts.create({ content: 'limits' });
    await expectCode(limited.caller.posts.create({ content: 'x' }), 'TOO_MANY_REQUESTS');
    await limited.caller.posts.like({ postId: post.id });
    await limited.caller.posts.unlike({ postId: post.id });
    expect(hits).toEqual([
      `write:user:${limited.user.id}`,
      `react:user:${limited.user.id}`,
      `react:user:${limited.user.id}`,
    ]);
  });
});

describe('posts.feed', () => {
  it('pages newest first with no gaps or duplicates while new posts arrive', async () => {
    const author = await createMember(db.orm);
    const reader = visitor(db.orm);
    const created: string[] = [];
    for (let i = 0; i < 25; i++)
      created.push((await author.caller.posts.create({ content: `post ${i}` })).post.id);
    const expected = [...created].reverse();

    const seen: PostDto[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { items: PostDto[]; nextCursor: string | null } = await reader.posts.feed({
        cursor,
        limit: 10,
      });
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
      // Someone posts between two page loads.
      await author.caller.posts.create({ content: `interloper ${pages}` });
    } while (cursor);

    const ids = seen.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expectNewestFirst(seen);
    expect(ids.filter((id) => created.includes(id))).toEqual(expected);
    // The first page started at the newest of the 25; later posts belong to a refresh, not to these pages.
    expect(ids.slice(0, 10)).toEqual(expected.slice(0, 10));
    expect(seen.some((p) => p.content.startsWith('interloper'))).toBe(false);
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  it('defaults to 20 per page, caps at 50 and rejects other limits', async () => {
    const author = await createMember(db.orm);
    const existing = (await readFeed(visitor(db.orm), 50)).length;
    for (let i = 0; i < 55 - existing; i++) {
      await author.caller.posts.create({ content: `filler ${i}` });
    }
    const reader = visitor(db.orm);
    const first = await reader.posts.feed();
    expect(first.items).toHaveLength(20);
    expect(first.nextCursor).toEqual(expect.any(String));
    expect((await reader.posts.feed({ limit: 50 })).items).toHaveLength(50);
    for (const limit of [0, 51, -1, 2.5]) {
      await expectCode(reader.posts.feed({ limit }), 'BAD_REQUEST');
    }
    await expectCode(reader.posts.feed({ limit: 51 }), 'BAD_REQUEST', 'Limit must be between 1 and 50');
  });

  it('answers 400 for a cursor it did not make', async () => {
    const reader = visitor(db.orm);
    const forged = [
      'nope!',
      Buffer.from('2026-01-01T00:00:00.000000Z|not-a-uuid').toString('base64url'),
      Buffer.from('2026-02-31T00:00:00.000000Z|00000000-0000-4000-8000-000000000000').toString('base64url'),
      Buffer.from('yesterday|00000000-0000-4000-8000-000000000000').toString('base64url'),
      '',
    ];
    for (const cursor of forged)
      await expectCode(reader.posts.feed({ cursor }), 'BAD_REQUEST', 'Invalid cursor');
  });

  it('keeps microseconds in the cursor, so posts within one millisecond page correctly', async () => {
    const author = await createMember(db.orm);
    const em = db.orm.em.fork();
    // Five posts 1 µs apart and two with the very same instant (ties break on id), far in the future.
    const ids: string[] = [];
    for (const [i, ts] of [
      '2999-01-01 00:00:00.000001+00',
      '2999-01-01 00:00:00.000002+00',
      '2999-01-01 00:00:00.000003+00',
      '2999-01-01 00:00:00.000004+00',
      '2999-01-01 00:00:00.000005+00',
      '2999-01-01 00:00:00.000005+00',
      '2999-01-01 00:00:00.000005+00',
    ].entries()) {
      const [row] = await em.execute<{ id: string }[]>(
        `insert into posts (id, author_id, content, created_at) values (gen_random_uuid(), ?, ?, ?::timestamptz) returning id`,
        [author.user.id, `micro ${i}`, ts],
      );
      ids.push(row!.id);
    }
    const expected = await em.execute<{ id: string }[]>(
      `select id from posts where created_at >= '2999-01-01' order by created_at desc, id desc`,
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: PostDto[]; nextCursor: string | null } = await visitor(db.orm).posts.feed({
        cursor,
        limit: 2,
      });
      seen.push(...page.items.map((p) => p.id).filter((id) => ids.includes(id)));
      cursor = seen.length < ids.length ? page.nextCursor : null;
    } while (cursor);
    expect(seen).toEqual(expected.map((r) => r.id));
    await em.execute(`delete from posts where created_at >= '2999-01-01'`);
  });

  it('round-trips its cursors', () => {
    const cursor = { createdAt: '2026-11-21T10:00:00.123456Z', id: '0b7c1e2f-0000-4000-8000-000000000001' };
    expect(postKeyset.decode(postKeyset.encode(cursor))).toEqual(cursor);
    expect(postKeyset.decode(null)).toBeNull();
  });

  it('tells the viewer what they like, and no one else', async () => {
    const author = await createMember(db.orm);
    const liker = await createMember(db.orm);
    const other = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'like me' });
    await liker.caller.posts.like({ postId: post.id });
    const find = async (caller: ReturnType<typeof visitor>) =>
      (await caller.posts.feed({ limit: 50 })).items.find((p) => p.id === post.id)!;
    expect(await find(liker.caller)).toMatchObject({ isLiked: true, likesCount: 1 });
    expect(await find(other.caller)).toMatchObject({ isLiked: false, likesCount: 1 });
    expect(await find(author.caller)).toMatchObject({ isLiked: false, likesCount: 1 });
    expect(await find(visitor(db.orm))).toMatchObject({ isLiked: false, likesCount: 1 });
  });
});

describe('posts.byId', () => {
  it('answers one post with its author and the viewer’s like, or 404', async () => {
    const author = await createMember(db.orm, { displayName: 'Solo Author' });
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'find me later' });
    await fan.caller.posts.like({ postId: post.id });
    expect((await fan.caller.posts.byId({ postId: post.id })).post).toMatchObject({
      id: post.id,
      content: 'find me later',
      userDisplayName: 'Solo Author',
      likesCount: 1,
      isLiked: true,
    });
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post).toMatchObject({
      id: post.id,
      isLiked: false,
    });
    for (const postId of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      await expectCode(visitor(db.orm).posts.byId({ postId }), 'NOT_FOUND', 'Post not found');
    }
  });
});

describe('posts.like and posts.unlike', () => {
  it('are idempotent and keep the count exact', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'counted' });
    expect(await fan.caller.posts.like({ postId: post.id })).toEqual({ liked: true, likesCount: 1 });
    expect(await fan.caller.posts.like({ postId: post.id })).toEqual({ liked: true, likesCount: 1 });
    expect(await author.caller.posts.like({ postId: post.id })).toEqual({ liked: true, likesCount: 2 });
    expect(await fan.caller.posts.unlike({ postId: post.id })).toEqual({ liked: false, likesCount: 1 });
    expect(await fan.caller.posts.unlike({ postId: post.id })).toEqual({ liked: false, likesCount: 1 });
    expect(await author.caller.posts.unlike({ postId: post.id })).toEqual({ liked: false, likesCount: 0 });
    const rows = await db.orm.em
      .fork()
      .execute<{ n: number }[]>('select count(*)::int as n from likes where post_id = ?', [post.id]);
    expect(rows[0]!.n).toBe(0);
  });

  it('answer 404 for an unknown or malformed post id and 401 when logged out', async () => {
    const { caller } = await createMember(db.orm);
    for (const postId of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1' or '1'='1"]) {
      await expectCode(caller.posts.like({ postId }), 'NOT_FOUND', 'Post not found');
      await expectCode(caller.posts.unlike({ postId }), 'NOT_FOUND', 'Post not found');
    }
    await expectCode(
      visitor(db.orm).posts.like({ postId: '00000000-0000-4000-8000-000000000000' }),
      'UNAUTHORIZED',
    );
    await expectCode(
      visitor(db.orm).posts.unlike({ postId: '00000000-0000-4000-8000-000000000000' }),
      'UNAUTHORIZED',
    );
  });

  it('counts 100 concurrent likes by 100 users exactly', async () => {
    const author = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'going viral' });
    const fans = await Promise.all(Array.from({ length: 100 }, () => createMember(db.orm)));
    const results = await Promise.all(fans.map((f) => f.caller.posts.like({ postId: post.id })));
    expect(results.every((r) => r.liked)).toBe(true);
    // Every intermediate count was handed out once: the increments were serialised, not lost.
    expect(new Set(results.map((r) => r.likesCount)).size).toBe(100);
    expect(Math.max(...results.map((r) => r.likesCount))).toBe(100);
    const em = db.orm.em.fork();
    const [counts] = await em.execute<{ likes_count: number; rows: number }[]>(
      'select likes_count, (select count(*)::int from likes where post_id = p.id) as rows from posts p where id = ?',
      [post.id],
    );
    expect(counts).toEqual({ likes_count: 100, rows: 100 });

    // And 100 concurrent unlikes bring it back to zero.
    await Promise.all(fans.map((f) => f.caller.posts.unlike({ postId: post.id })));
    const [after] = await em.execute<{ likes_count: number }[]>(
      'select likes_count from posts where id = ?',
      [post.id],
    );
    expect(after!.likes_count).toBe(0);
  });
  it('keeps the count, the like rows and the notifications exact under concurrent toggles', async () => {
    const author = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'toggle me' });
    const fans = await Promise.all(Array.from({ length: 30 }, () => createMember(db.orm)));
    // Each fan races several likes and unlikes of the same post against everyone else's, and
    // finishes with a like (even fans) or an unlike (odd fans), run after their own race.
    await Promise.all(
      fans.map(async (f, i) => {
        await Promise.all(
          Array.from({ length: 6 }, (_, k) =>
            k % 2 === 0
              ? f.caller.posts.like({ postId: post.id })
              : f.caller.posts.unlike({ postId: post.id }),
          ),
        );
        const last =
          i % 2 === 0 ? f.caller.posts.like({ postId: post.id }) : f.caller.posts.unlike({ postId: post.id });
        const result = await last;
        expect(result.liked).toBe(i % 2 === 0);
      }),
    );
    const em = db.orm.em.fork();
    const [counts] = await em.execute<{ likes_count: number; rows: number; notes: number }[]>(
      `select likes_count, (select count(*)::int from likes where post_id = p.id) as rows,
              (select count(*)::int from notifications where post_id = p.id and type = 'like') as notes
         from posts p where id = ?`,
      [post.id],
    );
    expect(counts).toEqual({ likes_count: 15, rows: 15, notes: 15 });
    const seen = (await author.caller.posts.byId({ postId: post.id })).post.likesCount;
    expect(seen).toBe(15);
  });

  it('answers 404 for a like of an unknown, removed or blocked post and changes nothing', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'soon gone' });
    await expectCode(fan.caller.posts.like({ postId: '00000000-0000-4000-8000-000000000000' }), 'NOT_FOUND');
    await fan.caller.posts.like({ postId: post.id });
    const em = db.orm.em.fork();
    await em.execute('update posts set removed_at = now() where id = ?', [post.id]);
    await expectCode(fan.caller.posts.like({ postId: post.id }), 'NOT_FOUND');
    // Taking back a like of a post removed since still works, and takes the notification back.
    expect(await fan.caller.posts.unlike({ postId: post.id })).toEqual({ liked: false, likesCount: 0 });
    await expectCode(fan.caller.posts.unlike({ postId: post.id }), 'NOT_FOUND');
    const [notes] = await em.execute<{ n: number }[]>(
      `select count(*)::int n from notifications where post_id = ? and type = 'like'`,
      [post.id],
    );
    expect(notes!.n).toBe(0);

    // A block either way hides the post; a mute lets the like count but sends the author nothing.
    const blocked = await createMember(db.orm);
    const muted = await createMember(db.orm);
    const { post: other } = await author.caller.posts.create({ content: 'still here' });
    await blocked.caller.safety.block({ userId: author.user.id });
    await expectCode(blocked.caller.posts.like({ postId: other.id }), 'NOT_FOUND');
    await author.caller.safety.mute({ userId: muted.user.id });
    expect(await muted.caller.posts.like({ postId: other.id })).toEqual({ liked: true, likesCount: 1 });
    const [after] = await em.execute<{ likes: number; notes: number }[]>(
      `select (select count(*)::int from likes where post_id = ?) likes,
              (select count(*)::int from notifications where post_id = ?) notes`,
      [other.id, other.id],
    );
    expect(after).toEqual({ likes: 1, notes: 0 });
  });
});

describe("posts.onNew's catch-up", () => {
  it('leaves out the posts of a suspended member, as the feed does', async () => {
    const reader = await createMember(db.orm);
    const suspended = await createMember(db.orm);
    const friend = await createMember(db.orm);
    const { post: before } = await friend.caller.posts.create({ content: 'before the cursor' });
    await suspended.caller.posts.create({ content: 'while suspended' });
    const { post: visible } = await friend.caller.posts.create({ content: 'after the cursor' });
    await db.orm.em
      .fork()
      .execute('update users set suspended_at = now(), suspended_until = null where id = ?', [
        suspended.user.id,
      ]);

    const stop = new AbortController();
    const live = liveNewPosts(
      reader.ctx,
      // The cursor's time has microseconds, as the database writes it.
      postKeyset.encode({ createdAt: before.createdAt.replace('Z', '000Z'), id: before.id }),
      stop.signal,
    );
    try {
      const first = await live.next();
      expect(first.done).toBe(false);
      expect(first.value?.post.postId).toBe(visible.id);
    } finally {
      stop.abort();
      await live.return(undefined);
    }
  });
});
