import { describe, expect, it } from 'vitest';
import { createMember, expectCode, type Member, useDatabase, visitor } from '../../../test/harness.js';

const db = useDatabase();

async function follow(who: Member, ...whom: Member[]): Promise<void> {
  for (const m of whom) await who.caller.follows.follow({ userId: m.user.id });
}

describe('users.suggestions', () => {
  it('puts members followed by those you follow first (most shared first), then members who posted lately', async () => {
    const me = await createMember(db.orm);
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    const x = await createMember(db.orm);
    const y = await createMember(db.orm);
    const poster = await createMember(db.orm);
    await follow(me, a, b);
    await follow(a, x, y, me);
    await follow(b, x);
    await poster.caller.posts.create({ content: 'posted lately' });

    const { items } = await me.caller.users.suggestions({ limit: 20 });
    const ids = items.map((s) => s.id);
    expect(ids.slice(0, 2)).toEqual([x.user.id, y.user.id]);
    expect(items[0]).toMatchObject({ reason: 'followed', followedBy: 2, username: x.user.username });
    expect(items[1]).toMatchObject({ reason: 'followed', followedBy: 1 });
    expect(items.find((s) => s.id === poster.user.id)).toMatchObject({ reason: 'active', followedBy: 0 });
    // Never me, nor whom I follow.
    expect(ids).not.toContain(me.user.id);
    expect(ids).not.toContain(a.user.id);
    expect(ids).not.toContain(b.user.id);
    expect(new Set(ids).size).toBe(ids.length);

    // Following one takes them out at once.
    await follow(me, x);
    expect((await me.caller.users.suggestions({ limit: 20 })).items.map((s) => s.id)).not.toContain(
      x.user.id,
    );
    // The limit holds.
    expect((await me.caller.users.suggestions({ limit: 1 })).items).toHaveLength(1);
  });

  it('never suggests anyone blocked either way, muted or suspended', async () => {
    const me = await createMember(db.orm);
    const friend = await createMember(db.orm);
    const iBlocked = await createMember(db.orm);
    const blockedMe = await createMember(db.orm);
    const muted = await createMember(db.orm);
    const suspended = await createMember(db.orm);
    const fine = await createMember(db.orm);
    await follow(me, friend);
    await follow(friend, iBlocked, blockedMe, muted, suspended, fine);
    for (const m of [iBlocked, blockedMe, muted, suspended, fine])
      await m.caller.posts.create({ content: 'hi' });
    const before = (await me.caller.users.suggestions({ limit: 20 })).items.map((s) => s.id);
    for (const m of [iBlocked, blockedMe, muted, suspended, fine]) expect(before).toContain(m.user.id);

    await me.caller.safety.block({ userId: iBlocked.user.id });
    await blockedMe.caller.safety.block({ userId: me.user.id });
    await me.caller.safety.mute({ userId: muted.user.id });
    await db.orm.em
      .fork()
      .execute('update users set suspended_at = now(), suspended_until = null where id = ?', [
        suspended.user.id,
      ]);
    const after = (await me.caller.users.suggestions({ limit: 20 })).items.map((s) => s.id);
    expect(after).toContain(fine.user.id);
    for (const m of [iBlocked, blockedMe, muted, suspended]) expect(after).not.toContain(m.user.id);
    // Nor to a visitor: the suspended member is out for everyone.
    const forVisitor = (await visitor(db.orm).users.suggestions({ limit: 20 })).items;
    expect(forVisitor.map((s) => s.id)).not.toContain(suspended.user.id);
    expect(forVisitor.every((s) => s.reason === 'active')).toBe(true);
  });

  it('refuses bad limits and wrong types', async () => {
    const me = await createMember(db.orm);
    await expectCode(me.caller.users.suggestions({ limit: 0 }), 'BAD_REQUEST');
    await expectCode(me.caller.users.suggestions({ limit: 21 }), 'BAD_REQUEST');
    // biome-ignore lint/suspicious/noExplicitAny: a wrong type on purpose
    await expectCode(me.caller.users.suggestions({ limit: 'x' as any }), 'BAD_REQUEST');
    expect((await me.caller.users.suggestions()).items.length).toBeLessThanOrEqual(5);
  });
});
