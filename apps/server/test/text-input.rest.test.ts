/**
 * Text through the whole stack: emoji (joiners, skin tones, variation selectors) come back byte
 * for byte from PostgreSQL; control characters and lone surrogates are refused with a 400 that
 * names the field, never a 500.
 */
import { describe, expect } from 'vitest';
import { contractError } from './error-shape.js';
import { it } from './fixtures.js';
import { registerUser } from './harness.js';

let cookie: string;
let username: string;
it.beforeAll(async ({ t }) => {
  ({
    cookie,
    user: { username },
  } = await registerUser(t.app));
});

const EMOJI = 'Cubing 👩🏽‍💻 with pride 🏳️‍🌈 ❤️ 🧊\tcafe\u0301 नमस्ते\r\n中文 👨‍👩‍👧‍👦';

function bytes(value: string): string {
  return Buffer.from(value, 'utf8').toString('hex');
}

describe('emoji', () => {
  it('round-trip exactly through posts, comments and settings, over REST and tRPC', async ({ t }) => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie },
      payload: { content: EMOJI },
    });
    expect(created.statusCode, created.body).toBe(201);
    const postId = (created.json() as { post: { id: string; content: string } }).post.id;

    const feed = await t.app.inject({ method: 'GET', url: '/api/posts/feed' });
    const post = (feed.json() as { id: string; content: string }[]).find((p) => p.id === postId);
    expect(bytes(post!.content)).toBe(bytes(EMOJI));

    const input = encodeURIComponent(JSON.stringify({ json: { postId } }));
    const viaTrpc = await t.app.inject({ method: 'GET', url: `/trpc/posts.byId?input=${input}` });
    const trpcPost = (viaTrpc.json() as { result: { data: { json: { post: { content: string } } } } }).result
      .data.json.post;
    expect(bytes(trpcPost.content)).toBe(bytes(EMOJI));

    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${postId}/comments`,
      headers: { cookie },
      payload: { content: EMOJI },
    });
    expect(comment.statusCode, comment.body).toBe(201);
    const comments = await t.app.inject({ method: 'GET', url: `/api/posts/${postId}/comments` });
    expect(bytes((comments.json() as { content: string }[])[0]!.content)).toBe(bytes(EMOJI));

    const name = '👩🏽‍💻 🏳️‍🌈 Cuber';
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie },
      payload: { displayName: name, bio: EMOJI },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const profile = await t.app.inject({ method: 'GET', url: `/api/users/by-username/${username}` });
    const { user } = profile.json() as { user: { displayName: string; bio: string } };
    expect(bytes(user.displayName)).toBe(bytes(name));
    expect(bytes(user.bio)).toBe(bytes(EMOJI.trim()));
  });
});

describe('control characters and lone surrogates', () => {
  const cases = [
    ['POST', '/api/posts', { content: 'a\u0000b' }, 'content', 'Post'],
    ['POST', '/api/posts', { content: 'a\uD800b' }, 'content', 'Post'],
    ['PUT', '/api/settings', { displayName: 'a\u0000b' }, 'displayName', 'Display name'],
    ['PUT', '/api/settings', { bio: 'line\u0007bell' }, 'bio', 'Bio'],
    ['PUT', '/api/settings', { avatarUrl: 'https://x.example/\u0000.png' }, 'avatarUrl', 'URL'],
    ['POST', '/api/auth/login', { email: 'a\u0000@b.c', password: 'secret12' }, 'email', 'Email'],
    [
      'POST',
      '/api/auth/register',
      { username: 'abc', email: 'a@b.c', password: 'pass\u0000word', displayName: 'A' },
      'password',
      'Password',
    ],
    ['POST', '/api/settings/email', { email: 'a@b.c', password: 'x\u0085' }, 'password', 'Password'],
  ] as const;

  it.for(cases)('%s %s %j → 400 naming %s', async ([method, url, payload, field, label], { t }) => {
    const res = await t.app.inject({ method, url, headers: { cookie }, payload });
    const error = contractError(res, { method, url });
    expect(error.status).toBe(400);
    expect(error.issues).toContainEqual({
      path: field,
      message: `${label} contains characters that are not allowed`,
      reason: expect.stringMatching(/_NOT_ALLOWED_CHARACTERS$/),
    });
  });

  it('refuses them in path parameters, and keeps nothing of a refused write', async ({ t }) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users/by-username/%00' });
    expect(contractError(res, { method: 'GET', url: '/api/users/by-username/%00' })).toMatchObject({
      status: 400,
      message: 'Username contains characters that are not allowed',
    });
    const feed = await t.app.inject({ method: 'GET', url: '/api/posts/feed' });
    expect(feed.body).not.toMatch(/\\u0000|a\uFFFDb/);
  });
});
