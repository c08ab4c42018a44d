import { describe, expect, it, vi } from 'vitest';
import { createMember, expectCode, useDatabase, visitor } from '../../../test/harness.js';
import { setRole } from '../moderation/moderation.access.js';
import { setPollExpiry } from '../polls/poll.repository.js';
import { announcePollEnd } from '../polls/poll.service.js';
import { SNIPPET_MAX_LENGTH } from './notification.schema.js';
import { removalNote, removalOf } from './notification.service.js';

const db = useDatabase();

async function countRows(sql: string, params: unknown[]): Promise<number> {
  const rows = await db.orm.em
    .fork()
    .execute<{ n: number }[]>(`select count(*)::int as n from (${sql}) x`, params);
  return rows[0]!.n;
}

describe('notifications', () => {
  it('tells the author about likes, comments and follows, newest first, in the contract shape', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'notify me' });
    await fan.caller.posts.like({ postId: post.id });
    await fan.caller.comments.create({ postId: post.id, content: 'nice' });
    await fan.caller.follows.follow({ userId: author.user.id });

    const list = await author.caller.notifications.list();
    expect(list.map((n) => n.type)).toEqual(['follow', 'comment', 'like']);
    expect(Object.keys(list[0]!).sort()).toEqual(
      [
        'id',
        'isRead',
        'message',
        'postId',
        'snippet',
        'timestamp',
        'type',
        'userAvatar',
        'username',
        'groupKey',
        'actors',
        'actorsCount',
        'removal',
        'poll',
      ].sort(),
    );
    expect(list[0]).toMatchObject({
      type: 'follow',
      username: fan.user.username,
      userAvatar: null,
      message: 'started following you',
      isRead: false,
      postId: null,
      snippet: null,
      removal: null,
      poll: null,
    });
    expect(list[1]).toMatchObject({
      type: 'comment',
      message: 'commented on your post',
      postId: post.id,
      snippet: 'nice',
    });
    expect(list[2]).toMatchObject({
      type: 'like',
      message: 'liked your post',
      postId: post.id,
      snippet: 'notify me',
    });
    expect(list[0]!.timestamp).toBeInstanceOf(Date);
    expect(await author.caller.notifications.unreadCount()).toEqual({ count: 3 });
    // The fan was told nothing.
    expect(await fan.caller.notifications.list()).toEqual([]);
  });

  it('says nothing about acting on your own post', async () => {
    const me = await createMember(db.orm);
    const { post } = await me.caller.posts.create({ content: 'mine' });
    await me.caller.posts.like({ postId: post.id });
    await me.caller.comments.create({ postId: post.id, content: 'talking to myself' });
    expect(await me.caller.notifications.list()).toEqual([]);
  });

  it('keeps one like notification per actor and post through like, unlike, like', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'fickle' });
    await fan.caller.posts.like({ postId: post.id });
    await fan.caller.posts.like({ postId: post.id });
    await fan.caller.posts.unlike({ postId: post.id });
    await fan.caller.posts.like({ postId: post.id });
    const likes = (await author.caller.notifications.list()).filter((n) => n.type === 'like');
    expect(likes).toHaveLength(1);
    expect(
      await countRows("select 1 from notifications where type = 'like' and actor_id = ? and post_id = ?", [
        fan.user.id,
        post.id,
      ]),
    ).toBe(1);
    // Unliking takes it back.
    await fan.caller.posts.unlike({ postId: post.id });
    expect((await author.caller.notifications.list()).filter((n) => n.type === 'like')).toHaveLength(0);
  });

  it('keeps one follow notification per follower through follow, unfollow, follow', async () => {
    const star = await createMember(db.orm);
    const fan = await createMember(db.orm);
    await fan.caller.follows.follow({ userId: star.user.id });
    await fan.caller.follows.follow({ userId: star.user.id });
    await fan.caller.follows.unfollow({ userId: star.user.id });
    await fan.caller.follows.follow({ userId: star.user.id });
    expect((await star.caller.notifications.list()).filter((n) => n.type === 'follow')).toHaveLength(1);
  });

  it('makes one notification per comment', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'chatty' });
    await fan.caller.comments.create({ postId: post.id, content: 'a' });
    await fan.caller.comments.create({ postId: post.id, content: 'b' });
    expect((await author.caller.notifications.list()).filter((n) => n.type === 'comment')).toHaveLength(2);
  });

  it('marks all read, only for the caller', async () => {
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    const fan = await createMember(db.orm);
    await fan.caller.follows.follow({ userId: a.user.id });
    await fan.caller.follows.follow({ userId: b.user.id });
    const { post } = await a.caller.posts.create({ content: 'x' });
    await fan.caller.posts.like({ postId: post.id });

    expect(await a.caller.notifications.markAllRead()).toEqual({ ok: true, updated: 2 });
    expect(await a.caller.notifications.markAllRead()).toEqual({ ok: true, updated: 0 });
    expect((await a.caller.notifications.list()).every((n) => n.isRead)).toBe(true);
    expect(await a.caller.notifications.unreadCount()).toEqual({ count: 0 });
    expect((await b.caller.notifications.list()).map((n) => n.isRead)).toEqual([false]);
  });

  it('shows each user only their own and caps the list at 50', async () => {
    const busy = await createMember(db.orm);
    const other = await createMember(db.orm);
    const fans = await Promise.all(Array.from({ length: 55 }, () => createMember(db.orm)));
    // Comments are one item each (follows of a day would be one group).
    const { post } = await busy.caller.posts.create({ content: 'busy' });
    await Promise.all(fans.map((f) => f.caller.comments.create({ postId: post.id, content: 'hi' })));
    const list = await busy.caller.notifications.list();
    expect(list).toHaveLength(50);
    for (let i = 1; i < list.length; i++) {
      expect(list[i - 1]!.timestamp.getTime()).toBeGreaterThanOrEqual(list[i]!.timestamp.getTime());
    }
    expect(await other.caller.notifications.list()).toEqual([]);
  });

  it('needs a login', async () => {
    await expectCode(visitor(db.orm).notifications.list(), 'UNAUTHORIZED');
    await expectCode(visitor(db.orm).notifications.markAllRead(), 'UNAUTHORIZED');
    await expectCode(visitor(db.orm).notifications.unreadCount(), 'UNAUTHORIZED');
  });
});

describe('what a notification is about (issue #46)', () => {
  it('tells two mentions apart by a snippet of what was said: the post, or the comment', async () => {
    const alice = await createMember(db.orm);
    const bob = await createMember(db.orm);
    const { post } = await bob.caller.posts.create({
      content: `Hey @${alice.user.username}, look\n\nat   this cube`,
    });
    await bob.caller.comments.create({ postId: post.id, content: `@${alice.user.username} and the comment` });
    const [onComment, onPost] = await alice.caller.notifications.list();
    expect(onComment).toMatchObject({
      type: 'mention',
      username: bob.user.username,
      snippet: `@${alice.user.username} and the comment`,
    });
    // On one line: line breaks and runs of spaces fold into one space.
    expect(onPost).toMatchObject({
      type: 'mention',
      snippet: `Hey @${alice.user.username}, look at this cube`,
    });
  });

  it('a mention in a post behind a content warning shows the warning, not the text; one’s own post shows its text', async () => {
    const alice = await createMember(db.orm);
    const bob = await createMember(db.orm);
    const { post } = await bob.caller.posts.create({
      content: `The ending, @${alice.user.username}: the cube was a cube`,
      contentWarning: 'Spoilers',
    });
    const [mention] = await alice.caller.notifications.list();
    expect(mention).toMatchObject({ type: 'mention', snippet: 'Content warning: Spoilers' });
    await alice.caller.posts.like({ postId: post.id });
    const [like] = await bob.caller.notifications.list();
    expect(like).toMatchObject({
      type: 'like',
      snippet: `The ending, @${alice.user.username}: the cube was a cube`,
    });
  });

  it('cuts a long snippet after a word, with an ellipsis, and never inside an emoji', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'short' });
    await fan.caller.comments.create({ postId: post.id, content: `${'word '.repeat(60)}end` });
    await fan.caller.comments.create({ postId: post.id, content: '🧊'.repeat(200) });
    const [emoji, words] = await author.caller.notifications.list();
    expect(words!.snippet!.endsWith('word…')).toBe(true);
    expect(Array.from(words!.snippet!).length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH);
    expect(emoji!.snippet).toBe(`${'🧊'.repeat(SNIPPET_MAX_LENGTH - 1)}…`);
  });

  it('shows no snippet of what is out of sight: a removed post or comment, a blocked post author', async () => {
    const alice = await createMember(db.orm);
    const bob = await createMember(db.orm);
    const carol = await createMember(db.orm);
    const { post: removedPost } = await bob.caller.posts.create({ content: `gone @${alice.user.username}` });
    const { post: carolsPost } = await carol.caller.posts.create({ content: 'carol speaks' });
    await bob.caller.comments.create({
      postId: carolsPost.id,
      content: `@${alice.user.username} under carol's post`,
    });
    const { post: kept } = await bob.caller.posts.create({ content: `kept @${alice.user.username}` });
    const removedComment = await bob.caller.comments.create({
      postId: kept.id,
      content: `removed comment @${alice.user.username}`,
    });
    const em = db.orm.em.fork();
    await em.execute('update posts set removed_at = now() where id = ?', [removedPost.id]);
    await em.execute('update comments set removed_at = now() where id = ?', [removedComment.id]);
    await alice.caller.safety.block({ userId: carol.user.id });
    const list = await alice.caller.notifications.list();
    const snippets = (postId: string) => list.filter((n) => n.postId === postId).map((n) => n.snippet);
    expect(snippets(removedPost.id)).toEqual([null]);
    // bob's mention under the post of carol, whom alice blocked: carol's post is out of her sight.
    expect(snippets(carolsPost.id)).toEqual([null]);
    // The removed comment says nothing; the post it was under still shows.
    expect(snippets(kept.id)).toEqual([null, `kept @${alice.user.username}`]);
  });
});

describe('opening one notification (issue #46)', () => {
  it('marks it read, and only it: the count drops by one and the bell hears it', async () => {
    const me = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const other = await createMember(db.orm);
    const { post } = await me.caller.posts.create({ content: 'open me' });
    await fan.caller.posts.like({ postId: post.id });
    await fan.caller.comments.create({ postId: post.id, content: 'first' });
    expect(await me.caller.notifications.unreadCount()).toEqual({ count: 2 });
    const [comment, like] = await me.caller.notifications.list();

    const heard = me.ctx.bus.subscribe('notifications', { key: me.user.id });
    const next = heard[Symbol.asyncIterator]().next();
    expect(await me.caller.notifications.markRead({ id: comment!.id })).toEqual({ ok: true, updated: 1 });
    expect((await next).value).toEqual({ recipientId: me.user.id });

    expect(await me.caller.notifications.unreadCount()).toEqual({ count: 1 });
    const after = await me.caller.notifications.list();
    expect(after.map((n) => [n.id, n.isRead])).toEqual([
      [comment!.id, true],
      [like!.id, false],
    ]);
    // Opening it again changes nothing.
    expect(await me.caller.notifications.markRead({ id: comment!.id })).toEqual({ ok: true, updated: 0 });

    // Someone else's, or none at all: 404, and nothing changes.
    await expectCode(
      other.caller.notifications.markRead({ id: like!.id }),
      'NOT_FOUND',
      'Notification not found',
    );
    await expectCode(me.caller.notifications.markRead({ id: 'not-a-uuid' }), 'NOT_FOUND');
    await expectCode(visitor(db.orm).notifications.markRead({ id: like!.id }), 'UNAUTHORIZED');
    expect(await me.caller.notifications.unreadCount()).toEqual({ count: 1 });
  });

  it('two openings racing: the one that waited on the row lock finds it read (updated 0, no second bell)', async () => {
    const me = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await me.caller.posts.create({ content: 'race me' });
    await fan.caller.posts.like({ postId: post.id });
    const [like] = await me.caller.notifications.list();

    let second: Promise<unknown> | undefined;
    // The first opening holds the row's lock (its transaction is still open) while the second
    // starts: the second must wait for it, then see the row as read, under READ COMMITTED.
    await db.orm.em.fork().transactional(async (em) => {
      await em.execute('update notifications set read_at = now() where id = ? and read_at is null', [
        like!.id,
      ]);
      second = me.caller.notifications.markRead({ id: like!.id });
      // A poll on the server's state: the second opening waits on the row's lock.
      await vi.waitFor(async () => expect(await countRows(WAITING_ON_A_LOCK, [])).toBeGreaterThan(0), {
        timeout: 60_000,
      });
    });
    expect(await second).toEqual({ ok: true, updated: 0 });
    expect(await me.caller.notifications.unreadCount()).toEqual({ count: 0 });
  });
});

const WAITING_ON_A_LOCK =
  "select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%update notifications t set read_at%'";

describe('the notifications page (issue #46)', () => {
  it('pages newest first, all or mentions only, without repeats', async () => {
    const me = await createMember(db.orm);
    const fans = await Promise.all(Array.from({ length: 5 }, () => createMember(db.orm)));
    const { post } = await me.caller.posts.create({ content: 'talk to me' });
    for (const fan of fans) await fan.caller.comments.create({ postId: post.id, content: 'hi' });
    for (const fan of fans.slice(0, 3)) {
      await fan.caller.posts.create({ content: `hi @${me.user.username}` });
    }
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof me.caller.notifications.page>> =
        await me.caller.notifications.page({
          limit: 3,
          cursor,
        });
      all.push(...page.items.map((n) => n.type));
      cursor = page.nextCursor;
    } while (cursor);
    expect(all).toEqual([
      'mention',
      'mention',
      'mention',
      'comment',
      'comment',
      'comment',
      'comment',
      'comment',
    ]);

    const mentions = await me.caller.notifications.page({ filter: 'mentions', limit: 2 });
    expect(mentions.items.map((n) => n.type)).toEqual(['mention', 'mention']);
    const rest = await me.caller.notifications.page({
      filter: 'mentions',
      limit: 2,
      cursor: mentions.nextCursor,
    });
    expect(rest.items.map((n) => n.type)).toEqual(['mention']);
    expect(rest.nextCursor).toBeNull();
    expect(rest.items[0]!.snippet).toBe(`hi @${me.user.username}`);

    await expectCode(
      me.caller.notifications.page({ cursor: 'bm90LWEtY3Vyc29y' }),
      'BAD_REQUEST',
      'Invalid cursor',
    );
    await expectCode(visitor(db.orm).notifications.page({}), 'UNAUTHORIZED');
  });
});

describe('a removal and an ended poll, in words the client chooses (issue #50)', () => {
  it('a removal says what was removed and the reason as written; an ended poll whether it was one’s own', async () => {
    const mod = await createMember(db.orm);
    await setRole(db.orm.em.fork(), mod.user.username, 'moderator');
    const author = await createMember(db.orm);
    const voter = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'a post' });
    const comment = await voter.caller.comments.create({ postId: post.id, content: 'rude' });
    const reason = 'Spam.\nReason: twice — <b>ünïcode</b> 🚫';
    const { id: reportId } = await author.caller.reports.create({
      targetType: 'comment',
      targetId: comment.id,
      reason: 'rude',
    });
    await mod.caller.moderation.remove({ reportId, reason });
    const [removed] = await voter.caller.notifications.list();
    expect(removed).toMatchObject({
      type: 'removal',
      removal: { item: 'comment', reason },
      poll: null,
      postId: post.id,
      // Older clients' line, in English, as before.
      message: `removed your comment. Reason: ${reason}`,
    });

    const { post: polled } = await author.caller.posts.create({
      content: 'tea or coffee?',
      poll: { options: ['tea', 'coffee'], expiresInMinutes: 60 } as never,
    });
    // Another voter: the first one's list is kept a second (member-reads.ts), and this bus tells no cache.
    const other = await createMember(db.orm);
    await other.caller.polls.vote({ postId: polled.id, choices: [0] });
    await setPollExpiry(db.orm.em.fork(), polled.id, new Date(Date.now() - 1_000));
    await announcePollEnd(
      { fork: () => db.orm.em.fork(), bus: { publish: async () => {} } as never },
      polled.id,
    );
    const own = (await author.caller.notifications.list()).find((n) => n.type === 'poll_ended');
    expect(own).toMatchObject({ poll: { own: true }, removal: null, postId: polled.id });
    const voted = (await other.caller.notifications.list()).find((n) => n.type === 'poll_ended');
    expect(voted).toMatchObject({ poll: { own: false }, removal: null, postId: polled.id });
  });

  it('reads a removal’s note back, and nothing out of a note in another shape', () => {
    for (const item of ['post', 'comment', 'message'] as const) {
      expect(removalOf(removalNote(item, 'Off topic. Reason: none'))).toEqual({
        item,
        reason: 'Off topic. Reason: none',
      });
    }
    expect(removalOf('removed your content')).toBeNull();
    expect(removalOf('removed your user. Reason: x')).toBeNull();
    expect(removalOf(null)).toBeNull();
  });
});
