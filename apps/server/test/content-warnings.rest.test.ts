/**
 * Content warnings and sensitive images over REST (issue #49): POST /api/posts with
 * `contentWarning` and `images[].sensitive`, PATCH /api/posts/{id}, every read, GET and PUT
 * /api/settings with the two view preferences, the session's `preferences`, and the JSON error
 * shape for hostile input. Every answer is checked against the served OpenAPI document (the
 * harness's contract).
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';
import { uploadPng } from './uploads.js';

function call(
  t: TestApp,
  method: 'POST' | 'PATCH' | 'PUT' | 'GET',
  url: string,
  cookie?: string,
  payload?: unknown,
) {
  return t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

describe('REST content warnings and sensitive images', () => {
  it('writes, reads and edits them; a quote carries them', async ({ t }) => {
    const author = await registerUser(t.app);
    const reader = await registerUser(t.app);
    const image = await uploadPng(t.app, author.cookie, 320, 200);
    const created = await call(t, 'POST', '/api/posts', author.cookie, {
      content: 'the ending',
      contentWarning: '  Spoilers 🎬 ',
      images: [{ objectPath: image, alt: 'The last frame', sensitive: true }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const post = created.json().post;
    expect(post.contentWarning).toBe('Spoilers 🎬');
    expect(post.images[0]).toMatchObject({ url: image, sensitive: true, alt: 'The last frame' });

    for (const [url, cookie] of [
      [`/api/posts/${post.id}`, reader.cookie],
      [`/api/posts/${post.id}`, undefined],
      ['/api/posts/feed', reader.cookie],
      [`/api/users/${author.user.id}/posts`, undefined],
    ] as const) {
      const res = await call(t, 'GET', url, cookie);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      const found =
        'post' in body
          ? body.post
          : (Array.isArray(body) ? body : body.items).find((p: { id: string }) => p.id === post.id);
      expect(found).toMatchObject({ contentWarning: 'Spoilers 🎬', images: [{ sensitive: true }] });
    }

    const quoted = await call(t, 'POST', '/api/posts', reader.cookie, {
      content: 'see this',
      quotePostId: post.id,
    });
    expect(quoted.statusCode, quoted.body).toBe(201);
    expect(quoted.json().post.quote).toMatchObject({ contentWarning: 'Spoilers 🎬', imageSensitive: true });

    const edited = await call(t, 'PATCH', `/api/posts/${post.id}`, author.cookie, {
      content: 'the ending',
      contentWarning: null,
      sensitive: [false],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().post).toMatchObject({
      contentWarning: null,
      images: [{ sensitive: false }],
      editedAt: null,
    });
    const notMine = await call(t, 'PATCH', `/api/posts/${post.id}`, reader.cookie, {
      content: 'mine now',
      sensitive: [true],
    });
    expect(notMine.statusCode).toBe(404);
  });

  it('refuses hostile and wrong input with the JSON error shape', async ({ t }) => {
    const member = await registerUser(t.app);
    const other = await registerUser(t.app);
    const theirs = await uploadPng(t.app, other.cookie, 100, 100);
    const cases: [unknown, string][] = [
      [{ content: 'x', contentWarning: 'w'.repeat(201) }, 'A content warning must be at most 200 characters'],
      [
        { content: 'x', contentWarning: 'w'.repeat(60_000) },
        'A content warning must be at most 200 characters',
      ],
      [
        { content: 'x', contentWarning: 'nul\u0000' },
        'Content warning contains characters that are not allowed',
      ],
      [
        { content: 'x', contentWarning: 'esc\u001b[31m' },
        'Content warning contains characters that are not allowed',
      ],
      [{ content: 'x', contentWarning: 5 }, 'Content warning must be text'],
      [
        { content: 'x', images: [{ objectPath: theirs, sensitive: 'yes' }] },
        'sensitive must be true or false',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await call(t, 'POST', '/api/posts', member.cookie, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ message, code: 'BAD_REQUEST' });
    }
    // 70,000 characters pass the 64 KB body limit: 413, in the same shape.
    const huge = await call(t, 'POST', '/api/posts', member.cookie, {
      content: 'x',
      contentWarning: 'w'.repeat(70_000),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    // Sensitive or not, another member's upload is not the author's to post.
    const stolen = await call(t, 'POST', '/api/posts', member.cookie, {
      content: 'x',
      images: [{ objectPath: theirs, sensitive: true }],
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().code).toBe('BAD_REQUEST');
  });

  it('reads and updates the two settings, which the session carries', async ({ t }) => {
    const member = await registerUser(t.app);
    const initial = await call(t, 'GET', '/api/settings', member.cookie);
    expect(initial.json()).toMatchObject({
      alwaysShowContentWarnings: false,
      alwaysShowSensitiveMedia: false,
    });
    const put = await call(t, 'PUT', '/api/settings', member.cookie, { alwaysShowContentWarnings: true });
    expect(put.statusCode, put.body).toBe(200);
    const after = await call(t, 'GET', '/api/settings', member.cookie);
    expect(after.json()).toMatchObject({ alwaysShowContentWarnings: true, alwaysShowSensitiveMedia: false });
    const me = await call(t, 'GET', '/api/auth/me', member.cookie);
    expect(me.json().preferences).toEqual({
      alwaysShowContentWarnings: true,
      alwaysShowSensitiveMedia: false,
    });
    const bad = await call(t, 'PUT', '/api/settings', member.cookie, { alwaysShowSensitiveMedia: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      message: 'alwaysShowSensitiveMedia must be true or false',
      code: 'BAD_REQUEST',
      reason: 'SHOW_SENSITIVE_MEDIA_NOT_BOOLEAN',
    });
    const visitor = await call(t, 'PUT', '/api/settings', undefined, { alwaysShowSensitiveMedia: true });
    expect(visitor.statusCode).toBe(401);
  });

  it('are described in the OpenAPI document', async ({ t }) => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const schemas = doc.components.schemas;
    expect(schemas.Post.required).toContain('contentWarning');
    expect(schemas.PostImage.required).toContain('sensitive');
    const json = JSON.stringify(doc);
    for (const name of ['alwaysShowContentWarnings', 'alwaysShowSensitiveMedia', 'imageSensitive']) {
      expect(json).toContain(`"${name}"`);
    }
    expect(json).toContain('"maxLength":200');
  });
});
