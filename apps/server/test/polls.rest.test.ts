/**
 * Polls over REST: POST /api/posts with `poll`, POST /api/posts/{id}/poll/votes, and the statuses
 * of the contract: 400 with the JSON error shape for bad and hostile input, 401, 404, 409, 410.
 * Every answer is checked against the served OpenAPI document (the harness's contract).
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { registerUser, type TestApp, UNKNOWN_ID } from './harness.js';

function send(t: TestApp, url: string, payload: unknown, cookie?: string) {
  return t.app.inject({ method: 'POST', url, headers: cookie ? { cookie } : {}, payload: payload as object });
}

describe('REST polls', () => {
  it('writes a post with a poll, votes once, and shows results to voters only until it ends', async ({
    t,
  }) => {
    const author = await registerUser(t.app);
    const voter = await registerUser(t.app);
    const other = await registerUser(t.app);
    const created = await send(
      t,
      '/api/posts',
      { content: 'Tea or coffee?', poll: { options: [' Tea ', 'Coffee'], expiresInMinutes: 60 } },
      author.cookie,
    );
    expect(created.statusCode, created.body).toBe(201);
    const post = created.json().post;
    expect(post.poll).toMatchObject({
      options: [
        { text: 'Tea', votesCount: 0 },
        { text: 'Coffee', votesCount: 0 },
      ],
      votersCount: 0,
      multiple: false,
      ownChoices: [],
      expired: false,
    });
    const votes = `/api/posts/${post.id}/poll/votes`;

    const voted = await send(t, votes, { choices: [1] }, voter.cookie);
    expect(voted.statusCode, voted.body).toBe(200);
    expect(voted.json().poll).toMatchObject({
      votersCount: 1,
      ownChoices: [1],
      options: [{ votesCount: 0 }, { votesCount: 1 }],
    });
    const again = await send(t, votes, { choices: [0] }, voter.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      message: 'You already voted in this poll',
      code: 'CONFLICT',
      reason: 'ALREADY_VOTED',
    });

    // Before voting, another member sees how many voted, not how.
    const seen = await t.app.inject({
      method: 'GET',
      url: `/api/posts/${post.id}`,
      headers: { cookie: other.cookie },
    });
    expect(seen.json().post.poll).toMatchObject({
      votersCount: 1,
      ownChoices: [],
      options: [{ votesCount: null }, { votesCount: null }],
    });

    await t.orm.em
      .fork()
      .execute(`update polls set expires_at = now() - interval '1 second' where post_id = ?`, [post.id]);
    const late = await send(t, votes, { choices: [0] }, other.cookie);
    expect(late.statusCode, late.body).toBe(410);
    expect(late.json()).toEqual({ message: 'This poll has ended', code: 'GONE', reason: 'POLL_ENDED' });
    const ended = await t.app.inject({ method: 'GET', url: `/api/posts/${post.id}` });
    expect(ended.json().post.poll).toMatchObject({
      expired: true,
      options: [{ votesCount: 0 }, { votesCount: 1 }],
    });
  });

  it('answers bad input with the JSON error shape, never a 500', async ({ t }) => {
    const author = await registerUser(t.app);
    const voter = await registerUser(t.app);
    const bad = [
      { options: ['only'], expiresInMinutes: 60 },
      { options: ['a', 'A'], expiresInMinutes: 60 },
      { options: ['a', 'b\u0000'], expiresInMinutes: 60 },
      { options: ['a', 'x'.repeat(70_000)], expiresInMinutes: 60 },
      { options: ['a', 'b'], expiresInMinutes: 3 },
      { options: ['a', 'b'], expiresInMinutes: 'soon' },
      { options: 'a,b', expiresInMinutes: 60 },
      'poll',
      null,
    ];
    for (const poll of bad) {
      const res = await send(t, '/api/posts', { content: 'x', poll }, author.cookie);
      expect([400, 413], res.body).toContain(res.statusCode);
      expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    const long = await send(
      t,
      '/api/posts',
      { content: 'x', poll: { options: ['a', 'x'.repeat(51)], expiresInMinutes: 60 } },
      author.cookie,
    );
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('A poll option must be at most 50 characters');

    const created = await send(
      t,
      '/api/posts',
      { content: 'q', poll: { options: ['a', 'b'], expiresInMinutes: 5 } },
      author.cookie,
    );
    const votes = `/api/posts/${created.json().post.id}/poll/votes`;
    for (const body of [
      { choices: [] },
      { choices: [2] },
      { choices: [0, 1] },
      { choices: [0, 0] },
      { choices: ['0'] },
      { choices: 0 },
      {},
    ]) {
      const res = await send(t, votes, body, voter.cookie);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
    }
    expect((await send(t, votes, { choices: [0] })).statusCode).toBe(401);
    expect(
      (await send(t, `/api/posts/${UNKNOWN_ID}/poll/votes`, { choices: [0] }, voter.cookie)).statusCode,
    ).toBe(404);
    expect(
      (await send(t, '/api/posts/not-a-post/poll/votes', { choices: [0] }, voter.cookie)).statusCode,
    ).toBe(404);
    const plain = await send(t, '/api/posts', { content: 'no poll' }, author.cookie);
    const none = await send(
      t,
      `/api/posts/${plain.json().post.id}/poll/votes`,
      { choices: [0] },
      voter.cookie,
    );
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: 'Poll not found', code: 'NOT_FOUND', reason: 'POLL_NOT_FOUND' });
  });
});
