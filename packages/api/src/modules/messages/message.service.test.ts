import { describe, expect, it } from 'vitest';
import {
  createMember,
  expectCode,
  publicObject,
  UNKNOWN_ID,
  useDatabase,
  visitor,
} from '../../../test/harness.js';
import { NOT_ACCEPTING } from './message.service.js';

const db = useDatabase();

describe('messages.send', () => {
  it('stores a message and shows it in both threads and conversation lists', async () => {
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    const sent = await a.caller.messages.send({ receiverId: b.user.id, content: '  hello 🧊  ' });
    expect(sent).toMatchObject({
      senderId: a.user.id,
      receiverId: b.user.id,
      content: 'hello 🧊',
      readAt: null,
    });
    const [convA] = await a.caller.messages.conversations();
    expect(convA).toMatchObject({
      userId: b.user.id,
      lastMessage: 'hello 🧊',
      lastMessageMine: true,
      unread: 0,
    });
    const [convB] = await b.caller.messages.conversations();
    expect(convB).toMatchObject({
      userId: a.user.id,
      username: a.user.username,
      unread: 1,
      lastMessageMine: false,
    });
    expect(await b.caller.messages.unreadCount()).toEqual({ count: 1 });
    // Reading the thread only reads (a GET changes nothing): markRead marks it read.
    const thread = await b.caller.messages.thread({ userId: a.user.id });
    expect(thread.items.map((m) => m.content)).toEqual(['hello 🧊']);
    expect(thread.items[0]!.readAt).toBeNull();
    expect(await b.caller.messages.unreadCount()).toEqual({ count: 1 });
    expect((await b.caller.messages.conversations())[0]!.unread).toBe(1);
    expect((await a.caller.messages.thread({ userId: b.user.id })).items[0]!.readAt).toBeNull();
    expect(await b.caller.messages.markRead({ userId: a.user.id })).toEqual({ ok: true, updated: 1 });
    expect(await b.caller.messages.unreadCount()).toEqual({ count: 0 });
    expect((await b.caller.messages.conversations())[0]!.unread).toBe(0);
    expect((await a.caller.messages.thread({ userId: b.user.id })).items[0]!.readAt).toBeInstanceOf(Date);
  });

  it('refuses blank, too long, yourself, unknown users and visitors', async () => {
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    await expectCode(
      a.caller.messages.send({ receiverId: b.user.id, content: '   ' }),
      'BAD_REQUEST',
      'Message cannot be empty',
    );
    await expectCode(
      a.caller.messages.send({ receiverId: b.user.id, content: 'x'.repeat(2001) }),
      'BAD_REQUEST',
      'Message must be at most 2000 characters',
    );
    await a.caller.messages.send({ receiverId: b.user.id, content: 'x'.repeat(2000) });
    await expectCode(
      a.caller.messages.send({ receiverId: b.user.id, content: 'a\u0000b' }),
      'BAD_REQUEST',
      'Message contains characters that are not allowed',
    );
    await expectCode(
      a.caller.messages.send({ receiverId: a.user.id, content: 'me' }),
      'BAD_REQUEST',
      'You cannot message yourself',
    );
    await expectCode(
      a.caller.messages.send({ receiverId: UNKNOWN_ID, content: 'hi' }),
      'NOT_FOUND',
      'User not found',
    );
    await expectCode(
      a.caller.messages.send({ receiverId: 'nope', content: 'hi' }),
      'NOT_FOUND',
      'User not found',
    );
    await expectCode(visitor(db.orm).messages.send({ receiverId: b.user.id, content: 'hi' }), 'UNAUTHORIZED');
    await expectCode(visitor(db.orm).messages.conversations(), 'UNAUTHORIZED');
    await expectCode(a.caller.messages.thread({ userId: UNKNOWN_ID }), 'NOT_FOUND', 'User not found');
    await expectCode(
      a.caller.messages.send({ receiverId: b.user.id, content: 'hi', clientId: 'c'.repeat(65) }),
      'BAD_REQUEST',
      'Client id must be 1 to 64 characters',
    );
    await expectCode(
      a.caller.messages.send({ receiverId: b.user.id, content: 'hi', clientId: '' }),
      'BAD_REQUEST',
      'Client id must be 1 to 64 characters',
    );
  });

  it('stores a send retried with the same clientId once', async () => {
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    const c = await createMember(db.orm);
    const clientId = 'local-🧊-1';
    const [first, second] = await Promise.all([
      a.caller.messages.send({ receiverId: b.user.id, content: 'once', clientId }),
      a.caller.messages.send({ receiverId: b.user.id, content: 'once', clientId }),
    ]);
    expect(second.id).toBe(first.id);
    const third = await a.caller.messages.send({ receiverId: b.user.id, content: 'once', clientId });
    expect(third.id).toBe(first.id);
    const seenByB = (await b.caller.messages.thread({ userId: a.user.id })).items;
    expect(seenByB).toHaveLength(1);
    // The clientId is the sender's: the receiver does not get it.
    expect(first.clientId).toBe(clientId);
    expect(seenByB[0]!.clientId).toBeNull();
    expect((await a.caller.messages.thread({ userId: b.user.id })).items[0]!.clientId).toBe(clientId);
    // Another sender may use the same clientId.
    const other = await c.caller.messages.send({ receiverId: b.user.id, content: 'once', clientId });
    expect(other.id).not.toBe(first.id);
    await expectCode(
      a.caller.messages.send({ receiverId: c.user.id, content: 'elsewhere', clientId }),
      'CONFLICT',
    );
  });

  it('shows no avatar across a block either way or of a suspended member, as their profile shows none', async () => {
    const withAvatar = async () => {
      const m = await createMember(db.orm);
      await m.caller.users.setProfileImage({ objectPath: await publicObject(db.orm, m.user.id) });
      return { ...m, avatarUrl: (await m.caller.settings.get()).avatarUrl };
    };
    const blocker = await withAvatar();
    const blocked = await withAvatar();
    const suspended = await withAvatar();
    const reader = await withAvatar();
    await blocked.caller.messages.send({ receiverId: blocker.user.id, content: 'before the block' });
    await suspended.caller.messages.send({ receiverId: reader.user.id, content: 'before the suspension' });
    await blocker.caller.safety.block({ userId: blocked.user.id });
    await db.orm.em
      .fork()
      .execute('update users set suspended_at = now(), suspended_until = null where id = ?', [
        suspended.user.id,
      ]);

    for (const [viewer, peer] of [
      [blocked, blocker],
      [blocker, blocked],
      [reader, suspended],
    ] as const) {
      expect(peer.avatarUrl).toMatch(/^\/objects\//);
      expect(await viewer.caller.messages.peer({ userId: peer.user.id })).toMatchObject({ avatarUrl: null });
      const [conversation] = await viewer.caller.messages.conversations();
      expect(conversation).toMatchObject({ userId: peer.user.id, avatarUrl: null });
      expect(
        (await viewer.caller.users.byUsername({ username: peer.user.username })).user.avatarUrl,
      ).toBeNull();
    }
    // Anyone else still sees them.
    expect((await reader.caller.messages.peer({ userId: blocker.user.id })).avatarUrl).toBe(
      blocker.avatarUrl,
    );
  });

  it('refuses starting a conversation with a member blocked either way or suspended, and the picker offers none of them (issue #46)', async () => {
    const me = await createMember(db.orm, { username: `pick_me_${Date.now() % 100000}` });
    const prefix = `pk${Date.now() % 100000}`;
    const open = await createMember(db.orm, { username: `${prefix}_open` });
    const blockedByMe = await createMember(db.orm, { username: `${prefix}_blockedbyme` });
    const blocksMe = await createMember(db.orm, { username: `${prefix}_blocksme` });
    const suspended = await createMember(db.orm, { username: `${prefix}_suspended` });
    await me.caller.safety.block({ userId: blockedByMe.user.id });
    await blocksMe.caller.safety.block({ userId: me.user.id });
    await db.orm.em
      .fork()
      .execute('update users set suspended_at = now(), suspended_until = null where id = ?', [
        suspended.user.id,
      ]);

    const offered = await me.caller.mentions.suggest({ q: prefix });
    expect(offered.users.map((u) => u.username)).toEqual([open.user.username]);

    for (const peer of [blockedByMe, blocksMe, suspended]) {
      await expectCode(
        me.caller.messages.send({ receiverId: peer.user.id, content: 'hello?' }),
        'FORBIDDEN',
        NOT_ACCEPTING,
      );
      expect((await me.caller.messages.peer({ userId: peer.user.id })).canMessage).toBe(false);
    }
    expect(await me.caller.messages.send({ receiverId: open.user.id, content: 'hello!' })).toMatchObject({
      content: 'hello!',
    });
  });

  it('follows messagesFrom: everyone, following, nobody; whoever I wrote to may answer', async () => {
    const shy = await createMember(db.orm);
    const friend = await createMember(db.orm);
    const stranger = await createMember(db.orm);
    expect((await shy.caller.settings.get()).messagesFrom).toBe('everyone');
    await shy.caller.settings.update({ messagesFrom: 'following' });
    expect((await shy.caller.settings.get()).messagesFrom).toBe('following');
    await shy.caller.follows.follow({ userId: friend.user.id });
    await friend.caller.messages.send({ receiverId: shy.user.id, content: 'hi, I am followed' });
    await expectCode(
      stranger.caller.messages.send({ receiverId: shy.user.id, content: 'hi' }),
      'FORBIDDEN',
      'This user does not accept messages from you',
    );
    await expectCode(stranger.caller.messages.typing({ userId: shy.user.id }), 'FORBIDDEN');
    expect(await stranger.caller.messages.peer({ userId: shy.user.id })).toMatchObject({
      userId: shy.user.id,
      username: shy.user.username,
      canMessage: false,
    });
    expect((await friend.caller.messages.peer({ userId: shy.user.id })).canMessage).toBe(true);
    await expectCode(stranger.caller.messages.peer({ userId: UNKNOWN_ID }), 'NOT_FOUND');
    await shy.caller.settings.update({ messagesFrom: 'nobody' });
    await expectCode(friend.caller.messages.send({ receiverId: shy.user.id, content: 'again' }), 'FORBIDDEN');
    // Shy wrote to the stranger: the stranger may answer, whatever the setting.
    await shy.caller.messages.send({ receiverId: stranger.user.id, content: 'hello you' });
    await stranger.caller.messages.send({ receiverId: shy.user.id, content: 'hello back' });
    await expectCode(
      // biome-ignore lint/suspicious/noExplicitAny: a client that ignores the types
      shy.caller.settings.update({ messagesFrom: 'friends' as any }),
      'BAD_REQUEST',
      "messagesFrom must be 'everyone', 'following' or 'nobody'",
    );
    // Left out, it is left unchanged.
    await shy.caller.settings.update({ bio: 'quiet' });
    expect((await shy.caller.settings.get()).messagesFrom).toBe('nobody');
  });

  it('counts against the directMessage bucket', async () => {
    const hits: string[] = [];
    const target = await createMember(db.orm);
    const me = await createMember(
      db.orm,
      {},
      {
        rateLimit: async (bucket, key) => {
          hits.push(`${bucket}:${key}`);
          return { allowed: false, retryAfterSeconds: 5 };
        },
      },
    );
    await expectCode(
      me.caller.messages.send({ receiverId: target.user.id, content: 'hi' }),
      'TOO_MANY_REQUESTS',
    );
    expect(hits).toEqual([`directMessage:user:${me.user.id}`]);
  });
});

describe('messages.thread', () => {
  it('pages from the newest back, each page oldest first, with nothing repeated or missed', async () => {
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    for (let i = 0; i < 7; i++) {
      const [from, to] = i % 2 ? [b, a] : [a, b];
      await from.caller.messages.send({ receiverId: to.user.id, content: `m${i}` });
    }
    const first = await a.caller.messages.thread({ userId: b.user.id, limit: 3 });
    expect(first.items.map((m) => m.content)).toEqual(['m4', 'm5', 'm6']);
    const second = await a.caller.messages.thread({ userId: b.user.id, limit: 3, cursor: first.nextCursor });
    expect(second.items.map((m) => m.content)).toEqual(['m1', 'm2', 'm3']);
    const third = await a.caller.messages.thread({ userId: b.user.id, limit: 3, cursor: second.nextCursor });
    expect(third.items.map((m) => m.content)).toEqual(['m0']);
    expect(third.nextCursor).toBeNull();
    await expectCode(
      a.caller.messages.thread({ userId: b.user.id, cursor: 'bogus' }),
      'BAD_REQUEST',
      'Invalid cursor',
    );
    // Another member's thread with b shows none of this.
    const c = await createMember(db.orm);
    expect((await c.caller.messages.thread({ userId: b.user.id })).items).toEqual([]);
    expect(await c.caller.messages.conversations()).toEqual([]);
  });

  it('lists conversations newest first with per-conversation unread counts', async () => {
    const me = await createMember(db.orm);
    const x = await createMember(db.orm);
    const y = await createMember(db.orm);
    await x.caller.messages.send({ receiverId: me.user.id, content: 'from x 1' });
    await x.caller.messages.send({ receiverId: me.user.id, content: 'from x 2' });
    await y.caller.messages.send({ receiverId: me.user.id, content: 'from y' });
    let list = await me.caller.messages.conversations();
    expect(list.map((c) => [c.userId, c.lastMessage, c.unread])).toEqual([
      [y.user.id, 'from y', 1],
      [x.user.id, 'from x 2', 2],
    ]);
    await me.caller.messages.send({ receiverId: x.user.id, content: 'to x' });
    list = await me.caller.messages.conversations();
    expect(list.map((c) => [c.userId, c.lastMessage, c.unread])).toEqual([
      [x.user.id, 'to x', 2],
      [y.user.id, 'from y', 1],
    ]);
    expect(await me.caller.messages.markRead({ userId: x.user.id })).toEqual({ ok: true, updated: 2 });
    expect(await me.caller.messages.unreadCount()).toEqual({ count: 1 });
    await expectCode(me.caller.messages.markRead({ userId: UNKNOWN_ID }), 'NOT_FOUND');
  });
});
