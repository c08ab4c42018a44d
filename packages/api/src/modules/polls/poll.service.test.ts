/**
 * Polls on a real PostgreSQL: the poll a post is written with (and the hostile input it refuses),
 * the vote's rules, results only for those entitled to them (in every read that builds a post,
 * the kept pages included), exact counts under concurrent votes, the live 'poll' change, and the
 * end's notifications written once, by two job runners on one database.
 */
import { createTestDatabase } from '@cubes/db/testing';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, expectCode, UNKNOWN_ID, useDatabase, visitor } from '../../../test/harness.js';
import { JOBS, type PollEndJob } from '../../jobs/jobs.names.js';
import { createJobRunner, type JobRunner } from '../../jobs/jobs.queue.js';
import { cachesHear } from '../../kept-reads.js';
import { POLL_ENDED_OWN, POLL_ENDED_VOTED, setPollExpiry } from './poll.repository.js';
import {
  ALREADY_VOTED,
  announcePollEnd,
  ONE_CHOICE_ONLY,
  POLL_ENDED,
  POLL_NOT_FOUND,
  sweepEndedPolls,
} from './poll.service.js';

const db = useDatabase();

const poll = (options: unknown, extra: Record<string, unknown> = {}) =>
  ({ options, expiresInMinutes: 60, ...extra }) as never;

async function sql(query: string, params: unknown[] = []): Promise<void> {
  await db.orm.em.fork().execute(query, params);
}

/** Ends the poll of `postId` now, as its time passing would (the database's clock decides). */
async function endPoll(postId: string): Promise<void> {
  await setPollExpiry(db.orm.em.fork(), postId, new Date(Date.now() - 1_000));
}

const deps = () => ({ fork: () => db.orm.em.fork(), bus: { publish: async () => {} } as never });

describe('posts.create with a poll', () => {
  it('writes the poll with the post, trimmed, and answers it as its author sees it', async () => {
    const me = await createMember(db.orm);
    const before = Date.now();
    const { post } = await me.caller.posts.create({
      content: 'Lunch?',
      poll: poll(['  Pizza ', 'Sushi 🍣', 'ラーメン'], { multiple: true }),
    });
    expect(post.poll).toMatchObject({
      options: [
        { text: 'Pizza', votesCount: 0 },
        { text: 'Sushi 🍣', votesCount: 0 },
        { text: 'ラーメン', votesCount: 0 },
      ],
      votersCount: 0,
      multiple: true,
      ownChoices: [],
      expired: false,
    });
    const expiresAt = Date.parse(post.poll!.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 60 * 60_000);
    expect((await me.caller.posts.byId({ postId: post.id })).post.poll).toEqual(post.poll);
    // A post without a poll answers null.
    expect((await me.caller.posts.create({ content: 'plain' })).post.poll).toBeNull();
  });

  it('refuses bad and hostile polls with a message naming the rule', async () => {
    const me = await createMember(db.orm);
    const create = (p: unknown) => me.caller.posts.create({ content: 'poll', poll: p as never });
    await expectCode(create(poll(['only one'])), 'BAD_REQUEST', 'A poll needs at least 2 options');
    await expectCode(create(poll(['a', 'b', 'c', 'd', 'e'])), 'BAD_REQUEST', 'A poll has at most 4 options');
    await expectCode(create(poll(['Yes', ' yes '])), 'BAD_REQUEST', 'Poll options must all be different');
    await expectCode(create(poll(['a', '   '])), 'BAD_REQUEST', 'A poll option cannot be empty');
    await expectCode(
      create(poll(['a', 'x'.repeat(51)])),
      'BAD_REQUEST',
      'A poll option must be at most 50 characters',
    );
    await expectCode(
      create(poll(['a', 'x'.repeat(70_000)])),
      'BAD_REQUEST',
      'A poll option must be at most 50 characters',
    );
    await expectCode(
      create(poll(['a', 'b\u0000c'])),
      'BAD_REQUEST',
      'A poll option contains characters that are not allowed',
    );
    await expectCode(
      create(poll(['a', '\u202e\u0007'])),
      'BAD_REQUEST',
      'A poll option contains characters that are not allowed',
    );
    await expectCode(create(poll(['a', 42])), 'BAD_REQUEST', 'A poll option must be text');
    await expectCode(create(poll('a,b')), 'BAD_REQUEST', 'Poll options must be a list');
    await expectCode(create('yes'), 'BAD_REQUEST', 'A poll must be an object');
    await expectCode(
      create(poll(['a', 'b'], { expiresInMinutes: 4 })),
      'BAD_REQUEST',
      'A poll runs at least 5 minutes',
    );
    await expectCode(
      create(poll(['a', 'b'], { expiresInMinutes: 10_081 })),
      'BAD_REQUEST',
      'A poll runs at most 7 days',
    );
    await expectCode(
      create(poll(['a', 'b'], { expiresInMinutes: 7.5 })),
      'BAD_REQUEST',
      'The poll’s duration must be a whole number of minutes',
    );
    await expectCode(create(poll(['a', 'b'], { expiresInMinutes: '60' })), 'BAD_REQUEST');
    await expectCode(
      create(poll(['a', 'b'], { multiple: 'yes' })),
      'BAD_REQUEST',
      'multiple must be true or false',
    );
    // 50 emoji are 50 characters (100 UTF-16 units): allowed.
    const emoji = '👍'.repeat(50);
    const { post } = await create(poll([emoji, 'no'], { expiresInMinutes: 10_080 }));
    expect(post.poll?.options[0]?.text).toBe(emoji);
    // Nothing of the refused ones was written.
    const mine = await me.caller.users.posts({ userId: me.user.id, limit: 50 });
    expect(mine.items).toHaveLength(1);
  });
});

describe('polls.vote', () => {
  it('votes once: 400 for bad choices, 409 after a vote, 410 once ended, 404 without a poll', async () => {
    const author = await createMember(db.orm);
    const voter = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'q', poll: poll(['a', 'b', 'c']) });
    const vote = (choices: unknown, postId = post.id) =>
      voter.caller.polls.vote({ postId, choices: choices as number[] });
    await expectCode(vote([3]), 'BAD_REQUEST', 'This poll has 3 options: choose from 0 to 2');
    await expectCode(vote([0, 1]), 'BAD_REQUEST', ONE_CHOICE_ONLY);
    await expectCode(vote([]), 'BAD_REQUEST', 'Choose at least one option');
    await expectCode(vote([1, 1]), 'BAD_REQUEST', 'An option is chosen twice');
    await expectCode(vote([-1]), 'BAD_REQUEST');
    await expectCode(vote([0.5]), 'BAD_REQUEST');
    await expectCode(vote(['0']), 'BAD_REQUEST');
    await expectCode(vote('0'), 'BAD_REQUEST');
    await expectCode(vote([0], UNKNOWN_ID), 'NOT_FOUND', POLL_NOT_FOUND);
    await expectCode(vote([0], 'not-a-uuid'), 'NOT_FOUND', POLL_NOT_FOUND);
    await expectCode(vote([0], 'a\u0000b'), 'BAD_REQUEST');
    const { post: plain } = await author.caller.posts.create({ content: 'no poll' });
    await expectCode(vote([0], plain.id), 'NOT_FOUND', POLL_NOT_FOUND);
    await expectCode(visitor(db.orm).polls.vote({ postId: post.id, choices: [0] }), 'UNAUTHORIZED');

    const { poll: after } = await vote([2]);
    expect(after).toMatchObject({
      votersCount: 1,
      ownChoices: [2],
      options: [
        { text: 'a', votesCount: 0 },
        { text: 'b', votesCount: 0 },
        { text: 'c', votesCount: 1 },
      ],
    });
    await expectCode(vote([1]), 'CONFLICT', ALREADY_VOTED);

    const late = await createMember(db.orm);
    await endPoll(post.id);
    await expectCode(
      late.caller.polls.vote({ postId: post.id, choices: [0] }),
      'PRECONDITION_FAILED',
      POLL_ENDED,
    );
  });

  it('takes several choices in a multiple-choice poll', async () => {
    const author = await createMember(db.orm);
    const voter = await createMember(db.orm);
    const { post } = await author.caller.posts.create({
      content: 'q',
      poll: poll(['a', 'b', 'c'], { multiple: true }),
    });
    const { poll: after } = await voter.caller.polls.vote({ postId: post.id, choices: [2, 0] });
    expect(after.options.map((o) => o.votesCount)).toEqual([1, 0, 1]);
    expect(after.votersCount).toBe(1);
    expect([...after.ownChoices].sort()).toEqual([0, 2]);
  });

  it('is 404 for a removed post, a suspended author’s poll and across a block', async () => {
    const author = await createMember(db.orm);
    const voter = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'q', poll: poll(['a', 'b']) });
    await author.caller.safety.block({ userId: voter.user.id });
    await expectCode(voter.caller.polls.vote({ postId: post.id, choices: [0] }), 'NOT_FOUND', POLL_NOT_FOUND);
    await author.caller.safety.unblock({ userId: voter.user.id });
    await voter.caller.safety.block({ userId: author.user.id });
    await expectCode(voter.caller.polls.vote({ postId: post.id, choices: [0] }), 'NOT_FOUND', POLL_NOT_FOUND);

    const other = await createMember(db.orm);
    await sql(
      `update users set suspended_at = now(), suspended_until = now() + interval '1 day' where id = ?`,
      [author.user.id],
    );
    await expectCode(other.caller.polls.vote({ postId: post.id, choices: [0] }), 'NOT_FOUND', POLL_NOT_FOUND);
    await sql('update users set suspended_at = null, suspended_until = null where id = ?', [author.user.id]);
    await other.caller.polls.vote({ postId: post.id, choices: [0] });

    const { post: removed } = await author.caller.posts.create({ content: 'q', poll: poll(['a', 'b']) });
    await sql('update posts set removed_at = now() where id = ?', [removed.id]);
    await expectCode(
      other.caller.polls.vote({ postId: removed.id, choices: [0] }),
      'NOT_FOUND',
      POLL_NOT_FOUND,
    );
  });

  it('counts exactly under concurrent votes: one vote per member wins, every member counts', async () => {
    const author = await createMember(db.orm);
    const { post } = await author.caller.posts.create({
      content: 'q',
      poll: poll(['a', 'b', 'c', 'd'], { multiple: true }),
    });
    const one = await createMember(db.orm);
    const same = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => one.caller.polls.vote({ postId: post.id, choices: [i % 4] })),
    );
    expect(same.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of same.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason.code).toBe('CONFLICT');
    }
    const members = await Promise.all(Array.from({ length: 12 }, () => createMember(db.orm)));
    await Promise.all(
      members.map((m, i) => m.caller.polls.vote({ postId: post.id, choices: i % 2 ? [0, 3] : [1] })),
    );
    const seen = (await author.caller.posts.byId({ postId: post.id })).post.poll as unknown;
    const counts = (seen as { options: { votesCount: number }[] }).options.map((o) => o.votesCount);
    const ownVote = (
      same.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ poll: { ownChoices: number[] } }>
    ).value.poll.ownChoices[0]!;
    const expected = [6, 6, 0, 6];
    expected[ownVote]! += 1;
    expect(counts).toEqual(expected);
    expect((seen as { votersCount: number }).votersCount).toBe(13);
  });
});

describe('results', () => {
  it('show to the author, to voters and, once ended, to everyone; never before', async () => {
    const author = await createMember(db.orm);
    const voter = await createMember(db.orm);
    const other = await createMember(db.orm);
    const { post } = await author.caller.posts.create({
      content: `results zanzibarpoll ${Date.now()}`,
      poll: poll(['a', 'b']),
    });
    await voter.caller.polls.vote({ postId: post.id, choices: [1] });
    // A newer post: on the Following feed (a page of 1) the poll is on the second page.
    await author.caller.posts.create({ content: 'newer' });
    const hidden = {
      votersCount: 1,
      ownChoices: [],
      options: [
        { text: 'a', votesCount: null },
        { text: 'b', votesCount: null },
      ],
    };
    const shown = {
      votersCount: 1,
      options: [
        { text: 'a', votesCount: 0 },
        { text: 'b', votesCount: 1 },
      ],
    };

    // Every read that builds a post: by id, the feed (kept pages), a profile, bookmarks.
    const reads = async (caller: typeof other.caller | ReturnType<typeof visitor>) => {
      const byId = (await caller.posts.byId({ postId: post.id })).post.poll;
      const feed = (await caller.posts.feed({ limit: 50 })).items.find((p) => p.id === post.id)?.poll;
      const profile = (await caller.users.posts({ userId: author.user.id, limit: 50 })).items.find(
        (p) => p.id === post.id,
      )?.poll;
      if (caller === author.caller || !('follows' in caller)) return [byId, feed, profile];
      // Following: the first page (the member's own) and a later one (kept posts, with marks).
      await caller.follows.follow({ userId: author.user.id }).catch(() => {});
      const first = await caller.posts.feed({ scope: 'following', limit: 1 });
      const later = first.nextCursor
        ? await caller.posts.feed({ scope: 'following', limit: 1, cursor: first.nextCursor })
        : { items: [] };
      const following = [...first.items, ...later.items].find((p) => p.id === post.id)?.poll;
      return [byId, feed, profile, following];
    };
    for (const p of await reads(visitor(db.orm))) expect(p).toMatchObject(hidden);
    for (const p of await reads(other.caller)) expect(p).toMatchObject(hidden);
    for (const p of await reads(author.caller)) expect(p).toMatchObject({ ...shown, ownChoices: [] });
    for (const p of await reads(voter.caller)) expect(p).toMatchObject({ ...shown, ownChoices: [1] });
    const searched = async (caller: typeof other.caller) =>
      (await caller.search.query({ q: 'zanzibarpoll' })).posts.find((p) => p.id === post.id)?.poll;
    expect(await searched(other.caller)).toMatchObject(hidden);
    expect(await searched(voter.caller)).toMatchObject({ ...shown, ownChoices: [1] });
    expect(await searched(author.caller)).toMatchObject(shown);
    await voter.caller.bookmarks.add({ postId: post.id });
    expect((await voter.caller.bookmarks.list({})).items[0]?.poll).toMatchObject({
      ...shown,
      ownChoices: [1],
    });
    await other.caller.bookmarks.add({ postId: post.id });
    expect((await other.caller.bookmarks.list({})).items[0]?.poll).toMatchObject(hidden);

    await endPoll(post.id);
    // A vote or an end is a postChanges event: kept pages drop, as they do across instances.
    await announcePollEnd(deps(), post.id);
    cachesHear(author.ctx.cacheScope, 'postChanges', {
      postId: post.id,
      kind: 'poll',
      authorId: author.user.id,
      hidden: false,
    });
    for (const p of await reads(visitor(db.orm)))
      expect(p).toMatchObject({ ...shown, expired: true, ownChoices: [] });
    for (const p of await reads(other.caller)) expect(p).toMatchObject({ ...shown, expired: true });
  });

  it('tell open feeds of a vote through the posts’ live changes', async () => {
    const author = await createMember(db.orm);
    const voter = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'live', poll: poll(['a', 'b']) });
    const stop = new AbortController();
    const heard: unknown[] = [];
    const live = (async () => {
      for await (const change of await author.caller.posts.onChange()) {
        heard.push(change);
        if ((change as { postId: string }).postId === post.id) stop.abort();
        if (stop.signal.aborted) break;
      }
    })();
    // The subscription listens before its first event is awaited.
    await new Promise((resolve) => setImmediate(resolve));
    await voter.caller.polls.vote({ postId: post.id, choices: [0] });
    await live;
    expect(heard).toContainEqual({ postId: post.id, kind: 'poll' });
  });
});

describe('a poll’s end', () => {
  it('notifies its voters and its author once, even when announced twice at once', async () => {
    const author = await createMember(db.orm);
    const voter = await createMember(db.orm);
    const blocked = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'ends', poll: poll(['a', 'b']) });
    await voter.caller.polls.vote({ postId: post.id, choices: [0] });
    await blocked.caller.polls.vote({ postId: post.id, choices: [1] });
    await author.caller.safety.block({ userId: blocked.user.id });
    expect(await announcePollEnd(deps(), post.id)).toBe(false); // not over yet
    await endPoll(post.id);
    const results = await Promise.all([announcePollEnd(deps(), post.id), announcePollEnd(deps(), post.id)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    await sweepEndedPolls(deps()); // finds it announced: nothing is written twice

    const [mine] = await author.caller.notifications.list();
    expect(mine).toMatchObject({
      type: 'poll_ended',
      message: POLL_ENDED_OWN,
      poll: { own: true },
      postId: post.id,
      snippet: 'ends',
    });
    const theirs = await voter.caller.notifications.list();
    expect(theirs.filter((n) => n.type === 'poll_ended')).toEqual([
      expect.objectContaining({
        message: POLL_ENDED_VOTED,
        poll: { own: false },
        username: author.user.username,
        postId: post.id,
      }),
    ]);
    expect((await blocked.caller.notifications.list()).filter((n) => n.type === 'poll_ended')).toEqual([]);
  });

  it('is announced by the sweep when its job was lost', async () => {
    const author = await createMember(db.orm);
    const { post } = await author.caller.posts.create({ content: 'swept', poll: poll(['a', 'b']) });
    await endPoll(post.id);
    expect(await sweepEndedPolls(deps())).toBeGreaterThanOrEqual(1);
    expect(await sweepEndedPolls(deps())).toBe(0); // every ended poll is announced now
    expect((await author.caller.notifications.list()).filter((n) => n.type === 'poll_ended')).toHaveLength(1);
  });
});

describe('the end job on two runners (two instances on one database)', () => {
  let jobsDb: Awaited<ReturnType<typeof createTestDatabase>>;
  const runners: JobRunner[] = [];
  beforeAll(async () => {
    jobsDb = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop(1_000)));
    await jobsDb.drop();
  }, 30_000);

  it('writes the notifications once though both run the job', async () => {
    const orm: MikroORM = db.orm;
    const author = await createMember(orm);
    const voter = await createMember(orm);
    const { post } = await author.caller.posts.create({ content: 'two runners', poll: poll(['a', 'b']) });
    await voter.caller.polls.vote({ postId: post.id, choices: [1] });
    await endPoll(post.id);
    const outcomes: boolean[] = [];
    let ran: () => void = () => {};
    const bothRan = new Promise<void>((resolve) => {
      ran = () => outcomes.length === 2 && resolve();
    });
    for (let i = 0; i < 2; i++) {
      const runner = createJobRunner({
        connectionString: jobsDb.url,
        pollSeconds: 0.5,
        maintenanceSeconds: 5,
        poolMax: 2,
      });
      runner.define<PollEndJob>({
        name: JOBS.pollEnd,
        async run({ postId }) {
          outcomes.push(await announcePollEnd(deps(), postId));
          ran();
        },
      });
      runners.push(runner);
    }
    await Promise.all(runners.map((r) => r.start()));
    // Queued twice (a retry, or the sweep's and the job's run meeting), once through each instance.
    await runners[0]!.send(JOBS.pollEnd, { postId: post.id });
    await runners[1]!.send(JOBS.pollEnd, { postId: post.id });
    await bothRan;
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const voterBell = await voter.caller.notifications.list();
    expect(voterBell.filter((n) => n.type === 'poll_ended' && n.postId === post.id)).toHaveLength(1);
  }, 30_000);
});
