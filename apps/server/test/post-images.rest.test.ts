/**
 * POST /api/posts with `images` over HTTP: real uploads (signed PUT, set-acl, re-encoding), the
 * stored sizes in the answer, each image and its thumbnail served, refusals as 400s naming the
 * reason, and the OpenAPI document describing the new fields.
 */
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';
import { uploadPng } from './uploads.js';

/** A finished upload of the member with `cookie`: its object path. */
const uploadImage = (t: TestApp, cookie: string, width: number, height: number) =>
  uploadPng(t.app, cookie, width, height);

/** An upload URL handed out and never finished: its would-be object path. */
async function unfinishedUpload(t: TestApp, cookie: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/objects/upload', headers: { cookie } });
  const { uploadURL } = res.json() as { uploadURL: string };
  return `/objects/${new URL(uploadURL, 'http://x').pathname.replace('/api/objects/put/incoming/', 'uploads/')}`;
}

const create = (t: TestApp, cookie: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/posts', headers: { cookie }, payload: payload as object });

describe('REST /api/posts with images', () => {
  it('takes up to four uploads with descriptions and answers their sizes, thumbnails and alt', async ({
    t,
  }) => {
    const { cookie } = await registerUser(t.app);
    const wide = await uploadImage(t, cookie, 1200, 600);
    const tall = await uploadImage(t, cookie, 300, 900);
    const square = await uploadImage(t, cookie, 400, 400);
    const res = await create(t, cookie, {
      content: 'three shapes',
      images: [
        { objectPath: wide, alt: 'A wide blue band' },
        { objectPath: tall },
        { objectPath: square, alt: 'A blue square 🟦' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { post } = res.json();
    expect(post.imageUrl).toBe(wide);
    expect(post.images).toEqual([
      {
        url: wide,
        thumbUrl: `${wide}/thumb`,
        width: 1200,
        height: 600,
        alt: 'A wide blue band',
        sensitive: false,
      },
      { url: tall, thumbUrl: `${tall}/thumb`, width: 300, height: 900, alt: null, sensitive: false },
      {
        url: square,
        thumbUrl: `${square}/thumb`,
        width: 400,
        height: 400,
        alt: 'A blue square 🟦',
        sensitive: false,
      },
    ]);
    for (const image of post.images as { url: string; thumbUrl: string }[]) {
      for (const url of [image.url, image.thumbUrl]) {
        const got = await t.app.inject({ method: 'GET', url });
        expect(got.statusCode, url).toBe(200);
        expect(got.headers['content-type']).toMatch(/^image\//);
      }
    }
    const feed = (await t.app.inject({ method: 'GET', url: '/api/posts/feed?limit=5' })).json();
    const items: { id: string; images: unknown }[] = Array.isArray(feed) ? feed : feed.items;
    expect(items.find((p) => p.id === post.id)?.images).toEqual(post.images);

    // The older single imageUrl still works: one image, no description.
    const one = await create(t, cookie, { content: 'one', imageUrl: square });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json().post.images).toEqual([
      { url: square, thumbUrl: `${square}/thumb`, width: 400, height: 400, alt: null, sensitive: false },
    ]);
  });

  it('answers 400 with the reason for hostile images', async ({ t }) => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const own = await uploadImage(t, alice.cookie, 50, 50);
    const bobs = await uploadImage(t, bob.cookie, 50, 50);
    const unfinished = await unfinishedUpload(t, alice.cookie);
    const five = [];
    for (let i = 0; i < 5; i++) five.push({ objectPath: await uploadImage(t, alice.cookie, 20 + i, 20) });
    const cases: [unknown, string][] = [
      [{ content: 'x', images: five }, 'A post holds at most 4 images'],
      [
        { content: 'x', images: [{ objectPath: own }, { objectPath: own }] },
        'The same image is attached twice',
      ],
      [{ content: 'x', images: [{ objectPath: bobs }] }, 'Image not found: upload it first'],
      [{ content: 'x', images: [{ objectPath: unfinished }] }, 'Image not found: upload it first'],
      [
        { content: 'x', images: [{ objectPath: own, alt: 'a\u0000b' }] },
        'Image description contains characters that are not allowed',
      ],
      [
        { content: 'x', images: [{ objectPath: own, alt: 'x'.repeat(1501) }] },
        'An image description must be at most 1500 characters',
      ],
      [{ content: 'x', images: 'nope' }, 'Images must be a list'],
      [{ content: 'x', imageUrl: own, images: [{ objectPath: own }] }, 'Send images or imageUrl, not both'],
    ];
    for (const [payload, message] of cases) {
      const res = await create(t, alice.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(400);
      expect(res.json()).toMatchObject({ message, code: 'BAD_REQUEST' });
    }
    // None of them was written.
    const feed = (await t.app.inject({ method: 'GET', url: '/api/posts/feed?limit=50' })).json();
    const items: { content: string }[] = Array.isArray(feed) ? feed : feed.items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.filter((p) => p.content === 'x')).toEqual([]);
  });

  it('PATCH /api/posts/{id} rewrites the descriptions with `alts`, one per image; 400 on a wrong count', async ({
    t,
  }) => {
    const { cookie } = await registerUser(t.app);
    const first = await uploadImage(t, cookie, 80, 60);
    const second = await uploadImage(t, cookie, 60, 80);
    const { post } = (
      await create(t, cookie, { content: 'two', images: [{ objectPath: first }, { objectPath: second }] })
    ).json();
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: `/api/posts/${post.id}`, headers: { cookie }, payload });
    const described = await patch({ content: 'two', alts: ['Sixty by eighty? No: eighty by sixty', null] });
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json().post).toMatchObject({ editedAt: null });
    expect(described.json().post.images.map((i: { alt: string | null }) => i.alt)).toEqual([
      'Sixty by eighty? No: eighty by sixty',
      null,
    ]);
    const wrong = await patch({ content: 'two', alts: ['one only'] });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      message: 'This post has 2 images: send 2 descriptions',
      code: 'BAD_REQUEST',
    });
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const body = JSON.stringify(doc.paths['/api/posts/{id}'].patch.requestBody);
    expect(body).toContain('"alts"');
    expect(body).toContain('"maxLength":1500');
  });

  it('is described in the OpenAPI document', async ({ t }) => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.components.schemas.PostImage).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['url', 'thumbUrl', 'width', 'height', 'alt']),
    });
    expect(doc.components.schemas.Post.properties.images).toMatchObject({
      type: 'array',
      maxItems: 4,
      items: { $ref: '#/components/schemas/PostImage' },
    });
    const body = JSON.stringify(doc.paths['/api/posts'].post.requestBody);
    expect(body).toContain('"images"');
    expect(body).toContain('"alt"');
    expect(body).toContain('"maxItems":4');
    expect(body).toContain('"maxLength":1500');
  });
});
