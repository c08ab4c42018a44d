import { describe, expect, it } from 'vitest';
import {
  callerFor,
  createMember,
  expectCode,
  type Member,
  useDatabase,
  visitor,
} from '../../../test/harness.js';
import { createMemoryEventBus } from '../../events/event-bus.js';
import { cachesHear } from '../../kept-reads.js';
import { FOLLOWING_DENSE_FROM } from './following.repository.js';
import { type LivePostChange, POST_EDIT_WINDOW_MS } from './post.schema.js';
import { livePostChanges } from './post-changes.service.js';

const db = useDatabase();

async function count(sql: string, params: unknown[]): Promise<number> {
  const rows = await db.orm.em
    .fork()
    .execute<{ n: number }[]>(`select count(*)::int as n from (${sql}) x`, params);
  return rows[0]!.n;
}

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** An array parameter as PostgreSQL's text form (the ORM would expand a JS array into a list). */
/** A list of uuids as one array parameter. */
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

describe('posts.delete', () => {
  it('deletes your post with its likes, comments, revisions and notifications; other counters stay exact', async () => {
    const alice = await createMember(db.orm);
    const bob = await createMember(db.orm);
    const { post: gone } = await alice.caller.posts.create({ content: 'to be deleted' });
    const { post: kept } = await alice.caller.posts.create({ content: 'to be kept' });
    await alice.caller.posts.edit({ postId: gone.id, content: 'edited before deletion' });
    for (const post of [gone, kept]) {
      await bob.caller.posts.like({ postId: post.id });
      await bob.caller.comments.create({ postId: post.id, content: 'nice' });
    }
    expect((await alice.caller.users.stats({ userId: alice.user.id })).postsCount).toBe(2);
    expect(await alice.caller.notifications.list()).toHaveLength(4);

    expect(await alice.caller.posts.delete({ postId: gone.id })).toEqual({ ok: true });

    for (const table of ['likes', 'comments', 'notifications', 'post_revisions']) {
      expect(await count(`select 1 from ${table} where post_id = ?`, [gone.id]), table).toBe(0);
    }
    expect(await count('select 1 from posts where id = ?', [gone.id])).toBe(0);
    await expectCode(visitor(db.orm).posts.byId({ postId: gone.id }), 'NOT_FOUND', 'Post not found');
    const { post: after } = await bob.caller.posts.byId({ postId: kept.id });
    expect(after).toMatchObject({ likesCount: 1, commentsCount: 1, isLiked: true });
    expect((await alice.caller.users.stats({ userId: alice.user.id })).postsCount).toBe(1);
    const notes = await alice.caller.notifications.list();
    expect(notes.map((n) => n.postId)).toEqual([kept.id, kept.id]);
    expect((await alice.caller.notifications.unreadCount()).count).toBe(2);
    // The shared first feed page does not keep it either.
    const feed = await visitor(db.orm).posts.feed({ limit: 50 });
    expect(feed.items.map((p) => p.id)).not.toContain(gone.id);
  });

  it('answers 404 for another member’s post, a deleted post and unknown ids; 401 logged out', async () => {
    const alice = await createMember(db.orm);
    const mallory = await createMember(db.orm);
    const { post } = await alice.caller.posts.create({ content: 'mine' });
    await expectCode(mallory.caller.posts.delete({ postId: post.id }), 'NOT_FOUND', 'Post not found');
    expect(await count('select 1 from posts where id = ?', [post.id])).toBe(1);
    await expectCode(visitor(db.orm).posts.delete({ postId: post.id }), 'UNAUTHORIZED');
    await expectCode(alice.caller.posts.delete({ postId: UNKNOWN_ID }), 'NOT_FOUND');
    await expectCode(alice.caller.posts.delete({ postId: 'not-a-uuid' }), 'NOT_FOUND');
    await alice.caller.posts.delete({ postId: post.id });
    await expectCode(alice.caller.posts.delete({ postId: post.id }), 'NOT_FOUND');
  });
});

describe('posts.edit', () => {
  it('changes the text, marks it edited and keeps each replaced version, newest first', async () => {
    const alice = await createMember(db.orm);
    const bob = await createMember(db.orm);
    const { post } = await alice.caller.posts.create({ content: 'first' });
    expect(post.editedAt).toBeNull();
    expect((await bob.caller.posts.revisions({ postId: post.id })).revisions).toEqual([]);

    const { post: second } = await alice.caller.posts.edit({ postId: post.id, content: '  second  ' });
    expect(second).toMatchObject({ id: post.id, content: 'second', createdAt: post.createdAt });
    expect(second.editedAt).toBe(new Date(second.editedAt!).toISOString());
    const { post: third } = await alice.caller.posts.edit({ postId: post.id, content: 'third' });
    expect(Date.parse(third.editedAt!)).toBeGreaterThan(Date.parse(second.editedAt!));

    // Anyone who sees the post sees its history.
    const { revisions } = await visitor(db.orm).posts.revisions({ postId: post.id });
    expect(revisions.map((r) => r.content)).toEqual(['second', 'first']);
    expect(revisions[0]).toMatchObject({ writtenAt: second.editedAt, replacedAt: third.editedAt });
    expect(revisions[1]).toMatchObject({ writtenAt: post.createdAt, replacedAt: second.editedAt });
    expect((await bob.caller.posts.byId({ postId: post.id })).post).toMatchObject({
      content: 'third',
      editedAt: third.editedAt,
    });
  });

  it('keeps no version when the text does not change', async () => {
    const alice = await createMember(db.orm);
    const { post } = await alice.caller.posts.create({ content: 'same' });
    const { post: after } = await alice.caller.posts.edit({ postId: post.id, content: ' same ' });
    expect(after.editedAt).toBeNull();
    expect((await alice.caller.posts.revisions({ postId: post.id })).revisions).toEqual([]);
  });

  it('refuses after 15 minutes (403), others’ posts (404) and bad text (400)', async () => {
    const alice = await createMember(db.orm);
    const mallory = await createMember(db.orm);
    const { post } = await alice.caller.posts.create({ content: 'on time' });
    await expectCode(mallory.caller.posts.edit({ postId: post.id, content: 'hijack' }), 'NOT_FOUND');
    await expectCode(visitor(db.orm).posts.edit({ postId: post.id, content: 'x' }), 'UNAUTHORIZED');
    await expectCode(alice.caller.posts.edit({ postId: UNKNOWN_ID, content: 'x' }), 'NOT_FOUND');
    await expectCode(
      alice.caller.posts.edit({ postId: post.id, content: '   ' }),
      'BAD_REQUEST',
      'Post cannot be empty',
    );
    await expectCode(
      alice.caller.posts.edit({ postId: post.id, content: 'x'.repeat(2001) }),
      'BAD_REQUEST',
      'Post must be at most 2000 characters',
    );
    await expectCode(alice.caller.posts.edit({ postId: post.id, content: 'a\u0000b' }), 'BAD_REQUEST');

    const created = Date.parse(post.createdAt);
    const at = (ms: number) =>
      callerFor(db.orm, { token: null }, { session: alice.ctx.session, now: () => new Date(created + ms) })
        .caller;
    const { post: last } = await at(POST_EDIT_WINDOW_MS - 1000).posts.edit({
      postId: post.id,
      content: 'just in time',
    });
    expect(last.content).toBe('just in time');
    await expectCode(
      at(POST_EDIT_WINDOW_MS + 1000).posts.edit({ postId: post.id, content: 'too late' }),
      'FORBIDDEN',
      'Posts can only be edited in the first 15 minutes',
    );
    expect((await alice.caller.posts.byId({ postId: post.id })).post.content).toBe('just in time');
  });

  it("answers 404 for the revisions of a suspended member's post, until the suspension ends", async () => {
    const author = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'first' });
    await author.caller.posts.edit({ postId: post.id, content: 'second' });
    const suspend = (sql: string) => db.orm.em.fork().execute(sql, [author.user.id]);
    await suspend('update users set suspended_at = now(), suspended_until = null where id = ?');
    for (const caller of [visitor(db.orm), (await createMember(db.orm)).caller]) {
      await expectCode(caller.posts.revisions({ postId: post.id }), 'NOT_FOUND', 'Post not found');
      await expectCode(caller.posts.byId({ postId: post.id }), 'NOT_FOUND', 'Post not found');
    }
    await suspend('update users set suspended_at = null where id = ?');
    const { revisions } = await visitor(db.orm).posts.revisions({ postId: post.id });
    expect(revisions.map((r) => r.content)).toEqual(['first']);
  });

  it('answers 404 for the revisions of an unknown post', async () => {
    await expectCode(visitor(db.orm).posts.revisions({ postId: UNKNOWN_ID }), 'NOT_FOUND');
    await expectCode(visitor(db.orm).posts.revisions({ postId: 'nope' }), 'NOT_FOUND');
  });
});

describe('comments.delete', () => {
  it('lets the commenter and the post’s author delete a comment; the count and notification go', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const stranger = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'discuss' });
    const first = await fan.caller.comments.create({ postId: post.id, content: 'one' });
    const second = await fan.caller.comments.create({ postId: post.id, content: 'two' });
    const own = await author.caller.comments.create({ postId: post.id, content: 'mine' });
    expect(await author.caller.notifications.list()).toHaveLength(2);

    await expectCode(
      stranger.caller.comments.delete({ commentId: first.id }),
      'NOT_FOUND',
      'Comment not found',
    );
    await expectCode(fan.caller.comments.delete({ commentId: own.id }), 'NOT_FOUND');
    await expectCode(visitor(db.orm).comments.delete({ commentId: first.id }), 'UNAUTHORIZED');
    await expectCode(fan.caller.comments.delete({ commentId: UNKNOWN_ID }), 'NOT_FOUND');
    await expectCode(fan.caller.comments.delete({ commentId: '../x' }), 'NOT_FOUND');

    expect(await fan.caller.comments.delete({ commentId: first.id })).toEqual({ ok: true });
    expect(await author.caller.comments.delete({ commentId: second.id })).toEqual({ ok: true });
    await expectCode(author.caller.comments.delete({ commentId: second.id }), 'NOT_FOUND');

    const { items } = await visitor(db.orm).comments.list({ postId: post.id });
    expect(items.map((c) => c.id)).toEqual([own.id]);
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.commentsCount).toBe(1);
    expect(await author.caller.notifications.list()).toHaveLength(0);
    await author.caller.comments.delete({ commentId: own.id });
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.commentsCount).toBe(0);
  });

  it('keeps the count exact when comments are written and deleted at once', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'busy thread' });
    const early = await Promise.all(
      Array.from({ length: 6 }, (_, i) => fan.caller.comments.create({ postId: post.id, content: `c${i}` })),
    );
    await Promise.all([
      ...early.map((c, i) =>
        (i % 2 ? author : fan).caller.comments.delete({ commentId: c.id }).catch(() => null),
      ),
      ...Array.from({ length: 4 }, (_, i) =>
        fan.caller.comments.create({ postId: post.id, content: `d${i}` }),
      ),
      // The same comment twice: only one delete counts.
      fan.caller.comments.delete({ commentId: early[0]!.id }).catch(() => null),
    ]);
    const rows = await count('select 1 from comments where post_id = ?', [post.id]);
    expect(rows).toBe(4);
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.commentsCount).toBe(4);
  });
});

/** Every page of `reader`'s Following feed, `limit` posts at a time: the posts' ids in order. */
async function walkFollowing(reader: Member, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: { id: string }[]; nextCursor: string | null } = await reader.caller.posts.feed({
      scope: 'following',
      limit,
      cursor,
    });
    ids.push(...page.items.map((p) => p.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

describe('posts.feed scope', () => {
  it('following: the posts of people you follow and your own, keyset-paged; everyone stays the default', async () => {
    const reader = await createMember(db.orm);
    const followed = await createMember(db.orm);
    const other = await createMember(db.orm);
    await reader.caller.follows.follow({ userId: followed.user.id });
    const expected: string[] = [];
    for (let i = 0; i < 5; i++) {
      expected.push((await followed.caller.posts.create({ content: `followed ${i}` })).post.id);
      await other.caller.posts.create({ content: `other ${i}` });
      if (i % 2 === 0) expected.push((await reader.caller.posts.create({ content: `own ${i}` })).post.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = await reader.caller.posts.feed({
        scope: 'following',
        limit: 3,
        cursor,
      });
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...expected].reverse());

    const everyone = await reader.caller.posts.feed({ limit: 50 });
    const defaulted = await reader.caller.posts.feed({ scope: 'everyone', limit: 50 });
    expect(everyone.items.map((p) => p.id)).toEqual(defaulted.items.map((p) => p.id));
    expect(everyone.items.filter((p) => p.userId === other.user.id)).toHaveLength(5);

    // Unfollowing empties it of their posts.
    await reader.caller.follows.unfollow({ userId: followed.user.id });
    const after = await reader.caller.posts.feed({ scope: 'following' });
    expect(after.items.every((p) => p.userId === reader.user.id)).toBe(true);
  });

  it('pages the same posts whether the reader follows few or many (both ways of reading)', async () => {
    const reader = await createMember(db.orm);
    const em = db.orm.em.fork();
    // 101 authors with 3 posts each, written straight to the tables (fast), at distinct times.
    const authors = await em.execute<{ id: string }[]>(
      `insert into users (id, username, display_name, email, password_hash, email_visible, created_at)
       select gen_random_uuid(), 'fanout_' || i, 'Fan-out ' || i, 'fanout' || i || '@example.com', 'x', false, now()
         from generate_series(1, ${FOLLOWING_DENSE_FROM + 1}) i
       returning id`,
    );
    await em.execute(
      `insert into posts (id, author_id, content, created_at)
       select gen_random_uuid(), a.id, 'fan-out post', now() - (random() * interval '1 hour')
         from unnest(?::uuid[]) a(id) cross join generate_series(1, 3)`,
      [uuidArray(authors.map((a) => a.id))],
    );
    await reader.caller.posts.create({ content: 'my own' });
    // Follows written straight to the table: the caches hear what the follow procedures publish.
    const relationsChanged = () =>
      cachesHear(db.orm.em.getDriver(), 'relations', {
        userId: reader.user.id,
        otherId: authors[0]!.id,
        kind: 'follow',
      });
    const follow = async (ids: string[]) => {
      await em.execute(
        `insert into follows (follower_id, followee_id) select ?, unnest(?::uuid[]) on conflict do nothing`,
        [reader.user.id, uuidArray(ids)],
      );
      relationsChanged();
    };
    const expected = async () =>
      (
        await em.execute<{ id: string }[]>(
          `select id from posts where author_id = ? or author_id in (select followee_id from follows where follower_id = ?)
            order by created_at desc, id desc`,
          [reader.user.id, reader.user.id],
        )
      ).map((r) => r.id);
    const walk = () => walkFollowing(reader, 7);
    // Many followees: the walk over everyone's newest posts.
    await follow(authors.map((a) => a.id));
    const dense = await expected();
    expect(dense).toHaveLength(3 * (FOLLOWING_DENSE_FROM + 1) + 1);
    expect(await walk()).toEqual(dense);
    // Few: each followee's newest posts, merged.
    await em.execute('delete from follows where follower_id = ?', [reader.user.id]);
    relationsChanged();
    await follow(authors.slice(0, 4).map((a) => a.id));
    const sparse = await expected();
    expect(sparse).toHaveLength(13);
    expect(await walk()).toEqual(sparse);
  });

  it("never cuts a page short for a suspended or muted followee's posts, whichever way it is read", async () => {
    const reader = await createMember(db.orm);
    const [suspended, muted, quiet] = [
      await createMember(db.orm),
      await createMember(db.orm),
      await createMember(db.orm),
    ];
    const em = db.orm.em.fork();
    // The quiet followee's 5 posts are the oldest; the other two wrote the 10 newest.
    const postAt = async (authorId: string, minutesAgo: number) =>
      (
        await em.execute<{ id: string }[]>(
          `insert into posts (id, author_id, content, created_at)
           values (gen_random_uuid(), ?, 'timed', now() - make_interval(mins => ?)) returning id`,
          [authorId, minutesAgo],
        )
      )[0]!.id;
    const shown: string[] = [];
    for (let i = 0; i < 5; i++) {
      await postAt(suspended.user.id, i);
      await postAt(muted.user.id, 5 + i);
      shown.push(await postAt(quiet.user.id, 10 + i));
    }
    for (const followee of [suspended, muted, quiet]) {
      await reader.caller.follows.follow({ userId: followee.user.id });
    }
    await reader.caller.safety.mute({ userId: muted.user.id });
    await em.execute('update users set suspended_at = now(), suspended_until = null where id = ?', [
      suspended.user.id,
    ]);
    const walk = () => walkFollowing(reader, 3);
    // Few followees: each one's newest posts, merged.
    expect(await walk()).toEqual(shown);
    // Many (silent ones added, straight to the table): the walk over everyone's newest posts.
    await em.execute(
      `insert into follows (follower_id, followee_id)
       select ?, id from users where id <> all(?::uuid[]) limit ${FOLLOWING_DENSE_FROM}`,
      [reader.user.id, uuidArray([reader.user.id, suspended.user.id, muted.user.id, quiet.user.id])],
    );
    cachesHear(db.orm.em.getDriver(), 'relations', {
      userId: reader.user.id,
      otherId: quiet.user.id,
      kind: 'follow',
    });
    const followees = await count('select 1 from follows where follower_id = ?', [reader.user.id]);
    expect(followees).toBeGreaterThanOrEqual(FOLLOWING_DENSE_FROM);
    const expected = await em.execute<{ id: string }[]>(
      `select p.id from posts p join users u on u.id = p.author_id
        where p.removed_at is null
          and (u.suspended_at is null or (u.suspended_until is not null and u.suspended_until <= now()))
          and p.author_id in (select followee_id from follows where follower_id = ? union all select ?)
          and p.author_id not in (select muted_id from mutes where muter_id = ?)
        order by p.created_at desc, p.id desc`,
      [reader.user.id, reader.user.id, reader.user.id],
    );
    const dense = await walk();
    expect(dense).toEqual(expected.map((r) => r.id));
    expect(dense.filter((id) => shown.includes(id))).toEqual(shown);
  });

  it('needs a login for following and refuses unknown scopes', async () => {
    await expectCode(
      visitor(db.orm).posts.feed({ scope: 'following' }),
      'UNAUTHORIZED',
      'Log in to see the posts of people you follow',
    );
    await expectCode(
      visitor(db.orm).posts.feed({ scope: 'friends' as 'following' }),
      'BAD_REQUEST',
      'Scope must be everyone or following',
    );
  });
});

describe('posts.onChange', () => {
  it('tells open feeds about deletions, edits and deleted comments, after the commit', async () => {
    const bus = createMemoryEventBus();
    const alice = await createMember(db.orm, {}, { bus });
    const bob = await createMember(db.orm, {}, { bus });
    const controller = new AbortController();
    const seen: LivePostChange[] = [];
    const done = (async () => {
      for await (const change of livePostChanges(bob.ctx, controller.signal)) seen.push(change);
    })();
    const { post } = await alice.caller.posts.create({ content: 'live' });
    const comment = await bob.caller.comments.create({ postId: post.id, content: 'hi' });
    await alice.caller.posts.edit({ postId: post.id, content: 'live, edited' });
    await alice.caller.comments.delete({ commentId: comment.id });
    await alice.caller.posts.delete({ postId: post.id });
    // A refused change says nothing.
    await alice.caller.posts.delete({ postId: post.id }).catch(() => null);
    const end = Date.now() + 2000;
    while (seen.length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await done;
    expect(seen).toEqual([
      { postId: post.id, kind: 'edited' },
      { postId: post.id, kind: 'comments' },
      { postId: post.id, kind: 'deleted' },
    ]);
  });
});
