/**
 * The OpenAPI document at GET /api/openapi.json: its shape, one operation per REST row, and every
 * row answering as documented (the harness checks each answer against the document; this file
 * makes sure each row's success is among them).
 */
import { createRecordingMailer, type RestRow, restRows } from '@cubes/api';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import sharp from 'sharp';
import { describe, expect, vi } from 'vitest';
import { OPENAPI_PATH, openApiDocument, openApiPath } from '../src/rest/openapi.js';
import { itWith } from './fixtures.js';
import { newUserInput, registerUser, sessionCookie, type TestApp, UNKNOWN_ID } from './harness.js';

const mailer = createRecordingMailer();
const it = itWith({ mailer });

function successStatus(route: RestRow): number {
  return route.status ?? 200;
}

type Json = Record<string, unknown>;
interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Json & { operationId: string; responses: Record<string, Json> }>>;
  components: { schemas: Json; responses: Record<string, Json>; securitySchemes: Json };
}

async function served(t: TestApp): Promise<Document> {
  const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(res.statusCode).toBe(200);
  return res.json();
}

function operations(doc: Document) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, path, op })),
  );
}

/** Every `$ref` string in the document, with the value it points at (undefined when it points nowhere). */
function refs(doc: Document): [string, unknown][] {
  const found: [string, unknown][] = [];
  const resolve = (ref: string) =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], doc);
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') found.push([value, resolve(value)]);
        else walk(value);
      }
    }
  };
  walk(doc);
  return found;
}

describe('GET /api/openapi.json', () => {
  it('serves the document built at start, cacheable, revalidated by its ETag', async ({ t }) => {
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument(restRows))));
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    const again = await t.app.inject({
      method: 'GET',
      url: OPENAPI_PATH,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await t.app.inject({
      method: 'GET',
      url: OPENAPI_PATH,
      headers: { 'if-none-match': '"x"' },
    });
    expect(other.statusCode).toBe(200);
  });

  it('is an OpenAPI 3.1 document in shape: every ref resolves, ids unique, path parameters declared', async ({
    t,
  }) => {
    const doc = await served(t);
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Error', 'User', 'Post']));
    for (const [ref, target] of refs(doc)) {
      expect(ref, ref).toMatch(/^#\/components\/(schemas|responses)\//);
      expect(target, ref).toBeDefined();
    }
    const ids = operations(doc).map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, path, op } of operations(doc)) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = ((op.parameters ?? []) as { name: string; in: string; required: boolean }[]).filter(
        (p) => p.in === 'path',
      );
      expect(
        declared.map((p) => p.name),
        key,
      ).toEqual(inPath);
      expect(
        declared.every((p) => p.required),
        key,
      ).toBe(true);
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect(success, key).toHaveLength(1);
      expect(op.responses[429], key).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    }
    for (const [name, response] of Object.entries(doc.components.responses)) {
      const schema = (response.content as Record<string, { schema: { allOf: Json[] } }>)['application/json']!
        .schema;
      expect(schema.allOf[0], name).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(doc.components.responses.TooManyRequests!.headers).toHaveProperty('Retry-After');
  });

  it('has exactly one operation per REST row, and the document itself', async ({ t }) => {
    const doc = await served(t);
    const documented = operations(doc)
      .map((o) => o.key)
      .sort();
    const rows = [...restRows.map((r) => `${r.method} ${openApiPath(r.path)}`), `GET ${OPENAPI_PATH}`].sort();
    expect(documented).toEqual(rows);
    for (const route of restRows) {
      const op = doc.paths[openApiPath(route.path)]![route.method.toLowerCase()]!;
      expect(op.operationId).toBe(route.procedure);
      const success = op.responses[String(successStatus(route))] as Json;
      expect(success, route.procedure).toBeDefined();
      // Paged rows, and only they, send X-Next-Cursor.
      expect(Object.keys((success.headers ?? {}) as Json), route.procedure).toEqual(
        'paged' in route ? ['X-Next-Cursor'] : [],
      );
      expect(op.security, route.procedure).toEqual(
        'auth' in route ? [{ session: [] }] : [{}, { session: [] }],
      );
    }
  });

  it('documents the body as the procedure input minus what comes from the path and query', async ({ t }) => {
    const doc = await served(t);
    const comment = doc.paths['/api/posts/{id}/comments']!.post! as unknown as {
      requestBody: { content: Record<string, { schema: { properties: Json; required: string[] } }> };
    };
    const body = comment.requestBody.content['application/json']!.schema;
    expect(Object.keys(body.properties)).toEqual(['content']);
    expect(body.required).toEqual(['content']);
    const feed = doc.paths['/api/posts/feed']!.get!;
    expect(feed.requestBody).toBeUndefined();
    expect(feed.parameters).toEqual([
      {
        name: 'cursor',
        in: 'query',
        required: false,
        schema: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          allOf: [
            { pattern: '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]*$' },
            { pattern: '^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$' },
          ],
        },
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { default: 20, type: 'integer', minimum: 1, maximum: 50 },
      },
      {
        name: 'scope',
        in: 'query',
        required: false,
        schema: { default: 'everyone', type: 'string', enum: ['everyone', 'following'] },
      },
    ]);
    const register = doc.paths['/api/auth/register']!.post! as unknown as {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(register.requestBody.content['application/json']!.schema.required).toEqual([
      'username',
      'email',
      'password',
      'displayName',
    ]);
  });
});

describe('the REST rows against their document', () => {
  it('asks for a login exactly where the document says so', async ({ t }) => {
    const doc = await served(t);
    for (const route of restRows) {
      const op = doc.paths[openApiPath(route.path)]![route.method.toLowerCase()]!;
      const res = await t.app.inject({
        method: route.method,
        url: route.path.replace(/:[A-Za-z]+/g, UNKNOWN_ID),
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      const loginRequired = res.statusCode === 401 && res.json().message === 'You need to be logged in';
      expect(loginRequired, `${route.method} ${route.path}`).toBe(
        JSON.stringify(op.security) === JSON.stringify([{ session: [] }]),
      );
    }
  });

  it('answers every row’s success as documented', async ({ t }) => {
    const inject = async (
      method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      url: string,
      cookie: string | null,
      payload?: object,
    ) => {
      const res = await t.app.inject({
        method,
        url,
        ...(cookie ? { headers: { cookie } } : {}),
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res;
    };
    const author = await registerUser(t.app);
    const fan = await registerUser(t.app);
    await inject('POST', '/api/auth/login', null, {
      email: author.input.email,
      password: author.input.password,
    });
    await inject('GET', '/api/auth/me', author.cookie);

    const first = (await inject('POST', '/api/posts', author.cookie, { content: 'first 🧊' })).json().post;
    await inject('POST', '/api/posts', author.cookie, { content: 'second', imageUrl: null });
    const feed = await inject('GET', '/api/posts/feed?limit=1', fan.cookie);
    expect(feed.headers['x-next-cursor']).toEqual(expect.any(String));
    await inject('GET', `/api/posts/${first.id}`, null);
    await inject('POST', `/api/posts/${first.id}/like`, fan.cookie, {});
    await inject('DELETE', `/api/posts/${first.id}/like`, fan.cookie);
    await inject('POST', `/api/posts/${first.id}/like`, fan.cookie, {});
    await inject('POST', `/api/posts/${first.id}/bookmark`, fan.cookie, {});
    await inject('DELETE', `/api/posts/${first.id}/bookmark`, fan.cookie);
    await inject('POST', `/api/posts/${first.id}/bookmark`, fan.cookie, {});
    await inject('GET', '/api/bookmarks?limit=1', fan.cookie);
    await inject('DELETE', `/api/posts/${first.id}/link-card`, author.cookie);
    // Reposts and pins (their rows came without a call here).
    await inject('POST', `/api/posts/${first.id}/repost`, fan.cookie, {});
    await inject('DELETE', `/api/posts/${first.id}/repost`, fan.cookie);
    await inject('POST', `/api/posts/${first.id}/pin`, author.cookie, {});
    await inject('DELETE', `/api/posts/${first.id}/pin`, author.cookie);
    const polled = await inject('POST', '/api/posts', author.cookie, {
      content: 'a poll',
      poll: { options: ['yes', 'no'], expiresInMinutes: 5 },
    });
    await inject('POST', `/api/posts/${polled.json().post.id}/poll/votes`, fan.cookie, { choices: [0] });
    await inject('GET', '/api/users/suggestions?limit=3', fan.cookie);
    await inject('POST', `/api/posts/${first.id}/comments`, fan.cookie, { content: 'one' });
    await inject('POST', `/api/posts/${first.id}/comments`, author.cookie, { content: 'two' });
    const comments = await inject('GET', `/api/posts/${first.id}/comments?limit=1`, null);
    expect(comments.headers['x-next-cursor']).toEqual(expect.any(String));
    const following = await inject('GET', '/api/posts/feed?scope=following&limit=1', author.cookie);
    expect(following.headers['x-next-cursor']).toEqual(expect.any(String));
    const doomed = (await inject('POST', '/api/posts', author.cookie, { content: 'doomed' })).json().post;
    await inject('PATCH', `/api/posts/${doomed.id}`, author.cookie, { content: 'doomed, edited' });
    await inject('GET', `/api/posts/${doomed.id}/revisions`, null);
    const gone = (
      await inject('POST', `/api/posts/${doomed.id}/comments`, fan.cookie, { content: 'x' })
    ).json();
    await inject('DELETE', `/api/comments/${gone.id}`, author.cookie);
    await inject('DELETE', `/api/posts/${doomed.id}`, author.cookie);
    await inject('POST', '/api/reports', fan.cookie, {
      targetType: 'post',
      targetId: first.id,
      reason: 'Spam',
    });

    await inject('GET', `/api/users/by-username/${author.user.username}`, fan.cookie);
    await inject('GET', `/api/users/${author.user.id}/stats`, null);
    const posts = await inject('GET', `/api/users/${author.user.id}/posts?limit=1`, null);
    expect(posts.headers['x-next-cursor']).toEqual(expect.any(String));
    await inject('POST', `/api/users/${author.user.id}/follow`, fan.cookie);
    await inject('DELETE', `/api/users/${author.user.id}/follow`, fan.cookie);
    await inject('POST', `/api/users/${author.user.id}/follow`, fan.cookie);
    await inject('GET', `/api/users/${author.user.id}/followers?limit=1`, fan.cookie);
    await inject('GET', `/api/users/${fan.user.id}/following`, null);
    await inject('POST', '/api/posts', fan.cookie, { content: '#openapi and #open_api' });
    await inject('GET', '/api/tags/openapi/posts?limit=1', null);
    await inject('GET', '/api/tags/openapi', null);
    await inject('GET', '/api/tags/trending', null);
    await inject('GET', '/api/tags/search?q=open', null);
    await inject('GET', `/api/mentions/suggest?q=${author.user.username.slice(0, 3)}`, fan.cookie);

    const notifications = await inject('GET', '/api/notifications', author.cookie);
    expect(
      notifications
        .json()
        .map((n: { type: string }) => n.type)
        .sort(),
    ).toEqual(['comment', 'follow', 'like']);
    await inject('GET', '/api/notifications/unread-count', author.cookie);
    const notificationPage = await inject('GET', '/api/notifications/page?filter=all&limit=1', author.cookie);
    expect(notificationPage.headers['x-next-cursor']).toEqual(expect.any(String));
    await inject('POST', `/api/notifications/${notificationPage.json()[0].id}/read`, author.cookie);
    const groupLike = notifications.json().find((n: { type: string }) => n.type === 'like');
    await inject('GET', `/api/notifications/${groupLike.id}/actors?limit=1`, author.cookie);
    await inject('POST', '/api/notifications/mark-all-read', author.cookie);

    await inject('POST', '/api/messages', fan.cookie, { receiverId: author.user.id, content: 'hi 🧊' });
    await inject('POST', '/api/messages', author.cookie, {
      receiverId: fan.user.id,
      content: 'hey',
      clientId: 'c1',
    });
    await inject('GET', '/api/messages/conversations', author.cookie);
    await inject('GET', '/api/messages/unread-count', author.cookie);
    const thread = await inject('GET', `/api/messages/${fan.user.id}?limit=1`, author.cookie);
    expect(thread.headers['x-next-cursor']).toEqual(expect.any(String));
    await inject('POST', `/api/messages/${author.user.id}/read`, fan.cookie);

    const { uploadURL } = (await inject('POST', '/api/objects/upload', author.cookie)).json();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const put = await t.app.inject({
      method: 'PUT',
      url: uploadURL,
      payload: png,
      headers: { 'content-type': 'image/png' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const { objectPath } = (
      await inject('PUT', '/api/objects/set-acl', author.cookie, {
        imageURL: uploadURL,
        visibility: 'public',
      })
    ).json();
    await inject('PUT', '/api/users/profile-image', author.cookie, { objectPath });
    await inject('PUT', '/api/users/banner-image', author.cookie, { objectPath });

    const cubey = (
      await inject('POST', '/api/cubey/chat', fan.cookie, { message: 'What is trending?' })
    ).json();
    await inject('GET', '/api/cubey/sessions', fan.cookie);
    const [question] = (
      await inject('GET', `/api/cubey/sessions/${cubey.sessionId}/messages`, fan.cookie)
    ).json();
    await inject('GET', '/api/cubey/usage', fan.cookie);
    await inject('GET', '/api/cubey/search?query=trending', fan.cookie);
    await inject('PATCH', `/api/cubey/sessions/${cubey.sessionId}`, fan.cookie, { title: 'Trends' });
    const edited = (
      await inject('PUT', `/api/cubey/messages/${question.id}`, fan.cookie, { message: 'How do I post?' })
    ).json();
    // Its answer stopped at once (tRPC only), so the first version can be shown.
    await t.app.inject({
      method: 'POST',
      url: '/trpc/cubey.stop',
      headers: { cookie: fan.cookie },
      payload: { json: { messageId: edited.reply.id } },
    });
    await inject('POST', `/api/cubey/messages/${question.id}/show`, fan.cookie);
    await inject('DELETE', `/api/cubey/sessions/${cubey.sessionId}`, fan.cookie);
    await inject('POST', `/api/cubey/sessions/${cubey.sessionId}/restore`, fan.cookie);

    const fanElsewhere = await inject('POST', '/api/auth/login', null, {
      email: fan.input.email,
      password: fan.input.password,
    });
    const fanSessions = (await inject('GET', '/api/sessions', fan.cookie)).json().sessions as {
      id: string;
      current: boolean;
    }[];
    await inject('DELETE', `/api/sessions/${fanSessions.find((s) => !s.current)!.id}`, fan.cookie);
    await inject('POST', '/api/auth/login', null, { email: fan.input.email, password: fan.input.password });
    await inject('POST', '/api/sessions/end-others', fan.cookie);
    expect(fanElsewhere.statusCode).toBe(200);

    await inject('GET', '/api/settings', author.cookie);
    await inject('PUT', '/api/settings', author.cookie, { bio: 'Cubes ✨', emailVisible: true });
    await inject('GET', `/api/users/by-username/${author.user.username}`, null);
    const moved = newUserInput('moved');
    await inject('POST', '/api/settings/email', author.cookie, {
      email: moved.email,
      password: author.input.password,
    });
    await inject('POST', '/api/settings/email/confirm', author.cookie, { code: mailer.sent.at(-1)!.code });
    await inject('POST', '/api/settings/password', author.cookie, {
      currentPassword: author.input.password,
      newPassword: 'another-secret',
    });

    await inject('POST', '/api/auth/forgot-password', null, { email: fan.input.email });
    const code = mailer.sent.at(-1)!.code;
    await inject('POST', '/api/auth/reset-password', null, {
      email: fan.input.email,
      code,
      newPassword: 'brand-new-secret',
    });
    const again = await inject('POST', '/api/auth/login', null, {
      email: fan.input.email,
      password: 'brand-new-secret',
    });
    await inject('POST', '/api/auth/logout', sessionCookie(again));

    const mediaId = '11111111-1111-4111-8111-111111111111';
    await t.orm.em
      .fork()
      .execute(
        `insert into ai_media (id, type, title, image_url, width, height, creator_id) values (?, 'art', 'Neon cube', ?, 64, 48, ?)`,
        [mediaId, objectPath, author.user.id],
      );
    await inject('GET', '/api/search?q=neon%20cub', fan.cookie);
    await inject('GET', '/api/search/suggestions', null);
    await inject('POST', `/api/gallery/${mediaId}/favorite`, author.cookie);
    await inject('DELETE', `/api/gallery/${mediaId}/favorite`, author.cookie);
    await inject('POST', `/api/gallery/${mediaId}/favorite`, author.cookie);
    await inject('GET', '/api/gallery?type=art', author.cookie);
    await inject('GET', '/api/gallery/favorites', author.cookie);
    await inject('GET', `/api/users/${author.user.id}/favorites`, null);
    await inject('GET', `/api/users/${author.user.id}/media`, null);
    for (const path of ['block', 'mute']) {
      await inject('POST', `/api/users/${fan.user.id}/${path}`, author.cookie);
      await inject('DELETE', `/api/users/${fan.user.id}/${path}`, author.cookie);
    }
    await inject('GET', '/api/health', null);
    await inject('GET', '/api/ready', null);

    const leaver = await registerUser(t.app);
    await inject('GET', '/api/account/export', leaver.cookie);
    await inject('POST', '/api/account/export', leaver.cookie);
    await vi.waitFor(
      async () =>
        expect((await inject('GET', '/api/account/export', leaver.cookie)).json()).toMatchObject({
          status: 'done',
        }),
      { timeout: 10_000, interval: 25 },
    );
    await inject('POST', '/api/account/delete', leaver.cookie, { password: leaver.input.password });

    const pusher = await registerUser(t.app);
    await inject('GET', '/api/push/key', null);
    const subscription = {
      // A public address literal: subscribing resolves the host, and no DNS answers here.
      endpoint: 'https://8.8.8.8/send/abc',
      keys: {
        p256dh: Buffer.alloc(65, 4).toString('base64url'),
        auth: Buffer.alloc(16, 1).toString('base64url'),
      },
    };
    await inject('POST', '/api/push/subscriptions', pusher.cookie, subscription);
    // Removed at once: no push is ever sent to this made-up endpoint.
    await inject('DELETE', '/api/push/subscriptions', pusher.cookie, { endpoint: subscription.endpoint });
    await inject('GET', '/api/push/preferences', pusher.cookie);
    await inject('PATCH', '/api/push/preferences', pusher.cookie, { likes: false });

    const missing = restRows
      .map((route) => `${route.procedure} ${successStatus(route)}`)
      .filter((answer) => !t.contract.seen.has(answer));
    expect(missing).toEqual([]);
    expect(t.contract.problems).toEqual([]);
  });

  it('documents the error answers rows give', async ({ t }) => {
    const { cookie } = await registerUser(t.app);
    const answers = [
      await t.app.inject({
        method: 'POST',
        url: '/api/posts',
        headers: { cookie },
        payload: { content: '' },
      }),
      await t.app.inject({ method: 'GET', url: '/api/settings' }),
      await t.app.inject({ method: 'POST', url: `/api/posts/${UNKNOWN_ID}/like`, headers: { cookie } }),
      await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: newUserInput('x') }),
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { origin: 'https://elsewhere.example' },
      }),
      await t.app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: { cookie, 'content-type': 'application/xml' },
        payload: '<bio/>',
      }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([400, 401, 404, 201, 403, 415]);
    const register = newUserInput('taken');
    await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: register });
    const taken = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: register });
    expect(taken.statusCode).toBe(409);
    for (const seen of ['posts.create 400', 'settings.get 401', 'posts.like 404', 'auth.register 409']) {
      expect(t.contract.seen.has(seen), seen).toBe(true);
    }
    expect(t.contract.problems).toEqual([]);
  });
});

describe('the document is as strict as the server (issue #45)', () => {
  /** The schema of a body or of one parameter of the operation at `method path`. */
  function schemaOf(doc: Document, method: string, path: string, part: string): Json {
    const op = doc.paths[path]![method]! as unknown as {
      parameters?: { name: string; schema: Json }[];
      requestBody?: { content: { 'application/json': { schema: Json } } };
    };
    if (part === 'body') return op.requestBody!.content['application/json'].schema;
    return op.parameters!.find((p) => p.name === part)!.schema;
  }

  it('refuses each value the server refuses for its shape', async ({ t }) => {
    const doc = await served(t);
    const { cookie } = await registerUser(t.app);
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const keys = {
      p256dh: Buffer.alloc(65, 4).toString('base64url'),
      auth: Buffer.alloc(16, 1).toString('base64url'),
    };
    const endpoint = 'https://push.example.com/send/abc';
    const cases: {
      rule: string;
      method: 'GET' | 'POST' | 'PATCH';
      path: string;
      part: string;
      value: unknown;
    }[] = [
      {
        rule: 'an e-mail address',
        method: 'POST',
        path: '/api/auth/register',
        part: 'body',
        value: { ...newUserInput('mail'), email: 'not-an-address' },
      },
      {
        rule: 'an e-mail address',
        method: 'POST',
        path: '/api/auth/forgot-password',
        part: 'body',
        value: { email: 'nobody-at-example.com' },
      },
      {
        rule: 'no control characters',
        method: 'POST',
        path: '/api/posts',
        part: 'body',
        value: { content: 'bell \u0007 here' },
      },
      {
        rule: 'no lone surrogate',
        method: 'POST',
        path: '/api/posts',
        part: 'body',
        value: { content: 'half \uD83D here' },
      },
      { rule: 'a tag’s characters', method: 'GET', path: '/api/tags/{tag}', part: 'tag', value: 'two words' },
      {
        rule: 'a tag’s 64 characters',
        method: 'GET',
        path: '/api/tags/{tag}',
        part: 'tag',
        value: 'a'.repeat(65),
      },
      { rule: 'a tag has a letter', method: 'GET', path: '/api/tags/{tag}', part: 'tag', value: '2026' },
      { rule: 'a cursor', method: 'GET', path: '/api/posts/feed', part: 'cursor', value: 'not a cursor!' },
      { rule: 'a cursor', method: 'GET', path: '/api/posts/feed', part: 'cursor', value: 'abcde' },
      {
        rule: 'a push key’s length',
        method: 'POST',
        path: '/api/push/subscriptions',
        part: 'body',
        value: { endpoint, keys: { ...keys, p256dh: 'AAAA' } },
      },
      {
        rule: 'a push key’s length',
        method: 'POST',
        path: '/api/push/subscriptions',
        part: 'body',
        value: { endpoint, keys: { ...keys, auth: `${keys.auth}AA` } },
      },
      {
        rule: 'something to change',
        method: 'PATCH',
        path: '/api/push/preferences',
        part: 'body',
        value: {},
      },
      {
        rule: 'images or imageUrl, not both',
        method: 'POST',
        path: '/api/posts',
        part: 'body',
        value: {
          content: 'both',
          imageUrl: '/objects/a/b.png',
          images: [{ objectPath: '/objects/a/c.png' }],
        },
      },
    ];
    const loose: string[] = [];
    for (const { rule, method, path, part, value } of cases) {
      const where = `${rule}: ${method} ${path} ${part} ${JSON.stringify(value).slice(0, 80)}`;
      const validate = ajv.compile({
        ...schemaOf(doc, method.toLowerCase(), path, part),
        components: doc.components,
      });
      if (validate(value)) loose.push(where);
      const url =
        part === 'body'
          ? path
          : path.includes(`{${part}}`)
            ? path.replace(`{${part}}`, encodeURIComponent(String(value)))
            : `${path}?${new URLSearchParams({ [part]: String(value) })}`;
      const res = await t.app.inject({
        method,
        url,
        headers: { cookie },
        ...(part === 'body' ? { payload: value as object } : {}),
      });
      expect(res.statusCode, `the server takes ${where}`).toBe(400);
    }
    expect(loose, 'values the document allows and the server refuses').toEqual([]);
    // The rules hold no more than the server's: what it takes, the document allows.
    const valid = ajv.compile({
      ...schemaOf(doc, 'post', '/api/posts', 'body'),
      components: doc.components,
    });
    for (const body of [
      { content: 'emoji 🧊 with a tab\tand a line\nfeed' },
      { content: 'one', imageUrl: '/objects/a/b.png' },
      { content: 'two', images: [{ objectPath: '/objects/a/c.png' }], imageUrl: null },
    ]) {
      expect(valid(body), JSON.stringify(body)).toBe(true);
    }
  });
});

// Last: it takes the database away from this file's app.
describe('GET /api/ready and /api/health without a database', () => {
  it('readiness answers 503 with the documented body naming the check; liveness still 200', async ({ t }) => {
    await t.orm.close(true);
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      ready: false,
      checks: { database: false, bus: true, migrations: false, running: true },
      failed: ['database', 'migrations'],
    });
    expect(t.contract.seen.has('health.ready 503')).toBe(true);
    const live = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ ok: true });
    expect(t.contract.problems).toEqual([]);
  });
});
