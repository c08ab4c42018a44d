/**
 * Cubey over REST with the built-in offline assistant: the chat answers from the community's
 * data, sessions and messages belong to their owner (404 for anyone else), input is checked,
 * logged-out calls are 401 and chats are limited to 20 a minute.
 */
import { POST_IMAGES_MAX } from '@cubes/api/rules';
import { describe, expect } from 'vitest';
import { itWith } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';

const it = itWith({ config: { cubey: { offlineDelayMs: 0 } } });

async function chat(t: TestApp, cookie: string, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/cubey/chat',
    headers: { cookie },
    payload: payload as object,
  });
}

describe('POST /api/cubey/chat with the offline assistant', () => {
  it('says it is the offline assistant and how to connect a model', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const res = await chat(t, cookie, { message: 'Who are you?' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.reply.role).toBe('assistant');
    expect(body.reply.content).toContain('offline assistant');
    expect(body.reply.content).toContain('CUBEY_BASE_URL');
  });

  it('answers from posts and profiles, the same way each time', async ({ t }) => {
    const alice = await registerUser(t.app);
    for (const content of ['I love building cubes', 'Another cubes post', 'Unrelated gardening']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/posts',
        headers: { cookie: alice.cookie },
        payload: { content },
      });
      expect(res.statusCode).toBe(201);
    }
    const bob = await registerUser(t.app);
    const about = await chat(t, bob.cookie, { message: 'Who posts about cubes?' });
    expect(about.json().reply.content).toContain(`@${alice.user.username}: 2 posts`);
    const again = await chat(t, bob.cookie, { message: 'Who posts about cubes?' });
    expect(again.json().reply.content).toBe(about.json().reply.content);

    const profile = await chat(t, bob.cookie, { message: `Who is @${alice.user.username}?` });
    expect(profile.json().reply.content).toContain(`(@${alice.user.username})`);
    expect(profile.json().reply.content).toContain('3 posts');

    const trending = await chat(t, bob.cookie, { message: 'What is trending?' });
    expect(trending.json().reply.content).toContain('Trending in the community');

    const help = await chat(t, bob.cookie, { message: 'I forgot my password' });
    expect(help.json().reply.content).toContain('Reset');
    const upload = await chat(t, bob.cookie, { message: 'How do I upload an image?' });
    expect(upload.json().reply.content).toContain('Media');
    // Issue #46, bug 15: as many images as a post takes (rules.ts), not "one image".
    expect(upload.json().reply.content).toContain(`add up to ${POST_IMAGES_MAX} images`);
    const messages = await chat(t, bob.cookie, { message: 'How do direct messages work?' });
    expect(messages.json().reply.content).toContain('Chat');
    const posting = await chat(t, bob.cookie, { message: 'How do I post?' });
    expect(posting.json().reply.content).toContain('Post');
  });

  it('says on GET /api/cubey/setup, to anyone, that Cubey is the offline assistant here (issue #46)', async ({
    t,
  }) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/cubey/setup' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ assistant: 'offline', mediaGeneration: false });
  });

  it('says nothing about a member who blocked the asker, or whom the asker blocked', async ({ t }) => {
    const blocker = await registerUser(t.app);
    const asker = await registerUser(t.app);
    const other = await registerUser(t.app);
    const word = `zyx${Date.now().toString(36)}`;
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie: blocker.cookie },
      payload: { content: `All about ${word}` },
    });
    expect(post.statusCode).toBe(201);
    // Liked, so it trends.
    await t.app.inject({
      method: 'POST',
      url: `/api/posts/${post.json().post.id}/like`,
      headers: { cookie: other.cookie },
    });
    await t.orm.em.fork().execute(
      `insert into ai_media (id, type, title, image_url, width, height, creator_id)
         values (gen_random_uuid(), 'art', ?, '/objects/uploads/y', 640, 480, ?)`,
      [`Gallery ${word}`, blocker.user.id],
    );
    const block = await t.app.inject({
      method: 'POST',
      url: `/api/users/${asker.user.id}/block`,
      headers: { cookie: blocker.cookie },
    });
    expect(block.statusCode).toBe(200);
    const ask = async (cookie: string, message: string) =>
      (await chat(t, cookie, { message })).json().reply.content as string;

    for (const cookie of [asker.cookie, blocker.cookie]) {
      const target = cookie === asker.cookie ? blocker : asker;
      expect(await ask(cookie, `Who is @${target.user.username}?`)).toContain('I found no member called');
    }
    expect(await ask(asker.cookie, `Who posts about ${word}?`)).not.toContain(blocker.user.username);
    expect(await ask(asker.cookie, 'What is trending?')).not.toContain(blocker.user.username);
    expect(await ask(asker.cookie, `Find gallery art about ${word}`)).toContain(
      'No gallery items match that',
    );
    // Anyone else is told as before.
    expect(await ask(other.cookie, `Who is @${blocker.user.username}?`)).toContain(
      `(@${blocker.user.username})`,
    );
    expect(await ask(other.cookie, `Who posts about ${word}?`)).toContain(
      `@${blocker.user.username}: 1 post`,
    );
    expect(await ask(other.cookie, `Find gallery art about ${word}`)).toContain(`Gallery ${word} (art)`);
    expect(await ask(other.cookie, 'What is trending?')).toContain(`@${blocker.user.username}`);
  });

  it('finds matching gallery items', async ({ t }) => {
    const { cookie, user } = await registerUser(t.app);
    await t.orm.em.fork().execute(
      `insert into ai_media (id, type, title, image_url, width, height, creator_id)
         values (gen_random_uuid(), 'art', 'Lighthouse over a cube sea', '/objects/uploads/x', 640, 480, ?)`,
      [user.id],
    );
    const found = await chat(t, cookie, { message: 'Find gallery art about lighthouse' });
    expect(found.json().reply.content).toContain('Lighthouse over a cube sea (art)');
    const none = await chat(t, cookie, { message: 'Find gallery art about zeppelins' });
    expect(none.json().reply.content).toContain('No gallery items match that');
  });

  it('keeps one session per conversation: sessions newest first, messages oldest first, a title from the words', async ({
    t,
  }) => {
    const { cookie } = await registerUser(t.app);
    const first = (await chat(t, cookie, { message: 'What is trending today in the cube world?' })).json();
    const follow = await chat(t, cookie, { message: 'How do I post?', sessionId: first.sessionId });
    expect(follow.json().sessionId).toBe(first.sessionId);
    const second = (await chat(t, cookie, { message: 'hello' })).json();

    const sessions = await t.app.inject({ method: 'GET', url: '/api/cubey/sessions', headers: { cookie } });
    expect(sessions.json().map((s: { id: string }) => s.id)).toEqual([second.sessionId, first.sessionId]);
    // Named from the first words, then (after the first answer) from the exchange's key words.
    expect(['What is trending today in the', 'Trending today cube world']).toContain(
      sessions.json()[1].title,
    );

    const messages = await t.app.inject({
      method: 'GET',
      url: `/api/cubey/sessions/${first.sessionId}/messages`,
      headers: { cookie },
    });
    const list = messages.json() as { role: string; content: string; status: string }[];
    expect(list.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(list[0]!.content).toBe('What is trending today in the cube world?');
    expect(list.every((m) => m.status === 'done')).toBe(true);
  });

  it("answers 404 for another member's session, and for unknown ids", async ({ t }) => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const { sessionId } = (await chat(t, owner.cookie, { message: 'hello' })).json();
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/cubey/sessions/${sessionId}/messages`,
      headers: { cookie: other.cookie },
    });
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual({
      message: 'Chat session not found',
      code: 'NOT_FOUND',
      reason: 'CHAT_NOT_FOUND',
    });
    expect((await chat(t, other.cookie, { message: 'hi', sessionId })).statusCode).toBe(404);
    expect((await chat(t, other.cookie, { message: 'hi', sessionId: 'not-a-uuid' })).statusCode).toBe(404);
    const sessions = await t.app.inject({
      method: 'GET',
      url: '/api/cubey/sessions',
      headers: { cookie: other.cookie },
    });
    expect(sessions.json()).toEqual([]);
  });

  it('refuses blank, too long and control-character messages; 401 when logged out', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    expect((await chat(t, cookie, { message: '   ' })).statusCode).toBe(400);
    expect((await chat(t, cookie, { message: 'x'.repeat(4001) })).statusCode).toBe(400);
    expect((await chat(t, cookie, { message: 'a\u0000b' })).statusCode).toBe(400);
    expect((await chat(t, cookie, { message: 42 })).statusCode).toBe(400);
    const ok = await chat(t, cookie, { message: `${'🧊'.repeat(1000)} cubes` });
    expect(ok.statusCode).toBe(200);
    expect((await chat(t, '', { message: 'hi' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/cubey/sessions' })).statusCode).toBe(401);
  });
});

describe('Cubey rate limit', () => {
  it('allows 20 chats a minute per user, then answers 429', async ({ appWith }) => {
    const limited = await appWith({ config: { rateLimitScale: 1, cubey: { offlineDelayMs: 0 } } });
    const { cookie } = await registerUser(limited.app);
    for (let i = 0; i < 20; i += 1) {
      const res = await limited.app.inject({
        method: 'POST',
        url: '/api/cubey/chat',
        headers: { cookie },
        payload: { message: `hello ${i}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const over = await limited.app.inject({
      method: 'POST',
      url: '/api/cubey/chat',
      headers: { cookie },
      payload: { message: 'one more' },
    });
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('TOO_MANY_REQUESTS');
  });
});
