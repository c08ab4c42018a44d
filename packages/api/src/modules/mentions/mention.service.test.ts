import { describe, expect, it } from 'vitest';
import { createMember, expectCode, type Member, useDatabase, visitor } from '../../../test/harness.js';

const db = useDatabase();

async function mentionNotes(member: Member) {
  return (await member.caller.notifications.list()).filter((n) => n.type === 'mention');
}

async function suspend(userId: string) {
  await db.orm.em
    .fork()
    .getConnection()
    .execute(`update users set suspended_at = now() where id = ?`, [userId]);
}

describe('mentions in posts', () => {
  it('links existing members case-insensitively and notifies them once, as "mentioned you"', async () => {
    const alice = await createMember(db.orm);
    const bob = await createMember(db.orm);
    const upper = bob.user.username.toUpperCase();
    const { post } = await alice.caller.posts.create({
      content: `hi @${upper} and @nobody_here_zz and @${alice.user.username}`,
    });
    expect(post.mentions).toEqual(
      [
        { id: bob.user.id, username: bob.user.username },
        { id: alice.user.id, username: alice.user.username },
      ].sort((a, b) => (a.username < b.username ? -1 : 1)),
    );
    const notes = await mentionNotes(bob);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      username: alice.user.username,
      message: 'mentioned you',
      postId: post.id,
    });
    // Mentioning oneself notifies nobody.
    expect(await mentionNotes(alice)).toHaveLength(0);
    // Every read carries them.
    const read = await visitor(db.orm).posts.byId({ postId: post.id });
    expect(read.post.mentions.map((m) => m.id).sort()).toEqual([alice.user.id, bob.user.id].sort());
    const page = await visitor(db.orm).users.posts({ userId: alice.user.id });
    expect(page.items[0]?.mentions).toHaveLength(2);
  });

  it('notifies at most 10 members per post', async () => {
    const author = await createMember(db.orm);
    const many = await Promise.all(Array.from({ length: 12 }, () => createMember(db.orm)));
    const { post } = await author.caller.posts.create({
      content: many.map((m) => `@${m.user.username}`).join(' '),
    });
    expect(post.mentions).toHaveLength(10);
    const notified = await Promise.all(many.map(async (m) => (await mentionNotes(m)).length));
    expect(notified.reduce((a, b) => a + b, 0)).toBe(10);
    // Edits that swap mentions never bring the post past 10 notified.
    await author.caller.posts.edit({
      postId: post.id,
      content: many
        .slice(10)
        .map((m) => `@${m.user.username}`)
        .join(' '),
    });
    const after = await Promise.all(many.map(async (m) => (await mentionNotes(m)).length));
    expect(after.reduce((a, b) => a + b, 0)).toBe(10);
  });

  it('an edit notifies only the newly mentioned, and never twice', async () => {
    const alice = await createMember(db.orm);
    const bob = await createMember(db.orm);
    const carol = await createMember(db.orm);
    const { post } = await alice.caller.posts.create({ content: `hello @${bob.user.username}` });
    const edited = await alice.caller.posts.edit({
      postId: post.id,
      content: `hello @${bob.user.username} and @${carol.user.username}`,
    });
    expect(edited.post.mentions.map((m) => m.id).sort()).toEqual([bob.user.id, carol.user.id].sort());
    expect(await mentionNotes(bob)).toHaveLength(1);
    expect(await mentionNotes(carol)).toHaveLength(1);
    // Unmention and mention again: still one each.
    await alice.caller.posts.edit({ postId: post.id, content: 'hello nobody' });
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.mentions).toEqual([]);
    await alice.caller.posts.edit({ postId: post.id, content: `back @${carol.user.username}` });
    expect(await mentionNotes(carol)).toHaveLength(1);
  });

  it('no notification when a block stands either way or the member muted the author', async () => {
    const author = await createMember(db.orm);
    const blocker = await createMember(db.orm);
    const blocked = await createMember(db.orm);
    const muter = await createMember(db.orm);
    await blocker.caller.safety.block({ userId: author.user.id });
    await author.caller.safety.block({ userId: blocked.user.id });
    await muter.caller.safety.mute({ userId: author.user.id });
    await author.caller.posts.create({
      content: `@${blocker.user.username} @${blocked.user.username} @${muter.user.username}`,
    });
    expect(await mentionNotes(blocker)).toHaveLength(0);
    expect(await mentionNotes(blocked)).toHaveLength(0);
    expect(await mentionNotes(muter)).toHaveLength(0);
  });

  it('a suspended member is neither linked nor notified', async () => {
    const author = await createMember(db.orm);
    const gone = await createMember(db.orm);
    const reader = await createMember(db.orm);
    await suspend(gone.user.id);
    const { post } = await author.caller.posts.create({ content: `@${gone.user.username}` });
    expect(post.mentions).toEqual([]);
    await author.caller.posts.create({ content: `@${reader.user.username}` });
    expect(await mentionNotes(reader)).toHaveLength(1);
  });
});

describe('mentions in comments', () => {
  it('links and notifies; not when blocked by the post author either', async () => {
    const poster = await createMember(db.orm);
    const commenter = await createMember(db.orm);
    const friend = await createMember(db.orm);
    const shut = await createMember(db.orm);
    await poster.caller.safety.block({ userId: shut.user.id });
    const { post } = await poster.caller.posts.create({ content: 'a post' });
    const comment = await commenter.caller.comments.create({
      postId: post.id,
      content: `look @${friend.user.username} @${shut.user.username}`,
    });
    expect(comment.mentions.map((m) => m.id).sort()).toEqual([friend.user.id, shut.user.id].sort());
    expect(await mentionNotes(friend)).toHaveLength(1);
    expect(await mentionNotes(shut)).toHaveLength(0);
    const thread = await visitor(db.orm).comments.list({ postId: post.id });
    expect(thread.items[0]?.mentions).toHaveLength(2);
  });
});

describe('mentions.suggest', () => {
  it('offers followed members first, never blocked either way or suspended ones', async () => {
    const me = await createMember(db.orm);
    const tag = `sg${Math.random().toString(36).slice(2, 6)}`;
    const a = await createMember(db.orm, { username: `${tag}_a` });
    const b = await createMember(db.orm, { username: `${tag}_b` });
    const c = await createMember(db.orm, { username: `${tag}_c` });
    const d = await createMember(db.orm, { username: `${tag}_d` });
    const e = await createMember(db.orm, { username: `${tag}_e` });
    await me.caller.follows.follow({ userId: c.user.id });
    await d.caller.safety.block({ userId: me.user.id });
    await suspend(e.user.id);
    const { users } = await me.caller.mentions.suggest({ q: tag.toUpperCase() });
    expect(users.map((u) => u.username)).toEqual([c.user.username, a.user.username, b.user.username]);
    expect(users[0]?.isFollowing).toBe(true);
    // Empty: only followees.
    expect((await me.caller.mentions.suggest({ q: '' })).users.map((u) => u.id)).toEqual([c.user.id]);
    // % and _ are not wildcards.
    expect((await me.caller.mentions.suggest({ q: '%' }).catch(() => null))?.users ?? []).toEqual([]);
    await expectCode(me.caller.mentions.suggest({ q: 'a'.repeat(31) }), 'BAD_REQUEST');
    await expectCode(me.caller.mentions.suggest({ q: 'x\u0000' }), 'BAD_REQUEST');
    await expectCode(visitor(db.orm).mentions.suggest({ q: 'a' }), 'UNAUTHORIZED');
  });
});
