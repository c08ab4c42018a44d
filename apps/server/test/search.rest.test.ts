import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import { it as withApp } from './fixtures.js';
import { newUserInput, registerUser, type TestApp } from './harness.js';

const it = withApp
  .extend('s', { scope: 'file' }, ({ appWith }) => appWith())
  .extend('limited', { scope: 'file' }, ({ appWith }) => appWith({ config: { rateLimitScale: 1 } }));
beforeAll(async () => {
  // The app's clock (Date) is the test's to move: a kept answer ages out when the test says, not
  // after a sleep. It runs on with real time meanwhile, a millisecond at a time (the default
  // 20 ms steps gave two posts written in a row one timestamp); timers stay real.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, advanceTimeDelta: 1 });
});
afterAll(() => {
  vi.useRealTimers();
});

interface Result {
  users: { id: string; username: string; displayName: string; highlights: string[]; isFollowing: boolean }[];
  posts: { id: string; content: string; highlights: string[]; isLiked: boolean; likesCount: number }[];
  aiMedia: { id: string; title: string; highlights: string[]; isFavorite: boolean }[];
}

async function post(t: TestApp, cookie: string, content: string, app = t): Promise<string> {
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/posts',
    headers: { cookie },
    payload: { content },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().post.id;
}

/**
 * `ids` newest first, as the server orders posts: by created_at, then id. Posts written in a
 * loop can share a millisecond, so the order they were written in is not enough.
 */
async function newestFirst(t: TestApp, ids: string[], app = t): Promise<string[]> {
  const rows = await app.orm.em
    .fork()
    .execute<{ id: string }[]>('select id from posts where id in (?) order by created_at desc, id desc', [
      ids,
    ]);
  return rows.map((r) => r.id);
}

async function find(t: TestApp, q: string, cookie?: string, app = t): Promise<Result> {
  const res = await app.app.inject({
    method: 'GET',
    url: `/api/search?q=${encodeURIComponent(q)}`,
    ...(cookie ? { headers: { cookie } } : {}),
  });
  expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
  return res.json();
}

const contents = (r: Result) => r.posts.map((p) => p.content);

let alice: Awaited<ReturnType<typeof registerUser>>;
let bob: Awaited<ReturnType<typeof registerUser>>;
let mediaId: string;

it.beforeAll(async ({ t }) => {
  alice = await registerUser(t.app, {
    ...newUserInput(),
    username: 'alice',
    email: 'alice.secret@example.com',
    displayName: 'Alice Cubeworth',
  });
  bob = await registerUser(t.app, { ...newUserInput(), username: 'bobby', displayName: 'Bob Ørsted' });
  await post(t, alice.cookie, 'We met at the café near the station');
  await post(t, alice.cookie, 'Running up that hill every morning');
  await post(t, bob.cookie, 'A zebrafish swims in the tank');
  await post(t, bob.cookie, 'The quick brown fox jumps');
  await post(t, bob.cookie, 'Brown quick dogs sleep');
  mediaId = randomUUID();
  await t.orm.em
    .fork()
    .execute(
      `insert into ai_media (id, type, title, image_url, width, height, creator_id) values (?, 'art', 'Neon Lighthouse at Dusk', '/objects/demo/a.png', 640, 480, ?)`,
      [mediaId, alice.user.id],
    );
});

describe('GET /api/search', () => {
  it('matches accents, stems, prefixes and highlights the matched words', async ({ t }) => {
    expect(contents(await find(t, 'cafe'))).toEqual(['We met at the café near the station']);
    expect(contents(await find(t, 'run'))).toEqual(['Running up that hill every morning']);
    const prefix = await find(t, 'zebraf');
    expect(contents(prefix)).toEqual(['A zebrafish swims in the tank']);
    expect(prefix.posts[0]!.highlights).toEqual(['zebrafish']);
    expect((await find(t, 'cafe')).posts[0]!.highlights).toEqual(['café']);
    const media = await find(t, 'lighthou');
    expect(media.aiMedia.map((m) => m.id)).toEqual([mediaId]);
    expect(media.aiMedia[0]!.highlights).toEqual(['Lighthouse']);
  });

  it('matches the start of a word where the stemmer changes what was typed ("wombaty" is not "wombati")', async ({
    t,
  }) => {
    await post(t, bob.cookie, 'Tag wombaty7x9 is my code name');
    await post(t, bob.cookie, 'Looking for babysitting tips');
    // Stemmed, "wombaty" would be "wombati" and "babys" "babi": neither starts those words (a word
    // with digits is kept whole; "babysitting" is "babysit").
    const typed = await find(t, 'wombaty');
    expect(contents(typed)).toEqual(['Tag wombaty7x9 is my code name']);
    expect(typed.posts[0]!.highlights).toEqual(['wombaty7x9']);
    expect(contents(await find(t, 'babys'))).toEqual(['Looking for babysitting tips']);
    // Every word of a query must still match, each either way; a stop word still drops out.
    expect(contents(await find(t, 'babys tips'))).toEqual(['Looking for babysitting tips']);
    expect(contents(await find(t, 'the babys'))).toEqual(['Looking for babysitting tips']);
    expect((await find(t, 'babys wombaty')).posts).toEqual([]);
  });

  it('forgives typos in posts, usernames and titles', async ({ t }) => {
    expect(contents(await find(t, 'zebrafsh'))).toEqual(['A zebrafish swims in the tank']);
    expect((await find(t, 'alcie')).users.map((u) => u.username)).toContain('alice');
    expect((await find(t, 'lighthuose')).aiMedia.map((m) => m.id)).toEqual([mediaId]);
    // Accents in names: "orsted" finds Ørsted.
    expect((await find(t, 'orsted')).users.map((u) => u.username)).toEqual(['bobby']);
  });

  it('supports phrases and exclusions', async ({ t }) => {
    expect(contents(await find(t, '"quick brown"'))).toEqual(['The quick brown fox jumps']);
    expect(contents(await find(t, 'quick -fox'))).toEqual(['Brown quick dogs sleep']);
    expect((await find(t, 'quick brown')).posts).toHaveLength(2);
    expect((await find(t, '-fox')).posts).toEqual([]);
  });

  it('finds no post for stop words alone, and ignores them beside a real word', async ({ t }) => {
    // Every post above holds "the" or "at", which the text search drops: no lexeme, no match.
    expect((await find(t, 'the')).posts).toEqual([]);
    expect((await find(t, 'at the')).posts).toEqual([]);
    expect(contents(await find(t, 'the station'))).toEqual(['We met at the café near the station']);
    expect(contents(await find(t, '"the tank"'))).toEqual(['A zebrafish swims in the tank']);
  });

  it('finds a new post at once and ranks liked posts first', async ({ t }) => {
    const older = await post(t, alice.cookie, 'kayaking trip was wonderful');
    vi.advanceTimersByTime(1); // newer, whatever the clock's step
    const newer = await post(t, bob.cookie, 'kayaking again today');
    expect((await find(t, 'kayaking')).posts.map((p) => p.id)).toEqual([newer, older]);
    expect((await find(t, 'kayaking', alice.cookie)).posts.map((p) => p.isLiked)).toEqual([false, false]);
    for (const cookie of [alice.cookie, bob.cookie]) {
      await t.app.inject({ method: 'POST', url: `/api/posts/${older}/like`, headers: { cookie } });
    }
    // A liker sees their like at once, counted, and the rank it is part of: the answers that show
    // a liked post read their posts again (search.cache.ts).
    const liked = await find(t, 'kayaking', alice.cookie);
    expect(liked.posts.map((p) => [p.id, p.isLiked, p.likesCount])).toEqual([
      [older, true, 2],
      [newer, false, 0],
    ]);
    expect((await find(t, 'kayaking')).posts[0]!.likesCount).toBe(2);
    // A repost is marked for its member and counted at once too.
    const repost = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${newer}/repost`,
      headers: { cookie: alice.cookie },
    });
    expect(repost.statusCode, repost.body).toBe(200);
    const reposted = (await find(t, 'kayaking', alice.cookie)).posts as (Result['posts'][number] & {
      isReposted: boolean;
      repostsCount: number;
    })[];
    expect(reposted.map((p) => [p.id, p.isReposted, p.repostsCount])).toEqual([
      [older, false, 0],
      [newer, true, 1],
    ]);
    // Alice's repost is hers alone: Bob's copy of the same kept answer counts it, unmarked.
    const asBob = (await find(t, 'kayaking', bob.cookie)).posts as typeof reposted;
    expect(asBob.map((p) => [p.id, p.isReposted, p.repostsCount])).toEqual([
      [older, false, 0],
      [newer, false, 1],
    ]);
    // A comment is counted at once for everyone.
    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${older}/comments`,
      headers: { cookie: bob.cookie },
      payload: { content: 'me too' },
    });
    expect(comment.statusCode, comment.body).toBe(201);
    const commented = (await find(t, 'kayaking')).posts as (Result['posts'][number] & {
      commentsCount: number;
    })[];
    expect(commented[0]!.commentsCount).toBe(1);
  });

  it('caps posts at 20, newest matches first, for a word in many posts', async ({ t }) => {
    const ids: string[] = [];
    for (let i = 0; i < 22; i += 1)
      ids.push(await post(t, i % 2 ? alice.cookie : bob.cookie, `marmalade number ${i}`));
    const found = await find(t, 'marmalade');
    expect(found.posts).toHaveLength(20);
    expect(found.posts.map((p) => p.id)).toEqual((await newestFirst(t, ids)).slice(0, 20));
    expect(found.posts.every((p) => p.highlights[0] === 'marmalade')).toBe(true);
  });

  it('gives the same answers whichever way the planner statistics send a query', async ({ t }) => {
    // With statistics, a word they count as rare skips the walk over the newest posts and asks
    // the index at once (estimatedShare in search.repository.ts); a common word still walks.
    const em = t.orm.em.fork();
    await em.execute('analyze posts');
    const [stats] = await em.execute<{ lexemes: string[] | null }[]>(
      `select most_common_elems::text::text[] as lexemes from pg_stats
        where schemaname = current_schema() and tablename = 'posts' and attname = 'search_vector'`,
    );
    expect(stats?.lexemes).toContain('marmalad');
    // Written after ANALYZE: the statistics have never seen it.
    const quokka = await post(t, bob.cookie, 'A quokka smiled at the camera');
    expect((await find(t, 'quokka')).posts.map((p) => p.id)).toEqual([quokka]);
    expect((await find(t, 'quok')).posts.map((p) => p.id)).toEqual([quokka]);
    expect((await find(t, 'quokka the')).posts.map((p) => p.id)).toEqual([quokka]);
    expect((await find(t, 'about the')).posts).toEqual([]);
    expect((await find(t, 'kumquat')).posts).toEqual([]);
    const marmalade = await find(t, 'marmalade numb');
    expect(marmalade.posts).toHaveLength(20);
    expect(marmalade.posts.every((p) => p.content.startsWith('marmalade number'))).toBe(true);
  });

  it('never returns an e-mail, even one that matches', async ({ t }) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/search?q=alice' });
    expect(res.body).not.toContain('@example.com');
    expect(res.body).not.toContain('email');
    expect((await find(t, 'secret')).users).toEqual([]);
  });

  it('answers hostile input with 200 and the right shape, and too long a query with 400', async ({ t }) => {
    const hostile = [
      '"',
      '\\',
      '%',
      '_',
      ':*',
      '&|!',
      "'; drop table users; --",
      'a:* & !b | c <-> d',
      '""""',
      '-',
      '-"',
      '🧊🔥 cubes',
      'שלום עולם',
      '%_%',
      'x'.repeat(200),
      'a '.repeat(100),
      '(((',
      "O'Reilly",
    ];
    for (const q of hostile) {
      const r = await find(t, q);
      expect(Object.keys(r).sort()).toEqual(['aiMedia', 'posts', 'users']);
    }
    const long = await t.app.inject({ method: 'GET', url: `/api/search?q=${'x'.repeat(1000)}` });
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('BAD_REQUEST');
    const control = await t.app.inject({ method: 'GET', url: '/api/search?q=a%00b' });
    expect(control.statusCode).toBe(400);
  });

  it('returns empty lists for an empty or blank query', async ({ t }) => {
    for (const url of ['/api/search', '/api/search?q=', '/api/search?q=%20%20%09']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ users: [], posts: [], aiMedia: [] });
    }
  });
});

describe('the shared answer (search.cache.ts)', () => {
  it('lays each viewer’s follows, likes and favourites over the shared answer, and keeps a blocker’s page full', async ({
    t,
    s,
  }) => {
    const dave = await registerUser(s.app, { ...newUserInput(), displayName: 'Dave Pomegranate' });
    const frank = await registerUser(s.app);
    const erin = await registerUser(s.app);
    const olderIds: string[] = [];
    for (let i = 0; i < 20; i += 1) olderIds.push(await post(t, frank.cookie, `pomegranate season ${i}`, s));
    const newerIds: string[] = [];
    for (let i = 0; i < 25; i += 1) newerIds.push(await post(t, dave.cookie, `pomegranate harvest ${i}`, s));
    const media = randomUUID();
    await s.orm.em
      .fork()
      .execute(
        `insert into ai_media (id, type, title, image_url, width, height, creator_id) values (?, 'art', 'Pomegranate still life', '/objects/demo/p.png', 640, 480, ?)`,
        [media, frank.user.id],
      );
    const call = (method: 'POST', url: string, cookie: string) =>
      s.app.inject({ method, url, headers: { cookie } });
    expect((await call('POST', `/api/users/${dave.user.id}/follow`, erin.cookie)).statusCode).toBe(200);
    expect((await call('POST', `/api/posts/${newerIds[24]}/like`, erin.cookie)).statusCode).toBe(200);
    expect((await call('POST', `/api/gallery/${media}/favorite`, erin.cookie)).statusCode).toBe(200);

    // One visitor's search fills the cache; the members' answers within the second come from it.
    const visitor = await find(t, 'pomegranate', undefined, s);
    const asErin = await find(t, 'pomegranate', erin.cookie, s);
    const asFrank = await find(t, 'pomegranate', frank.cookie, s);
    expect(asErin.posts.map((p) => p.id)).toEqual(visitor.posts.map((p) => p.id));
    const marks = (r: Result) => ({
      following: r.users.filter((u) => u.isFollowing).map((u) => u.id),
      liked: r.posts.filter((p) => p.isLiked).map((p) => p.id),
      favorited: r.aiMedia.filter((i) => i.isFavorite).map((i) => i.id),
    });
    expect(marks(visitor)).toEqual({ following: [], liked: [], favorited: [] });
    expect(marks(asErin)).toEqual({ following: [dave.user.id], liked: [newerIds[24]], favorited: [media] });
    expect(marks(asFrank)).toEqual({ following: [], liked: [], favorited: [] });
    // Erin's own copy is kept with the answer; an unfollow drops it at once.
    expect(marks(await find(t, 'pomegranate', erin.cookie, s)).following).toEqual([dave.user.id]);
    await s.app.inject({
      method: 'DELETE',
      url: `/api/users/${dave.user.id}/follow`,
      headers: { cookie: erin.cookie },
    });
    expect(marks(await find(t, 'pomegranate', erin.cookie, s)).following).toEqual([]);
    await s.app.inject({
      method: 'DELETE',
      url: `/api/gallery/${media}/favorite`,
      headers: { cookie: erin.cookie },
    });
    expect(marks(await find(t, 'pomegranate', erin.cookie, s)).favorited).toEqual([]);

    // A post written while the answer is cached is found at once, by visitors and members.
    const fresh = await post(t, dave.cookie, 'pomegranate just picked', s);
    expect((await find(t, 'pomegranate', undefined, s)).posts.map((p) => p.id)).toContain(fresh);
    expect((await find(t, 'pomegranate', erin.cookie, s)).posts.map((p) => p.id)).toContain(fresh);

    // Frank blocks Dave: every post of the shared answer is Dave's, yet Frank's page is full.
    expect((await call('POST', `/api/users/${dave.user.id}/block`, frank.cookie)).statusCode).toBe(200);
    await find(t, 'pomegranate', undefined, s); // the cache again holds Dave's 20 newest
    const blocked = await find(t, 'pomegranate', frank.cookie, s);
    expect(blocked.posts.map((p) => p.id)).toEqual(await newestFirst(t, olderIds, s));
    expect(blocked.posts.map((p) => p.id)).not.toContain(fresh);
    expect(blocked.users.map((u) => u.id)).not.toContain(dave.user.id);
  });

  it('merges a new post into the kept answer by rank, leaves out one that does not match, and reads again after an edit or a deletion', async ({
    t,
    s,
  }) => {
    const author = await registerUser(s.app);
    for (let i = 0; i < 12; i += 1) await post(t, author.cookie, `quince jelly number ${i}`, s);
    const ids = async (cookie?: string) => (await find(t, 'quince', cookie, s)).posts.map((p) => p.id);
    const before = await ids(); // kept now
    const unrelated = await post(t, author.cookie, 'a medlar instead', s);
    const fresh = await post(t, author.cookie, 'quince, quince and more quince', s);
    const merged = await ids();
    expect(merged[0]).toBe(fresh); // the newest, with the word three times: first
    expect(merged).not.toContain(unrelated);
    expect(merged.slice(1)).toEqual(before.slice(0, merged.length - 1));
    expect(await ids(author.cookie)).toEqual(merged);
    // Once the answer has aged out, a whole new search agrees with the merged one.
    vi.advanceTimersByTime(1_100);
    expect(await ids()).toEqual(merged);

    // An edit that drops the word, and a deletion, are read again at once.
    const edited = await s.app.inject({
      method: 'PATCH',
      url: `/api/posts/${fresh}`,
      headers: { cookie: author.cookie },
      payload: { content: 'medlar after all' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await ids()).not.toContain(fresh);
    const second = (await ids())[0]!;
    expect(
      (
        await s.app.inject({
          method: 'DELETE',
          url: `/api/posts/${second}`,
          headers: { cookie: author.cookie },
        })
      ).statusCode,
    ).toBe(200);
    expect(await ids()).not.toContain(second);
  });
});

describe('GET /api/search/suggestions', () => {
  it('suggests most-followed users but never yourself or whom you follow; trending posts; popular media', async ({
    t,
  }) => {
    const carol = await registerUser(t.app);
    // bobby gets two followers, alice one.
    for (const who of [alice, carol])
      await t.app.inject({
        method: 'POST',
        url: `/api/users/${bob.user.id}/follow`,
        headers: { cookie: who.cookie },
      });
    await t.app.inject({
      method: 'POST',
      url: `/api/users/${alice.user.id}/follow`,
      headers: { cookie: bob.cookie },
    });

    const visitor = (await t.app.inject({ method: 'GET', url: '/api/search/suggestions' })).json() as Result;
    expect(visitor.users.slice(0, 2).map((u) => u.username)).toEqual(['bobby', 'alice']);

    const asCarol = (
      await t.app.inject({ method: 'GET', url: '/api/search/suggestions', headers: { cookie: carol.cookie } })
    ).json() as Result;
    const names = asCarol.users.map((u) => u.id);
    expect(names).not.toContain(carol.user.id);
    expect(names).not.toContain(bob.user.id);
    expect(names[0]).toBe(alice.user.id);

    const hot = await post(t, carol.cookie, 'a trending thought');
    for (const who of [alice, bob])
      await t.app.inject({ method: 'POST', url: `/api/posts/${hot}/like`, headers: { cookie: who.cookie } });
    await t.app.inject({
      method: 'POST',
      url: `/api/posts/${hot}/comments`,
      headers: { cookie: alice.cookie },
      payload: { content: 'agreed' },
    });
    const again = (await t.app.inject({ method: 'GET', url: '/api/search/suggestions' })).json() as Result;
    expect(again.posts[0]!.id).toBe(hot);

    await t.app.inject({
      method: 'POST',
      url: `/api/gallery/${mediaId}/favorite`,
      headers: { cookie: carol.cookie },
    });
    expect(again.aiMedia.length).toBeGreaterThan(0);
    const media = (await t.app.inject({ method: 'GET', url: '/api/search/suggestions' })).json() as Result;
    expect(media.aiMedia[0]!.id).toBe(mediaId);
  });
});

describe('the search rate limit', () => {
  it('has its own bucket: 120 a minute per member or per IP, then 429 with Retry-After', async ({
    limited,
  }) => {
    const search = (cookie?: string, url = '/api/search?q=cube') =>
      limited.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
    const member = await registerUser(limited.app);
    for (let i = 0; i < 120; i++) {
      const res = await search(member.cookie, i % 2 ? '/api/search/suggestions' : '/api/search?q=cube');
      expect(res.statusCode).toBe(200);
    }
    const over = await search(member.cookie);
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('TOO_MANY_REQUESTS');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Other reads are not in this bucket; a visitor from the same address has a count of its own.
    expect((await limited.app.inject({ method: 'GET', url: '/api/posts/feed' })).statusCode).toBe(200);
    expect((await search()).statusCode).toBe(200);
  });
});
