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
import type { LivePostChange } from '../posts/post.schema.js';
import { livePostChanges } from '../posts/post-changes.service.js';
import { setRole } from './moderation.access.js';

const db = useDatabase();

async function moderator(): Promise<Member> {
  const m = await createMember(db.orm);
  expect(await setRole(db.orm.em.fork(), m.user.username.toUpperCase(), 'moderator')).toEqual({
    username: m.user.username,
    role: 'moderator',
  });
  return m;
}

async function reportOf(
  reporter: Member,
  targetType: 'post' | 'comment' | 'message' | 'user',
  targetId: string,
) {
  return (await reporter.caller.reports.create({ targetType, targetId, reason: `about ${targetType}` })).id;
}

describe('moderator-only access', () => {
  it('answers 404 to members and visitors on every procedure, and serves moderators', async () => {
    const member = await createMember(db.orm);
    const reportId = '00000000-0000-4000-8000-000000000000';
    for (const caller of [member.caller, visitor(db.orm)]) {
      await expectCode(caller.moderation.reports({}), 'NOT_FOUND', 'Not found');
      await expectCode(caller.moderation.log({}), 'NOT_FOUND', 'Not found');
      await expectCode(caller.moderation.dismiss({ reportId }), 'NOT_FOUND', 'Not found');
      await expectCode(caller.moderation.remove({ reportId, reason: 'x' }), 'NOT_FOUND', 'Not found');
      await expectCode(
        caller.moderation.suspend({ userId: member.user.id, days: 1, reason: 'x' }),
        'NOT_FOUND',
        'Not found',
      );
      await expectCode(caller.moderation.unsuspend({ userId: member.user.id, reason: 'x' }), 'NOT_FOUND');
    }
    const mod = await moderator();
    await expect(mod.caller.moderation.reports({})).resolves.toMatchObject({ items: expect.any(Array) });
    // Taking the role back closes the page again.
    await setRole(db.orm.em.fork(), mod.user.username, 'member');
    await expectCode(mod.caller.moderation.reports({}), 'NOT_FOUND');
    expect(await setRole(db.orm.em.fork(), 'nobody_by_that_name', 'moderator')).toBeNull();
  });
});

describe('the open-reports queue', () => {
  it('lists open reports oldest first with the item in context, and pages', async () => {
    const mod = await moderator();
    const author = await createMember(db.orm);
    const reporter = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'the post' });
    const comment = await author.caller.comments.create({ postId: post.id, content: 'the comment' });
    await reporter.caller.messages.send({ receiverId: author.user.id, content: 'hi there' });
    const message = await author.caller.messages.send({
      receiverId: reporter.user.id,
      content: 'the message',
    });
    await reportOf(reporter, 'post', post.id);
    await reportOf(reporter, 'comment', comment.id);
    await reportOf(reporter, 'message', message.id);
    await reportOf(reporter, 'user', author.user.id);

    const mine = (await mod.caller.moderation.reports({ limit: 50 })).items.filter(
      (r) => r.targetUser.id === author.user.id,
    );
    expect(mine.map((r) => r.targetType)).toEqual(['post', 'comment', 'message', 'user']);
    const [p, c, m, u] = mine;
    expect(p!.reporter.username).toBe(reporter.user.username);
    expect(p!.reason).toBe('about post');
    expect(p!.openReportsOnItem).toBe(1);
    expect(p!.context).toEqual([
      expect.objectContaining({ kind: 'post', content: 'the post', reported: true }),
    ]);
    expect(c!.context.map((e) => [e.kind, e.content, e.reported])).toEqual([
      ['post', 'the post', false],
      ['comment', 'the comment', true],
    ]);
    expect(m!.context.map((e) => [e.username, e.content, e.reported])).toEqual([
      [reporter.user.username, 'hi there', false],
      [author.user.username, 'the message', true],
    ]);
    expect(u!.context).toEqual([expect.objectContaining({ kind: 'profile', reported: true })]);

    const first = await mod.caller.moderation.reports({ limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    const second = await mod.caller.moderation.reports({ limit: 1, cursor: first.nextCursor });
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
  });
});

describe('moderation actions', () => {
  it('dismiss closes the report and writes the audit log; a second action is 409', async () => {
    const mod = await moderator();
    const author = await createMember(db.orm);
    const reporter = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'fine post' });
    const reportId = await reportOf(reporter, 'post', post.id);
    const { entry } = await mod.caller.moderation.dismiss({ reportId, note: 'not against the rules' });
    expect(entry).toMatchObject({
      action: 'dismiss',
      moderatorUsername: mod.user.username,
      targetType: 'post',
      targetId: post.id,
      targetUsername: author.user.username,
      note: 'not against the rules',
    });
    const open = await mod.caller.moderation.reports({ limit: 50 });
    expect(open.items.map((r) => r.id)).not.toContain(reportId);
    await expectCode(
      mod.caller.moderation.dismiss({ reportId }),
      'CONFLICT',
      'This report is already closed',
    );
    await expectCode(mod.caller.moderation.remove({ reportId, reason: 'x' }), 'CONFLICT');
    await expectCode(
      mod.caller.moderation.dismiss({ reportId: '00000000-0000-4000-8000-000000000000' }),
      'NOT_FOUND',
      'Report not found',
    );
    // The post is untouched.
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.content).toBe('fine post');
    const log = await mod.caller.moderation.log({});
    expect(log.items[0]).toEqual(entry);
  });

  it('remove hides a post everywhere, keeps the row, closes every report of it and tells the author why', async () => {
    const mod = await moderator();
    const author = await createMember(db.orm);
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'zanzibarish offensive words' });
    await a.caller.posts.like({ postId: post.id });
    const reportId = await reportOf(a, 'post', post.id);
    const other = await reportOf(b, 'post', post.id);
    expect((await visitor(db.orm).search.query({ q: 'zanzibarish' })).posts).toHaveLength(1);

    const { entry } = await mod.caller.moderation.remove({ reportId, reason: 'Hate speech' });
    expect(entry).toMatchObject({
      action: 'remove',
      note: 'Hate speech',
      targetUsername: author.user.username,
    });

    await expectCode(visitor(db.orm).posts.byId({ postId: post.id }), 'NOT_FOUND');
    const feed = await visitor(db.orm).posts.feed({ limit: 50 });
    expect(feed.items.map((p) => p.id)).not.toContain(post.id);
    expect((await author.caller.users.posts({ userId: author.user.id })).items).toEqual([]);
    expect((await visitor(db.orm).users.stats({ userId: author.user.id })).postsCount).toBe(0);
    expect((await visitor(db.orm).search.query({ q: 'zanzibarish' })).posts).toEqual([]);
    await expectCode(visitor(db.orm).comments.list({ postId: post.id }), 'NOT_FOUND');
    await expectCode(b.caller.posts.like({ postId: post.id }), 'NOT_FOUND');
    await expectCode(b.caller.comments.create({ postId: post.id, content: 'hm' }), 'NOT_FOUND');
    await expectCode(
      b.caller.reports.create({ targetType: 'post', targetId: post.id, reason: 'again' }),
      'NOT_FOUND',
    );

    // Hidden, not deleted.
    const [row] = await db.orm.em
      .fork()
      .execute<{ removed_at: Date | null }[]>('select removed_at from posts where id = ?', [post.id]);
    expect(row!.removed_at).not.toBeNull();
    // Both reports of the post are closed by the one decision.
    const statuses = await db.orm.em
      .fork()
      .execute<{ id: string; status: string }[]>('select id, status from reports where id in (?, ?)', [
        reportId,
        other,
      ]);
    expect(statuses.map((s) => s.status)).toEqual(['removed', 'removed']);

    const notes = await author.caller.notifications.list();
    expect(notes[0]).toMatchObject({
      type: 'removal',
      username: 'Moderators',
      userAvatar: null,
      message: 'removed your post. Reason: Hate speech',
      removal: { item: 'post', reason: 'Hate speech' },
      postId: post.id,
      isRead: false,
    });
    // The moderator is never named to the author.
    expect(JSON.stringify(notes)).not.toContain(mod.user.username);
  });

  it('tells open feeds live: a removed post is dropped, a removed comment reloads its post', async () => {
    const bus = createMemoryEventBus();
    const mod = await createMember(db.orm, {}, { bus });
    await setRole(db.orm.em.fork(), mod.user.username, 'moderator');
    const author = await createMember(db.orm, {}, { bus });
    const watcher = await createMember(db.orm, {}, { bus });
    const { post } = await author.caller.posts.create({ content: 'to be removed' });
    const { post: kept } = await author.caller.posts.create({ content: 'kept' });
    const comment = await watcher.caller.comments.create({ postId: kept.id, content: 'rude' });
    const controller = new AbortController();
    const seen: LivePostChange[] = [];
    const done = (async () => {
      for await (const change of livePostChanges(watcher.ctx, controller.signal)) seen.push(change);
    })();
    await mod.caller.moderation.remove({
      reportId: await reportOf(watcher, 'post', post.id),
      reason: 'Spam',
    });
    const other = await createMember(db.orm);
    await mod.caller.moderation.remove({
      reportId: await reportOf(other, 'comment', comment.id),
      reason: 'Rude',
    });
    const end = Date.now() + 2000;
    while (seen.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await done;
    expect(seen).toEqual([
      { postId: post.id, kind: 'deleted' },
      { postId: kept.id, kind: 'comments' },
    ]);
  });

  it('remove hides a comment and keeps the post’s comment count exact', async () => {
    const mod = await moderator();
    const author = await createMember(db.orm);
    const commenter = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'a post' });
    await commenter.caller.comments.create({ postId: post.id, content: 'kind words' });
    const bad = await commenter.caller.comments.create({ postId: post.id, content: 'nasty words' });
    const reportId = await reportOf(author, 'comment', bad.id);
    await mod.caller.moderation.remove({ reportId, reason: 'Harassment' });
    const comments = await visitor(db.orm).comments.list({ postId: post.id });
    expect(comments.items.map((c) => c.content)).toEqual(['kind words']);
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.commentsCount).toBe(1);
    expect((await commenter.caller.notifications.list())[0]).toMatchObject({
      type: 'removal',
      message: 'removed your comment. Reason: Harassment',
      removal: { item: 'comment', reason: 'Harassment' },
      postId: post.id,
    });
  });

  it('remove hides a direct message from both members and from the unread count', async () => {
    const mod = await moderator();
    const sender = await createMember(db.orm);
    const receiver = await createMember(db.orm);
    await sender.caller.messages.send({ receiverId: receiver.user.id, content: 'hello' });
    const bad = await sender.caller.messages.send({ receiverId: receiver.user.id, content: 'threat' });
    expect((await receiver.caller.messages.unreadCount()).count).toBe(2);
    const reportId = await reportOf(receiver, 'message', bad.id);
    await mod.caller.moderation.remove({ reportId, reason: 'Threats' });
    for (const [me, peer] of [
      [receiver, sender],
      [sender, receiver],
    ] as const) {
      const thread = await me.caller.messages.thread({ userId: peer.user.id });
      expect(thread.items.map((m) => m.content)).toEqual(['hello']);
      const conversations = await me.caller.messages.conversations();
      expect(conversations.find((c) => c.userId === peer.user.id)?.lastMessage).toBe('hello');
    }
    expect((await sender.caller.notifications.list())[0]).toMatchObject({
      type: 'removal',
      message: 'removed your message. Reason: Threats',
      removal: { item: 'message', reason: 'Threats' },
      postId: null,
    });
  });

  it('a member report cannot be answered by removing; needs a reason', async () => {
    const mod = await moderator();
    const target = await createMember(db.orm);
    const reporter = await createMember(db.orm);
    const reportId = await reportOf(reporter, 'user', target.user.id);
    await expectCode(
      mod.caller.moderation.remove({ reportId, reason: 'x' }),
      'BAD_REQUEST',
      'A member cannot be removed; suspend them instead',
    );
    await expectCode(
      mod.caller.moderation.remove({ reportId, reason: '  ' }),
      'BAD_REQUEST',
      'Give a reason',
    );
  });
});

describe('suspension', () => {
  async function login(email: string) {
    return callerFor(db.orm).caller.auth.login({ email, password: 'correct horse battery' });
  }

  async function registered() {
    const username = `sus${Math.random().toString(36).slice(2, 9)}`;
    const email = `${username}@example.com`;
    const { caller, jar } = callerFor(db.orm);
    const { user } = await caller.auth.register({
      username,
      email,
      password: 'correct horse battery',
      displayName: 'Sus',
    });
    return { id: user.id, username, email, jar };
  }

  it('ends every session at once, refuses login until it ends, and closes reports of the member', async () => {
    const mod = await moderator();
    const reporter = await createMember(db.orm);
    const member = await registered();
    await login(member.email);
    const sessions = () =>
      db.orm.em
        .fork()
        .execute<{ n: number }[]>('select count(*)::int as n from sessions where user_id = ?', [member.id]);
    expect((await sessions())[0]!.n).toBe(2);
    const reportId = await reportOf(reporter, 'user', member.id);
    const { entry } = await mod.caller.moderation.suspend({
      userId: member.id,
      reportId,
      days: 7,
      reason: 'Spam',
    });
    expect(entry).toMatchObject({ action: 'suspend', targetUsername: member.username, note: 'Spam' });
    expect(entry.suspendedUntil!.getTime() - entry.createdAt.getTime()).toBe(7 * 24 * 60 * 60 * 1000);
    expect((await sessions())[0]!.n).toBe(0);
    await expectCode(login(member.email), 'FORBIDDEN');
    const open = await mod.caller.moderation.reports({ limit: 50 });
    expect(open.items.map((r) => r.id)).not.toContain(reportId);

    // After the period, logging in works again.
    const later = new Date(Date.now() + 8 * 24 * 60 * 60 * 1000);
    const { caller } = callerFor(db.orm, { token: null }, { now: () => later });
    await expect(
      caller.auth.login({ email: member.email, password: 'correct horse battery' }),
    ).resolves.toMatchObject({ user: { id: member.id } });
  });

  it('for ever, until a moderator lifts it; the wrong password still says only "invalid"', async () => {
    const mod = await moderator();
    const member = await registered();
    await mod.caller.moderation.suspend({ userId: member.id, days: null, reason: 'Ban evasion' });
    await expectCode(login(member.email), 'FORBIDDEN', 'This account has been suspended');
    await expectCode(
      callerFor(db.orm).caller.auth.login({ email: member.email, password: 'wrong password!!' }),
      'UNAUTHORIZED',
      'Invalid email or password',
    );
    const far = new Date(Date.now() + 50 * 365 * 24 * 60 * 60 * 1000);
    await expectCode(
      callerFor(db.orm, { token: null }, { now: () => far }).caller.auth.login({
        email: member.email,
        password: 'correct horse battery',
      }),
      'FORBIDDEN',
    );
    const { entry } = await mod.caller.moderation.unsuspend({ userId: member.id, reason: 'Appeal accepted' });
    expect(entry.action).toBe('unsuspend');
    await expect(login(member.email)).resolves.toMatchObject({ user: { id: member.id } });
    await expectCode(
      mod.caller.moderation.unsuspend({ userId: member.id, reason: 'again' }),
      'CONFLICT',
      'This member is not suspended',
    );
  });

  it('refuses to suspend oneself, a moderator, an unknown member, or with a report about someone else', async () => {
    const mod = await moderator();
    const other = await moderator();
    const member = await createMember(db.orm);
    const bystander = await createMember(db.orm);
    await expectCode(
      mod.caller.moderation.suspend({ userId: mod.user.id, days: 1, reason: 'x' }),
      'BAD_REQUEST',
      'You cannot suspend yourself',
    );
    await expectCode(
      mod.caller.moderation.suspend({ userId: other.user.id, days: 1, reason: 'x' }),
      'BAD_REQUEST',
      'A moderator cannot be suspended',
    );
    await expectCode(
      mod.caller.moderation.suspend({ userId: '00000000-0000-4000-8000-000000000000', days: 1, reason: 'x' }),
      'NOT_FOUND',
      'User not found',
    );
    const reportId = await reportOf(member, 'user', bystander.user.id);
    await expectCode(
      mod.caller.moderation.suspend({ userId: member.user.id, reportId, days: 1, reason: 'x' }),
      'BAD_REQUEST',
      'That report is about someone else',
    );
    for (const days of [0, 3651, 1.5]) {
      await expectCode(
        mod.caller.moderation.suspend({ userId: member.user.id, days, reason: 'x' }),
        'BAD_REQUEST',
      );
    }
  });
});
