import { describe, expect, it } from 'vitest';
import { createMember, expectCode, type Member, useDatabase, visitor } from '../../../test/harness.js';
import { forgetEverything } from '../../kept-reads.js';
import { liveTagPosts } from './tag.service.js';

const db = useDatabase();

const unique = () => `t${Math.random().toString(36).slice(2, 8)}`;

async function sql(query: string, params: unknown[] = []) {
  await db.orm.em.fork().getConnection().execute(query, params);
}

describe('tags on posts', () => {
  it('are folded on the answer and stored; an edit replaces them', async () => {
    const alice = await createMember(db.orm);
    const tag = unique();
    const { post } = await alice.caller.posts.create({ content: `#${tag.toUpperCase()} and #Ünï_${tag} #1` });
    expect(post.tags).toEqual([tag, `ünï_${tag}`]);
    const page = await visitor(db.orm).tags.posts({ tag: `#${tag.toUpperCase()}` });
    expect(page.items.map((p) => p.id)).toEqual([post.id]);
    expect(page.items[0]?.tags).toEqual([tag, `ünï_${tag}`]);
    await alice.caller.posts.edit({ postId: post.id, content: 'no tags now' });
    expect((await visitor(db.orm).tags.posts({ tag })).items).toEqual([]);
    expect(await visitor(db.orm).tags.summary({ tag })).toEqual({ tag, postsCount: 0, peopleCount: 0 });
  });

  it('pages newest first without repeats and counts posts and people', async () => {
    const tag = unique();
    const a = await createMember(db.orm);
    const b = await createMember(db.orm);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const who = i % 2 ? b : a;
      ids.push((await who.caller.posts.create({ content: `post ${i} #${tag}` })).post.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = await visitor(db.orm).tags.posts({
        tag,
        cursor,
        limit: 2,
      });
      seen.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect(await visitor(db.orm).tags.summary({ tag: tag.toUpperCase() })).toEqual({
      tag,
      postsCount: 5,
      peopleCount: 2,
    });
  });

  it('the tag page hides blocked either way, muted, removed and suspended', async () => {
    const tag = unique();
    const me = await createMember(db.orm);
    const blocked = await createMember(db.orm);
    const blocker = await createMember(db.orm);
    const muted = await createMember(db.orm);
    const suspended = await createMember(db.orm);
    const shown = await createMember(db.orm);
    const removed = await createMember(db.orm);
    for (const m of [blocked, blocker, muted, suspended, shown, removed]) {
      await m.caller.posts.create({ content: `#${tag} by ${m.user.username}` });
    }
    await me.caller.safety.block({ userId: blocked.user.id });
    await blocker.caller.safety.block({ userId: me.user.id });
    await me.caller.safety.mute({ userId: muted.user.id });
    await sql('update users set suspended_at = now() where id = ?', [suspended.user.id]);
    await sql('update posts set removed_at = now() where author_id = ?', [removed.user.id]);
    const mine = await me.caller.tags.posts({ tag });
    expect(mine.items.map((p) => p.userId)).toEqual([shown.user.id]);
    const anyone = await visitor(db.orm).tags.posts({ tag });
    expect(anyone.items.map((p) => p.userId).sort()).toEqual(
      [blocked.user.id, blocker.user.id, muted.user.id, shown.user.id].sort(),
    );
    expect(await visitor(db.orm).tags.summary({ tag })).toMatchObject({ postsCount: 4, peopleCount: 4 });
  });

  it('refuses what is no tag', async () => {
    const caller = visitor(db.orm);
    await expectCode(caller.tags.posts({ tag: '123' }), 'BAD_REQUEST');
    await expectCode(caller.tags.posts({ tag: 'a b' }), 'BAD_REQUEST');
    await expectCode(caller.tags.posts({ tag: 'x'.repeat(70_000) }), 'BAD_REQUEST');
    await expectCode(caller.tags.posts({ tag: 'a\u0000' }), 'BAD_REQUEST');
    await expectCode(caller.tags.posts({ tag: '' }), 'BAD_REQUEST');
    expect((await caller.tags.posts({ tag: '日本語' })).items).toEqual([]);
  });
});

describe('search for #tag', () => {
  it("answers the tag's newest posts, as the tag page shows them to the viewer", async () => {
    const tag = unique();
    const me = await createMember(db.orm);
    const other = await createMember(db.orm);
    const muted = await createMember(db.orm);
    await me.caller.safety.mute({ userId: muted.user.id });
    const { post } = await other.caller.posts.create({ content: `plain words #${tag}` });
    await muted.caller.posts.create({ content: `#${tag} muted` });
    const found = await me.caller.search.query({ q: `#${tag.toUpperCase()}` });
    expect(found.posts.map((p) => p.id)).toEqual([post.id]);
    expect(found.users).toEqual([]);
    expect((await visitor(db.orm).search.query({ q: `#${tag}` })).posts).toHaveLength(2);
  });
});

describe('trending tags', () => {
  it('ranks by distinct people in the last 24 hours, leaving out removed posts and suspended authors', async () => {
    const [hot, warm, spam, old] = [unique(), unique(), unique(), unique()];
    const people = await Promise.all(Array.from({ length: 6 }, () => createMember(db.orm)));
    // hot: 5 people; warm: 3 people; spam: 1 person, 8 posts; old: 6 people, two days ago.
    for (const p of people.slice(0, 5)) await p.caller.posts.create({ content: `#${hot}` });
    for (const p of people.slice(0, 3)) await p.caller.posts.create({ content: `#${warm}` });
    for (let i = 0; i < 8; i++) await people[5]?.caller.posts.create({ content: `#${spam} ${i}` });
    for (const p of people) await p.caller.posts.create({ content: `#${old}` });
    await sql(`update post_tags set created_at = now() - interval '2 days' where tag = ?`, [old]);
    // A removed post and a suspended member are not counted.
    await sql(
      `update posts set removed_at = now() where id = (select post_id from post_tags where tag = ? limit 1)`,
      [warm],
    );
    await sql('update users set suspended_at = now() where id = ?', [people[4]?.user.id]);
    const trending = await visitor(db.orm).tags.trending();
    const mine = trending.filter((t) => [hot, warm, spam, old].includes(t.tag));
    expect(mine).toEqual([
      { tag: hot, postsCount: 4, peopleCount: 4 },
      { tag: warm, postsCount: 2, peopleCount: 2 },
      { tag: spam, postsCount: 8, peopleCount: 1 },
    ]);
    expect(trending.length).toBeLessThanOrEqual(10);
  });
});

describe('trending tags for a member', () => {
  it('leaves out what a block either way or their mute adds, and ranks again; visitors see every count', async () => {
    const [shared, blockedOnly, mutedOnly] = [unique(), unique(), unique()];
    const me = await createMember(db.orm);
    const [blocked, blocker, muted, a, b] = (await Promise.all(
      Array.from({ length: 5 }, () => createMember(db.orm)),
    )) as [Member, Member, Member, Member, Member];
    // shared: 5 people; blockedOnly: 4 posts by the member I blocked; mutedOnly: the muted member and a.
    for (const m of [blocked, blocker, muted, a, b]) await m.caller.posts.create({ content: `#${shared}` });
    for (let i = 0; i < 4; i++) await blocked.caller.posts.create({ content: `#${blockedOnly} ${i}` });
    await muted.caller.posts.create({ content: `#${mutedOnly}` });
    await a.caller.posts.create({ content: `#${mutedOnly}` });
    await me.caller.safety.block({ userId: blocked.user.id });
    await blocker.caller.safety.block({ userId: me.user.id });
    await me.caller.safety.mute({ userId: muted.user.id });
    // The candidates are kept for 30 s and a new post does not drop them: start from a fresh read.
    forgetEverything(db.orm.em.getDriver());
    const mine = (await me.caller.tags.trending()).filter((t) =>
      [shared, blockedOnly, mutedOnly].includes(t.tag),
    );
    expect(mine).toEqual([
      { tag: shared, postsCount: 2, peopleCount: 2 },
      { tag: mutedOnly, postsCount: 1, peopleCount: 1 },
    ]);
    const anyone = (await visitor(db.orm).tags.trending()).filter((t) =>
      [shared, blockedOnly, mutedOnly].includes(t.tag),
    );
    expect(anyone).toEqual([
      { tag: shared, postsCount: 5, peopleCount: 5 },
      { tag: mutedOnly, postsCount: 2, peopleCount: 2 },
      { tag: blockedOnly, postsCount: 4, peopleCount: 1 },
    ]);
    // The blocked member does not see my side either: the block works both ways.
    const theirs = (await blocked.caller.tags.trending()).filter((t) => t.tag === shared);
    expect(theirs).toEqual([{ tag: shared, postsCount: 5, peopleCount: 5 }]);
    // An unblock shows it again at once (only the shared candidates are kept).
    await me.caller.safety.unblock({ userId: blocked.user.id });
    expect((await me.caller.tags.trending()).some((t) => t.tag === blockedOnly)).toBe(true);
  });
});

describe("a member's tag counts and tag search", () => {
  it('leave out what a block either way or their mute adds; a tag only they carry is not found', async () => {
    const base = unique();
    const me = await createMember(db.orm);
    const [blocked, blocker, muted, shown] = (await Promise.all(
      Array.from({ length: 4 }, () => createMember(db.orm)),
    )) as [Member, Member, Member, Member];
    for (const m of [blocked, blocker, muted, shown])
      await m.caller.posts.create({ content: `#${base}_all` });
    await blocked.caller.posts.create({ content: `#${base}_theirs` });
    await me.caller.safety.block({ userId: blocked.user.id });
    await blocker.caller.safety.block({ userId: me.user.id });
    await me.caller.safety.mute({ userId: muted.user.id });
    expect(await me.caller.tags.summary({ tag: `${base}_all` })).toEqual({
      tag: `${base}_all`,
      postsCount: 1,
      peopleCount: 1,
    });
    expect(await me.caller.tags.search({ q: base })).toEqual([
      { tag: `${base}_all`, postsCount: 1, peopleCount: 1 },
    ]);
    // Visitors, and the blocked member (who blocked nobody), count everyone.
    expect(await visitor(db.orm).tags.search({ q: base })).toEqual([
      { tag: `${base}_all`, postsCount: 4, peopleCount: 4 },
      { tag: `${base}_theirs`, postsCount: 1, peopleCount: 1 },
    ]);
    expect(await muted.caller.tags.summary({ tag: `${base}_all` })).toMatchObject({
      postsCount: 4,
      peopleCount: 4,
    });
  });
});

describe('the tag page, live', () => {
  it('hears new posts with the tag, not others, and not from a blocked member', async () => {
    const tag = unique();
    const viewer = await createMember(db.orm);
    const author = await createMember(db.orm);
    const blocked = await createMember(db.orm);
    await viewer.caller.safety.block({ userId: blocked.user.id });
    const controller = new AbortController();
    const live = liveTagPosts(viewer.ctx, tag, controller.signal);
    const next = live.next();
    await new Promise((r) => setTimeout(r, 50));
    await author.caller.posts.create({ content: 'untagged' });
    await blocked.caller.posts.create({ content: `#${tag} from blocked` });
    const { post } = await author.caller.posts.create({ content: `#${tag} hello` });
    const event = await next;
    expect(event.value).toMatchObject({ postId: post.id });
    controller.abort();
  });
});

describe('search finds tags by their start', () => {
  it('folds the query, ranks most people first, then posts, at most 5', async () => {
    const base = unique();
    const people = await Promise.all(Array.from({ length: 3 }, () => createMember(db.orm)));
    const [a, b, c] = people as [Member, Member, Member];
    for (const m of [a, b, c]) await m.caller.posts.create({ content: `#${base}_three` });
    for (const m of [a, b]) await m.caller.posts.create({ content: `#${base}_two` });
    for (let i = 0; i < 4; i++) await a.caller.posts.create({ content: `#${base}_busy ${i}` });
    for (const end of ['d', 'e', 'f']) await c.caller.posts.create({ content: `#${base}_${end}` });
    await a.caller.posts.create({ content: `#other${base}` });
    const expected = [
      { tag: `${base}_three`, postsCount: 3, peopleCount: 3 },
      { tag: `${base}_two`, postsCount: 2, peopleCount: 2 },
      { tag: `${base}_busy`, postsCount: 4, peopleCount: 1 },
      { tag: `${base}_d`, postsCount: 1, peopleCount: 1 },
      { tag: `${base}_e`, postsCount: 1, peopleCount: 1 },
    ];
    expect(await visitor(db.orm).tags.search({ q: `#${base.toUpperCase()}` })).toEqual(expected);
    expect(await a.caller.tags.search({ q: `  ${base}  ` })).toEqual(expected);
    expect(await visitor(db.orm).tags.search({ q: `${base}_T` })).toEqual(expected.slice(0, 2));
    expect(await visitor(db.orm).tags.search({ q: `${base}_three` })).toEqual(expected.slice(0, 1));
    expect(await visitor(db.orm).tags.search({ q: `${base}_threex` })).toEqual([]);
    // Any script, folded (NFKC, lower case) as the tag is stored.
    await a.caller.posts.create({ content: `#Ünï${base}Ｘ` });
    expect(await visitor(db.orm).tags.search({ q: `#ÜNÏ${base.toUpperCase()}` })).toEqual([
      { tag: `ünï${base}x`, postsCount: 1, peopleCount: 1 },
    ]);
  });

  it('leaves out removed posts and suspended authors: a tag only they carry is not listed', async () => {
    const base = unique();
    const shown = await createMember(db.orm);
    const suspended = await createMember(db.orm);
    const remover = await createMember(db.orm);
    await shown.caller.posts.create({ content: `#${base}_mixed` });
    const { post: gone } = await shown.caller.posts.create({ content: `#${base}_mixed again` });
    await suspended.caller.posts.create({ content: `#${base}_mixed #${base}_suspended` });
    await remover.caller.posts.create({ content: `#${base}_removed` });
    await sql('update users set suspended_at = now() where id = ?', [suspended.user.id]);
    await sql('update posts set removed_at = now() where author_id = ? or id = ?', [
      remover.user.id,
      gone.id,
    ]);
    expect(await visitor(db.orm).tags.search({ q: base })).toEqual([
      { tag: `${base}_mixed`, postsCount: 1, peopleCount: 1 },
    ]);
    // The same counts as the tag page's header.
    expect(await visitor(db.orm).tags.summary({ tag: `${base}_mixed` })).toEqual({
      tag: `${base}_mixed`,
      postsCount: 1,
      peopleCount: 1,
    });
  });

  it('counts only the first 20 tags of a prefix in code-point order: a later one needs more letters', async () => {
    const base = unique();
    const [a, b] = [await createMember(db.orm), await createMember(db.orm)];
    // 20 tags that sort first, each by one person; then the popular one, by two.
    const early = Array.from({ length: 20 }, (_, i) => `${base}a${String(i).padStart(2, '0')}`);
    await a.caller.posts.create({
      content: early
        .slice(0, 10)
        .map((t) => `#${t}`)
        .join(' '),
    });
    await a.caller.posts.create({
      content: early
        .slice(10)
        .map((t) => `#${t}`)
        .join(' '),
    });
    for (const m of [a, b]) await m.caller.posts.create({ content: `#${base}z` });
    const short = await visitor(db.orm).tags.search({ q: base });
    expect(short.map((t) => t.tag)).toEqual(early.slice(0, 5));
    expect(await visitor(db.orm).tags.search({ q: `${base}z` })).toEqual([
      { tag: `${base}z`, postsCount: 2, peopleCount: 2 },
    ]);
  });

  it('answers [] for what starts no tag, and a 400 for control characters, huge text and wrong types', async () => {
    const caller = visitor(db.orm);
    for (const q of [
      '',
      '   ',
      '#',
      '##x',
      'a b',
      'a-b',
      '🧊',
      'x'.repeat(65),
      '%',
      "'; drop table post_tags; --",
    ]) {
      expect(await caller.tags.search({ q }), q).toEqual([]);
    }
    await expectCode(caller.tags.search({ q: 'a\u0000' }), 'BAD_REQUEST');
    await expectCode(caller.tags.search({ q: 'a\u0007b' }), 'BAD_REQUEST');
    await expectCode(caller.tags.search({ q: 'x'.repeat(70_000) }), 'BAD_REQUEST');
    await expectCode(caller.tags.search({ q: 5 } as unknown as { q: string }), 'BAD_REQUEST');
    await expectCode(caller.tags.search({} as unknown as { q: string }), 'BAD_REQUEST');
  });
});
