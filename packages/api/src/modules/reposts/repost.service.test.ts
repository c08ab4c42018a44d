/**
 * Reposts: the toggle (idempotent, exact counts under concurrent toggles, the author's
 * notification), the Following feed (a repost brings the post to the reposter's followers, once,
 * under the newest repost; paging neither repeats nor skips), a profile's Posts tab, and every
 * rule that hides a post (blocks either way, mutes, suspensions, removals).
 */
import { describe, expect, it } from 'vitest';
import {
  createMember,
  expectCode,
  type Member,
  UNKNOWN_ID,
  useDatabase,
  visitor,
} from '../../../test/harness.js';
import { setRole } from '../moderation/moderation.access.js';
import type { PostDto } from '../posts/post.schema.js';
import { POST_NOT_FOUND } from '../posts/post.service.js';

const db = useDatabase();

/** The whole Following feed of `member`, page by page, as [content, reposter's username]. */
async function following(member: Member, limit = 2): Promise<[string, string | null][]> {
  const all: PostDto[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: PostDto[]; nextCursor: string | null } = await member.caller.posts.feed({
      scope: 'following',
      limit,
      cursor,
    });
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all.map((p) => [p.content, p.repostedBy?.username ?? null]);
}

async function moderator(): Promise<Member> {
  const m = await createMember(db.orm);
  await setRole(db.orm.em.fork(), m.user.username, 'moderator');
  return m;
}

describe('reposts.add and reposts.remove', () => {
  it('are idempotent, count exactly, and tell the author once', async () => {
    const author = await createMember(db.orm);
    const fan = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'pass it on' });
    expect(post).toMatchObject({ repostsCount: 0, isReposted: false, repostedBy: null, pinned: false });

    expect(await fan.caller.reposts.add({ postId: post.id })).toEqual({ reposted: true, repostsCount: 1 });
    expect(await fan.caller.reposts.add({ postId: post.id })).toEqual({ reposted: true, repostsCount: 1 });
    expect((await fan.caller.posts.byId({ postId: post.id })).post).toMatchObject({
      repostsCount: 1,
      isReposted: true,
    });
    expect((await author.caller.posts.byId({ postId: post.id })).post.isReposted).toBe(false);
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.isReposted).toBe(false);

    const notes = await author.caller.notifications.list();
    const reposts = notes.filter((n) => n.type === 'repost');
    expect(reposts).toHaveLength(1);
    expect(reposts[0]).toMatchObject({
      username: fan.user.username,
      message: 'reposted your post',
      postId: post.id,
      snippet: 'pass it on',
    });

    expect(await fan.caller.reposts.remove({ postId: post.id })).toEqual({
      reposted: false,
      repostsCount: 0,
    });
    expect(await fan.caller.reposts.remove({ postId: post.id })).toEqual({
      reposted: false,
      repostsCount: 0,
    });
    expect((await author.caller.notifications.list()).some((n) => n.type === 'repost')).toBe(false);

    // One's own post: counted, nobody told.
    expect(await author.caller.reposts.add({ postId: post.id })).toEqual({ reposted: true, repostsCount: 1 });
    expect((await author.caller.notifications.list()).some((n) => n.type === 'repost')).toBe(false);
  });

  it('keep the count exact under concurrent toggles', async () => {
    const author = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'popular' });
    const fans = await Promise.all(Array.from({ length: 12 }, () => createMember(db.orm)));
    // Each fan reposts twice at once; half of them then take it back twice at once.
    await Promise.all(fans.flatMap((f) => [0, 1].map(() => f.caller.reposts.add({ postId: post.id }))));
    await Promise.all(
      fans.slice(0, 6).flatMap((f) => [0, 1].map(() => f.caller.reposts.remove({ postId: post.id }))),
    );
    expect((await author.caller.posts.byId({ postId: post.id })).post.repostsCount).toBe(6);
    const rows = (await db.orm.em
      .fork()
      .execute('select count(*)::int as n from reposts where post_id = ?', [post.id])) as { n: number }[];
    expect(rows[0]?.n).toBe(6);
  });

  it('refuse visitors, and answer 404 for unknown, hostile and hidden posts', async () => {
    const me = await createMember(db.orm);
    const author = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'x' });
    await expectCode(visitor(db.orm).reposts.add({ postId: post.id }), 'UNAUTHORIZED');
    for (const postId of [UNKNOWN_ID, 'not-a-uuid', post.id.replace(/.$/, 'z'), 'x'.repeat(100)]) {
      await expectCode(me.caller.reposts.add({ postId }), 'NOT_FOUND', POST_NOT_FOUND);
      await expectCode(me.caller.reposts.remove({ postId }), 'NOT_FOUND', POST_NOT_FOUND);
    }
    await expectCode(me.caller.reposts.add({ postId: 'x'.repeat(70_000) }), 'BAD_REQUEST');
    await expectCode(me.caller.reposts.add({ postId: `${post.id}\u0000` }), 'BAD_REQUEST');
    // A block either way.
    await author.caller.safety.block({ userId: me.user.id });
    await expectCode(me.caller.reposts.add({ postId: post.id }), 'NOT_FOUND', POST_NOT_FOUND);
    await author.caller.safety.unblock({ userId: me.user.id });
    await me.caller.safety.block({ userId: author.user.id });
    await expectCode(me.caller.reposts.add({ postId: post.id }), 'NOT_FOUND', POST_NOT_FOUND);
    await me.caller.safety.unblock({ userId: author.user.id });
    // A suspended author.
    const mod = await moderator();
    await mod.caller.moderation.suspend({ userId: author.user.id, days: 1, reason: 'spam' });
    await expectCode(me.caller.reposts.add({ postId: post.id }), 'NOT_FOUND', POST_NOT_FOUND);
  });
});

describe('reposts in the Following feed', () => {
  it("bring a post to the reposter's followers, once, under the newest repost", async () => {
    const reader = await createMember(db.orm);
    const alice = await createMember(db.orm, { username: `alice_${Date.now().toString(36)}` });
    const bob = await createMember(db.orm);
    const dan = await createMember(db.orm);
    await reader.caller.follows.follow({ userId: bob.user.id });
    await reader.caller.follows.follow({ userId: dan.user.id });

    const { post: fromAlice } = await alice.caller.posts.create({ content: 'by alice' });
    await reader.caller.posts.create({ content: 'mine' });
    await bob.caller.posts.create({ content: 'by bob' });
    expect(await following(reader)).toEqual([
      ['by bob', null],
      ['mine', null],
    ]);

    await bob.caller.reposts.add({ postId: fromAlice.id });
    expect(await following(reader)).toEqual([
      ['by alice', bob.user.username],
      ['by bob', null],
      ['mine', null],
    ]);
    const [first] = (await reader.caller.posts.feed({ scope: 'following', limit: 5 })).items;
    expect(first).toMatchObject({
      id: fromAlice.id,
      userId: alice.user.id,
      repostsCount: 1,
      repostedBy: { id: bob.user.id, username: bob.user.username },
    });

    // Dan reposts it too, later: it shows once, under Dan's.
    await dan.caller.posts.create({ content: 'by dan' });
    await dan.caller.reposts.add({ postId: fromAlice.id });
    expect(await following(reader, 1)).toEqual([
      ['by alice', dan.user.username],
      ['by dan', null],
      ['by bob', null],
      ['mine', null],
    ]);
    await dan.caller.reposts.remove({ postId: fromAlice.id });
    expect(await following(reader, 1)).toEqual([
      ['by dan', null],
      ['by alice', bob.user.username],
      ['by bob', null],
      ['mine', null],
    ]);
    // Bob takes his back: Alice's post is gone from the reader's feed (they do not follow her).
    await bob.caller.reposts.remove({ postId: fromAlice.id });
    expect(await following(reader)).toEqual([
      ['by dan', null],
      ['by bob', null],
      ['mine', null],
    ]);
  });

  it("show a followee's own post once, at another followee's repost of it", async () => {
    const reader = await createMember(db.orm);
    const bob = await createMember(db.orm);
    const dan = await createMember(db.orm);
    await reader.caller.follows.follow({ userId: bob.user.id });
    await reader.caller.follows.follow({ userId: dan.user.id });
    const { post } = await bob.caller.posts.create({ content: 'bob says' });
    await dan.caller.posts.create({ content: 'dan says' });
    await dan.caller.reposts.add({ postId: post.id });
    expect(await following(reader, 1)).toEqual([
      ['bob says', dan.user.username],
      ['dan says', null],
    ]);
  });

  it('never show a repost by or of someone hidden from the reader', async () => {
    const reader = await createMember(db.orm);
    const author = await createMember(db.orm);
    const reposter = await createMember(db.orm);
    const muted = await createMember(db.orm);
    await reader.caller.follows.follow({ userId: reposter.user.id });
    await reader.caller.follows.follow({ userId: muted.user.id });
    const { post } = await author.caller.posts.create({ content: 'travelling' });
    const { post: other } = await author.caller.posts.create({ content: 'second' });
    await reposter.caller.reposts.add({ postId: post.id });
    await muted.caller.reposts.add({ postId: other.id });
    expect(await following(reader)).toEqual([
      ['second', muted.user.username],
      ['travelling', reposter.user.username],
    ]);

    // A muted reposter's reposts go; so do a blocked author's posts, whoever reposted them.
    await reader.caller.safety.mute({ userId: muted.user.id });
    expect(await following(reader)).toEqual([['travelling', reposter.user.username]]);
    await author.caller.safety.block({ userId: reader.user.id });
    expect(await following(reader)).toEqual([]);
    await author.caller.safety.unblock({ userId: reader.user.id });
    expect(await following(reader)).toEqual([['travelling', reposter.user.username]]);

    // A removed post takes its reposts along.
    const reporter = await createMember(db.orm);
    const { id: reportId } = await reporter.caller.reports.create({
      targetType: 'post',
      targetId: post.id,
      reason: 'spam',
    });
    const mod = await moderator();
    await mod.caller.moderation.remove({ reportId, reason: 'spam' });
    expect(await following(reader)).toEqual([]);
    await expectCode(reposter.caller.reposts.add({ postId: post.id }), 'NOT_FOUND', POST_NOT_FOUND);

    // A suspended reposter's reposts go.
    await reposter.caller.reposts.add({ postId: other.id });
    expect(await following(reader)).toEqual([['second', reposter.user.username]]);
    await mod.caller.moderation.suspend({ userId: reposter.user.id, days: 1, reason: 'spam' });
    expect(await following(reader)).toEqual([]);
  });
});

describe("reposts on a member's profile", () => {
  it('list the member’s posts and reposts newest first, each with who reposted it', async () => {
    const member = await createMember(db.orm);
    const other = await createMember(db.orm);
    const viewer = await createMember(db.orm);
    const { post: theirs } = await other.caller.posts.create({ content: 'theirs' });
    await member.caller.posts.create({ content: 'own one' });
    await member.caller.reposts.add({ postId: theirs.id });
    await member.caller.posts.create({ content: 'own two' });
    const read = async (caller = viewer.caller, limit = 1) => {
      const all: PostDto[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: PostDto[]; nextCursor: string | null } = await caller.users.posts({
          userId: member.user.id,
          limit,
          cursor,
        });
        all.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return all.map((p) => [p.content, p.repostedBy?.id ?? null]);
    };
    expect(await read()).toEqual([
      ['own two', null],
      ['theirs', member.user.id],
      ['own one', null],
    ]);
    expect(await read(visitor(db.orm), 10)).toEqual(await read(viewer.caller, 10));
    // The viewer's own marks show on the profile's first page, kept for everyone.
    await viewer.caller.reposts.add({ postId: theirs.id });
    const page = await viewer.caller.users.posts({ userId: member.user.id, limit: 10 });
    expect(page.items.find((p) => p.id === theirs.id)?.isReposted).toBe(true);
    // A block between the viewer and the reposted author hides that post only.
    await other.caller.safety.block({ userId: viewer.user.id });
    expect(await read(viewer.caller, 10)).toEqual([
      ['own two', null],
      ['own one', null],
    ]);
    // A block with the member hides the whole list, their reposts included.
    await other.caller.safety.unblock({ userId: viewer.user.id });
    await member.caller.safety.block({ userId: viewer.user.id });
    expect(await read(viewer.caller, 10)).toEqual([]);
  });
});

describe('quote posts', () => {
  it('embed the quoted post one level deep, tell its author, and say when it is gone', async () => {
    const author = await createMember(db.orm);
    const quoter = await createMember(db.orm);
    const viewer = await createMember(db.orm);
    const long = `${'🧊'.repeat(299)}ab`;
    const { post: original } = await author.caller.posts.create({ content: long });
    const { post: quote } = await quoter.caller.posts.create({
      content: 'look at this',
      quotePostId: original.id,
    });
    expect(quote.quotePostId).toBe(original.id);
    expect(quote.quote).toMatchObject({ id: original.id, userId: author.user.id, imageUrl: null });
    // Cut at 300 characters (code points), with an ellipsis.
    expect(Array.from(quote.quote?.content ?? '')).toHaveLength(300);
    expect(quote.quote?.content.endsWith('…')).toBe(true);

    // A quote of a quote embeds only one level.
    const { post: outer } = await viewer.caller.posts.create({ content: 'and this', quotePostId: quote.id });
    expect(outer.quote).toMatchObject({ id: quote.id, content: 'look at this' });
    expect(outer.quote).not.toHaveProperty('quote');

    const notes = await author.caller.notifications.list();
    expect(notes.filter((n) => n.type === 'quote')).toEqual([
      expect.objectContaining({
        username: quoter.user.username,
        message: 'quoted your post',
        postId: quote.id,
      }),
    ]);

    // Hidden from a viewer by a block: unavailable to them only.
    await author.caller.safety.block({ userId: viewer.user.id });
    for (const read of [
      (await viewer.caller.posts.byId({ postId: quote.id })).post,
      (await viewer.caller.posts.feed({ limit: 50 })).items.find((p) => p.id === quote.id),
      (await viewer.caller.users.posts({ userId: quoter.user.id, limit: 10 })).items.find(
        (p) => p.id === quote.id,
      ),
    ]) {
      expect(read).toMatchObject({ quotePostId: original.id, quote: null });
    }
    expect((await visitor(db.orm).posts.byId({ postId: quote.id })).post.quote?.id).toBe(original.id);
    expect(
      (await visitor(db.orm).users.posts({ userId: quoter.user.id, limit: 10 })).items.find(
        (p) => p.id === quote.id,
      )?.quote?.id,
    ).toBe(original.id);
    // Deleted: unavailable to everyone.
    await author.caller.posts.delete({ postId: original.id });
    expect((await visitor(db.orm).posts.byId({ postId: quote.id })).post).toMatchObject({
      quotePostId: original.id,
      quote: null,
    });
  });

  it('refuse a quote of a post the author cannot see', async () => {
    const me = await createMember(db.orm);
    const blocker = await createMember(db.orm);
    const { post } = await blocker.caller.posts.create({ content: 'not for you' });
    await blocker.caller.safety.block({ userId: me.user.id });
    for (const quotePostId of [post.id, UNKNOWN_ID, 'nope', `${UNKNOWN_ID}\u0000`]) {
      await expectCode(
        me.caller.posts.create({ content: 'quoting', quotePostId }),
        'BAD_REQUEST',
        quotePostId.includes('\u0000') ? undefined : 'The post you quote is unavailable',
      );
    }
  });
});

describe('reposts in the Following feed of a member who follows many (the walk by time)', () => {
  it('show as the merge does: once, under the newest repost, paged without repeats', async () => {
    const reader = await createMember(db.orm);
    const author = await createMember(db.orm);
    const followees = await Promise.all(Array.from({ length: 100 }, () => createMember(db.orm)));
    const ids = `{${followees.map((f) => f.user.id).join(',')}}`;
    await db.orm.em
      .fork()
      .execute(
        `insert into follows (follower_id, followee_id, created_at) select ?, unnest(?::uuid[]), now()`,
        [reader.user.id, ids],
      );
    const [first, second] = followees as [Member, Member];
    const { post } = await author.caller.posts.create({ content: 'walked to' });
    await first.caller.posts.create({ content: 'by the first' });
    await first.caller.reposts.add({ postId: post.id });
    await second.caller.posts.create({ content: 'by the second' });
    await second.caller.reposts.add({ postId: post.id });
    expect(await following(reader, 1)).toEqual([
      ['walked to', second.user.username],
      ['by the second', null],
      ['by the first', null],
    ]);
  });
});
