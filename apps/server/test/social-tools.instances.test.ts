/**
 * The social tools across two real server processes on one database: a mention written through
 * A rings the bell of a client on B; a tagged post written through A reaches the tag page's
 * subscription on B, while an untagged one and one by a blocked member do not; images uploaded
 * and posted through A are answered and served by B, and their descriptions rewritten through A
 * reach a client on B live; a bookmark made on B is listed by A, and
 * by nobody else.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@cubes/db/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive, Events, type LiveClient } from './live-client.js';
import { listeningAt, type ServerProcess, START_BOUND_MS, startServer, stopServer } from './ops-instances.js';
import { api, registerOver } from './over-http.js';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
const servers: ServerProcess[] = [];
const clients: LiveClient[] = [];
let a: string;
let b: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-tags-'));
  const env = {
    PORT: '0',
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    RATE_LIMIT_SCALE: '10',
  };
  servers.push(startServer(env), startServer(env));
  const [first, second] = await Promise.all(servers.map((s) => listeningAt(s)));
  if (!first || !second) throw new Error('two servers were to start');
  a = first;
  b = second;
}, 2 * START_BOUND_MS);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => stopServer(s)));
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

let n = 0;
const register = (base: string) => {
  n += 1;
  return registerOver(base, `tags${n}${Math.random().toString(36).slice(2, 6)}`);
};

describe('mentions and tags on two instances', () => {
  it('a mention made through A rings the bell of a client on B', async () => {
    const author = await register(a);
    const mentioned = await register(b);
    const name = (await api(b, 'GET', '/api/auth/me', mentioned.cookie)).body.user.username as string;
    const socket = connectLive(b, { cookie: mentioned.cookie });
    clients.push(socket);
    const bell = new Events<{ id: string; data: { unreadCount: number } }>();
    socket.client.notifications.onChange.subscribe({}, { onData: bell.push, onError: bell.fail });
    expect((await bell.next(5_000)).data.unreadCount).toBe(0);
    const made = await api(a, 'POST', '/api/posts', author.cookie, {
      content: `hello @${name.toUpperCase()}`,
    });
    expect(made.status).toBe(201);
    expect((await bell.next(2_000)).data.unreadCount).toBe(1);
    const list = await api(b, 'GET', '/api/notifications', mentioned.cookie);
    expect(list.body[0]).toMatchObject({
      type: 'mention',
      message: 'mentioned you',
      postId: made.body.post.id,
    });
  });

  it('a tagged post written through A reaches the tag page open on B; others do not', async () => {
    const tag = `live${Math.random().toString(36).slice(2, 7)}`;
    const viewer = await register(b);
    const writer = await register(a);
    const blocked = await register(a);
    expect((await api(b, 'POST', `/api/users/${blocked.id}/block`, viewer.cookie)).status).toBe(200);
    const socket = connectLive(b, { cookie: viewer.cookie });
    clients.push(socket);
    const page = new Events<{ id: string; data: { postId: string } }>();
    socket.client.tags.onNew.subscribe(
      { tag },
      { onStarted: page.start, onData: page.push, onError: page.fail },
    );
    await page.started;
    await api(a, 'POST', '/api/posts', writer.cookie, { content: 'no tag here' });
    await api(a, 'POST', '/api/posts', blocked.cookie, { content: `#${tag} from a blocked member` });
    const made = await api(a, 'POST', '/api/posts', writer.cookie, { content: `#${tag.toUpperCase()} live` });
    expect((await page.next(2_000)).data.postId).toBe(made.body.post.id);
    expect(page.items).toHaveLength(1);
    // The page and counts on B after a reload agree.
    const posts = await api(b, 'GET', `/api/tags/${tag}/posts`, viewer.cookie);
    expect(posts.body.map((p: { id: string }) => p.id)).toEqual([made.body.post.id]);
    expect((await api(b, 'GET', `/api/tags/${tag}`)).body).toEqual({ tag, postsCount: 2, peopleCount: 2 });
  });
});

/** A finished upload of a `width`×`height` PNG through `base`: its object path. */
async function uploadOver(base: string, cookie: string, width: number, height: number): Promise<string> {
  const upload = await api(base, 'POST', '/api/objects/upload', cookie);
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  const uploadURL = upload.body.uploadURL as string;
  const png = await sharp({ create: { width, height, channels: 3, background: '#0ea5e9' } })
    .png()
    .toBuffer();
  const put = await fetch(new URL(uploadURL, base), {
    method: 'PUT',
    body: new Uint8Array(png),
    headers: { 'content-type': 'image/png' },
  });
  expect(put.status, await put.text()).toBe(200);
  const acl = await api(base, 'PUT', '/api/objects/set-acl', cookie, {
    imageURL: uploadURL,
    visibility: 'public',
  });
  expect(acl.status, JSON.stringify(acl.body)).toBe(200);
  return acl.body.objectPath as string;
}

type PostItem = { id: string; isBookmarked: boolean; images: unknown };
/** A page's posts, whether the answer is the list itself or `{ items }`. */
const itemsOf = (body: unknown): PostItem[] =>
  (Array.isArray(body) ? body : (body as { items: PostItem[] }).items) as PostItem[];

describe('images and bookmarks on two instances', () => {
  it('images posted through A are answered and served by B, alt text and sizes included', async () => {
    const author = await register(a);
    const wide = await uploadOver(a, author.cookie, 800, 400);
    const square = await uploadOver(a, author.cookie, 300, 300);
    const made = await api(a, 'POST', '/api/posts', author.cookie, {
      content: 'two images',
      images: [{ objectPath: wide, alt: 'A wide sky-blue band' }, { objectPath: square }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const onB = await api(b, 'GET', `/api/users/${author.id}/posts`);
    expect(onB.status).toBe(200);
    const post = itemsOf(onB.body).find((p) => p.id === made.body.post.id);
    expect(post?.images).toEqual([
      {
        url: wide,
        thumbUrl: `${wide}/thumb`,
        width: 800,
        height: 400,
        alt: 'A wide sky-blue band',
        sensitive: false,
      },
      { url: square, thumbUrl: `${square}/thumb`, width: 300, height: 300, alt: null, sensitive: false },
    ]);
    for (const url of [wide, `${wide}/thumb`, square]) {
      const got = await fetch(`${b}${url}`);
      expect(got.status, url).toBe(200);
      expect(got.headers.get('content-type')).toMatch(/^image\//);
    }
  });

  it('descriptions rewritten through A reach a feed open on B live, and B answers them; the post is not marked edited', async () => {
    const author = await register(a);
    const viewer = await register(b);
    const image = await uploadOver(a, author.cookie, 320, 200);
    const made = await api(a, 'POST', '/api/posts', author.cookie, {
      content: 'one image, described later',
      images: [{ objectPath: image }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const postId = made.body.post.id as string;
    const socket = connectLive(b, { cookie: viewer.cookie });
    clients.push(socket);
    const changes = new Events<{ postId: string; kind: string }>();
    socket.client.posts.onChange.subscribe(undefined, {
      onStarted: changes.start,
      onData: changes.push,
      onError: changes.fail,
    });
    await changes.started;
    const edited = await api(a, 'PATCH', `/api/posts/${postId}`, author.cookie, {
      content: 'one image, described later',
      alts: ['A pale blue band, wider than tall'],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await changes.next(2_000)).toEqual({ postId, kind: 'edited' });
    const onB = await api(b, 'GET', `/api/users/${author.id}/posts`, viewer.cookie);
    const post = itemsOf(onB.body).find((p) => p.id === postId) as PostItem & { editedAt: string | null };
    expect(post.images).toEqual([
      {
        url: image,
        thumbUrl: `${image}/thumb`,
        width: 320,
        height: 200,
        alt: 'A pale blue band, wider than tall',
        sensitive: false,
      },
    ]);
    expect(post.editedAt).toBeNull();
  });

  it("a content warning and a sensitive image written through A are answered by B, its feed and the change after an edit; settings set on A are B's session", async () => {
    const author = await register(a);
    const viewer = await register(b);
    const image = await uploadOver(a, author.cookie, 320, 200);
    // B's first feed page is kept a moment: read it first, so the new post has to drop it.
    await api(b, 'GET', '/api/posts/feed', viewer.cookie);
    const made = await api(a, 'POST', '/api/posts', author.cookie, {
      content: 'behind a warning',
      contentWarning: 'Spiders',
      images: [{ objectPath: image, sensitive: true }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const postId = made.body.post.id as string;
    type Warned = PostItem & { contentWarning: string | null; images: { sensitive: boolean }[] };
    const onB = async () => {
      const feed = await api(b, 'GET', '/api/posts/feed', viewer.cookie);
      return itemsOf(feed.body).find((p) => p.id === postId) as Warned | undefined;
    };
    await expect.poll(async () => (await onB())?.contentWarning, { timeout: 5_000 }).toBe('Spiders');
    expect((await onB())?.images[0]?.sensitive).toBe(true);
    const edited = await api(a, 'PATCH', `/api/posts/${postId}`, author.cookie, {
      content: 'behind a warning',
      contentWarning: '',
      sensitive: [false],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await expect.poll(async () => (await onB())?.contentWarning, { timeout: 5_000 }).toBeNull();
    const byId = await api(b, 'GET', `/api/posts/${postId}`, viewer.cookie);
    expect(byId.body.post).toMatchObject({ contentWarning: null, images: [{ sensitive: false }] });

    const put = await api(a, 'PUT', '/api/settings', viewer.cookie, { alwaysShowSensitiveMedia: true });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const me = await api(b, 'GET', '/api/auth/me', viewer.cookie);
    expect(me.body.preferences).toEqual({ alwaysShowContentWarnings: false, alwaysShowSensitiveMedia: true });
  });

  it('a bookmark made on B is listed by A after a reload, and by nobody else', async () => {
    const reader = await register(b);
    const other = await register(a);
    const writer = await register(a);
    const made = await api(a, 'POST', '/api/posts', writer.cookie, { content: 'keep this one' });
    const id = made.body.post.id as string;
    expect((await api(b, 'POST', `/api/posts/${id}/bookmark`, reader.cookie)).status).toBe(200);
    const listed = await api(a, 'GET', '/api/bookmarks', reader.cookie);
    expect(listed.status).toBe(200);
    const items = itemsOf(listed.body);
    expect(items.map((p) => p.id)).toEqual([id]);
    expect(items[0]?.isBookmarked).toBe(true);
    const seenByOther = itemsOf((await api(a, 'GET', `/api/users/${writer.id}/posts`, other.cookie)).body);
    expect(seenByOther.find((p) => p.id === id)?.isBookmarked).toBe(false);
    expect(itemsOf((await api(a, 'GET', '/api/bookmarks', other.cookie)).body)).toEqual([]);
  });
});
