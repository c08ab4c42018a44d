/**
 * Posts with up to four described images: what `images` accepts and refuses, what every read of
 * a post answers, edits, hidden authors, the data the sweep keeps.
 */
import { UploadedObject } from '@cubes/db';
import { createMemoryStorage } from '@cubes/storage';
import { describe, expect, it } from 'vitest';
import {
  createMember,
  expectCode,
  type Member,
  publicObject,
  useDatabase,
  visitor,
} from '../../../test/harness.js';
import { createMemoryEventBus } from '../../events/event-bus.js';
import { setRole } from '../moderation/moderation.access.js';
import { sweepOrphanUploads } from '../objects/objects.service.js';
import type { LivePostChange } from './post.schema.js';
import { livePostChanges } from './post-changes.service.js';

const db = useDatabase();

/** A finished upload of `member`, stored at `width`×`height`. */
async function upload(member: Member, width = 800, height = 600): Promise<string> {
  const path = await publicObject(db.orm, member.user.id);
  await db.orm.em
    .fork()
    .nativeUpdate(UploadedObject, { key: path.slice('/objects/'.length) }, { width, height });
  return path;
}

describe('posts.create with images', () => {
  it('keeps up to four images in order, with their stored sizes and descriptions, on every read', async () => {
    const alice = await createMember(db.orm, { displayName: 'Alice' });
    const reader = await createMember(db.orm);
    const [a, b, c] = [
      await upload(alice, 1200, 800),
      await upload(alice, 600, 900),
      await upload(alice, 500, 500),
    ];
    const { post } = await alice.caller.posts.create({
      content: 'three cubes',
      images: [
        { objectPath: a, alt: '  A red cube on a desk 🧊  ' },
        { objectPath: b, alt: '' },
        { objectPath: c, alt: 'Line one\nline two' },
      ],
    });
    const expected = [
      {
        url: a,
        thumbUrl: `${a}/thumb`,
        width: 1200,
        height: 800,
        alt: 'A red cube on a desk 🧊',
        sensitive: false,
      },
      { url: b, thumbUrl: `${b}/thumb`, width: 600, height: 900, alt: null, sensitive: false },
      {
        url: c,
        thumbUrl: `${c}/thumb`,
        width: 500,
        height: 500,
        alt: 'Line one\nline two',
        sensitive: false,
      },
    ];
    expect(post.images).toEqual(expected);
    expect(post.imageUrl).toBe(a);

    const reads = [
      (await reader.caller.posts.byId({ postId: post.id })).post,
      (await visitor(db.orm).posts.byId({ postId: post.id })).post,
      (await reader.caller.posts.feed({ limit: 50 })).items.find((p) => p.id === post.id),
      (await reader.caller.users.posts({ userId: alice.user.id })).items[0],
      (await reader.caller.gallery.mediaOf({ userId: alice.user.id })).items[0],
      (await reader.caller.search.query({ q: 'three cubes' })).posts.find((p) => p.id === post.id),
    ];
    for (const read of reads) expect(read).toMatchObject({ id: post.id, imageUrl: a, images: expected });

    const four = await alice.caller.posts.create({
      content: 'four',
      images: [await upload(alice), await upload(alice), await upload(alice), await upload(alice)].map(
        (objectPath) => ({ objectPath }),
      ),
    });
    expect(four.post.images).toHaveLength(4);
    expect(four.post.images.every((i) => i.alt === null)).toBe(true);
  });

  it('takes the older imageUrl as one image without a description; no image is an empty list', async () => {
    const bob = await createMember(db.orm);
    const path = await upload(bob, 640, 480);
    const { post } = await bob.caller.posts.create({ content: 'one', imageUrl: path });
    expect(post.images).toEqual([
      { url: path, thumbUrl: `${path}/thumb`, width: 640, height: 480, alt: null, sensitive: false },
    ]);
    expect(post.imageUrl).toBe(path);
    const plain = await bob.caller.posts.create({ content: 'none' });
    expect(plain.post).toMatchObject({ imageUrl: null, images: [] });
  });

  it('refuses five images, one twice, images with imageUrl, and an empty or malformed list', async () => {
    const carol = await createMember(db.orm);
    const paths = [await upload(carol), await upload(carol), await upload(carol), await upload(carol)];
    const five = [...paths, await upload(carol)].map((objectPath) => ({ objectPath }));
    await expectCode(
      carol.caller.posts.create({ content: 'x', images: five }),
      'BAD_REQUEST',
      'A post holds at most 4 images',
    );
    await expectCode(
      carol.caller.posts.create({
        content: 'x',
        images: [{ objectPath: paths[0]! }, { objectPath: ` ${paths[0]!} ` }],
      }),
      'BAD_REQUEST',
      'The same image is attached twice',
    );
    await expectCode(
      carol.caller.posts.create({ content: 'x', imageUrl: paths[0]!, images: [{ objectPath: paths[1]! }] }),
      'BAD_REQUEST',
      'Send images or imageUrl, not both',
    );
    await expectCode(
      carol.caller.posts.create({ content: 'x', images: [] }),
      'BAD_REQUEST',
      'Images must hold at least one image',
    );
    for (const images of ['a.png', [paths[0]], [{ objectPath: 'https://evil.example/a.png' }], [{}], 42]) {
      await expectCode(carol.caller.posts.create({ content: 'x', images: images as never }), 'BAD_REQUEST');
    }
    // Nothing of those was written.
    expect((await carol.caller.users.posts({ userId: carol.user.id })).items).toEqual([]);
  });

  it('refuses another member’s upload, an unfinished one and an unknown path, whichever image it is', async () => {
    const dave = await createMember(db.orm);
    const erin = await createMember(db.orm);
    const own = await upload(dave);
    const others = await upload(erin);
    const unfinished = await publicObject(db.orm, dave.user.id, 'private');
    for (const bad of [others, unfinished, '/objects/uploads/0b7c1e2f-unknown']) {
      await expectCode(
        dave.caller.posts.create({ content: 'x', images: [{ objectPath: own }, { objectPath: bad }] }),
        'BAD_REQUEST',
        'Image not found: upload it first',
      );
    }
    expect((await dave.caller.users.posts({ userId: dave.user.id })).items).toEqual([]);
  });

  it('checks each description: control characters and NUL refused, 1,500 characters at most', async () => {
    const finn = await createMember(db.orm);
    const path = await upload(finn);
    for (const alt of ['nul \u0000 here', 'bell \u0007', 'esc \u001b[31m', '\ud800 lone']) {
      await expectCode(
        finn.caller.posts.create({ content: 'x', images: [{ objectPath: path, alt }] }),
        'BAD_REQUEST',
        'Image description contains characters that are not allowed',
      );
    }
    await expectCode(
      finn.caller.posts.create({ content: 'x', images: [{ objectPath: path, alt: 'a'.repeat(1501) }] }),
      'BAD_REQUEST',
      'An image description must be at most 1500 characters',
    );
    await expectCode(
      finn.caller.posts.create({ content: 'x', images: [{ objectPath: path, alt: 'a'.repeat(70_000) }] }),
      'BAD_REQUEST',
    );
    await expectCode(
      finn.caller.posts.create({ content: 'x', images: [{ objectPath: path, alt: 42 as never }] }),
      'BAD_REQUEST',
    );
    const longest = 'é'.repeat(1500);
    const { post } = await finn.caller.posts.create({
      content: 'x',
      images: [{ objectPath: path, alt: longest }],
    });
    expect(post.images[0]?.alt).toBe(longest);
  });
});

describe('images after publishing', () => {
  it('stay through an edit, and the revisions still list the replaced text', async () => {
    const gina = await createMember(db.orm);
    const images = [{ objectPath: await upload(gina), alt: 'first' }, { objectPath: await upload(gina) }];
    const { post } = await gina.caller.posts.create({ content: 'before', images });
    const edited = await gina.caller.posts.edit({ postId: post.id, content: 'after' });
    expect(edited.post).toMatchObject({ content: 'after', images: post.images, imageUrl: post.imageUrl });
    expect((await gina.caller.posts.byId({ postId: post.id })).post.images).toEqual(post.images);
    const { revisions } = await gina.caller.posts.revisions({ postId: post.id });
    expect(revisions.map((r) => r.content)).toEqual(['before']);
  });

  it('take new descriptions in an edit: one per image in order, empty removes, the text not marked edited', async () => {
    const bus = createMemoryEventBus();
    const hana = await createMember(db.orm, {}, { bus });
    const other = await createMember(db.orm);
    const images = [{ objectPath: await upload(hana), alt: 'first' }, { objectPath: await upload(hana) }];
    const { post } = await hana.caller.posts.create({ content: 'pictures', images });
    const events: LivePostChange[] = [];
    const controller = new AbortController();
    const listening = (async () => {
      for await (const event of livePostChanges(hana.ctx, controller.signal)) events.push(event);
    })();

    // Only the descriptions change: no revision, not marked edited, told to open feeds.
    const { post: described } = await hana.caller.posts.edit({
      postId: post.id,
      content: 'pictures',
      alts: ['  ', ' a cube on a table '],
    });
    expect(described.images.map((i) => i.alt)).toEqual([null, 'a cube on a table']);
    expect(described.images.map((i) => [i.url, i.width, i.height])).toEqual(
      post.images.map((i) => [i.url, i.width, i.height]),
    );
    expect(described).toMatchObject({ content: 'pictures', editedAt: null, imageUrl: post.imageUrl });
    expect((await hana.caller.posts.revisions({ postId: post.id })).revisions).toEqual([]);
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.images).toEqual(described.images);
    await expect.poll(() => events).toEqual([{ postId: post.id, kind: 'edited' }]);
    events.length = 0;

    // Text and descriptions at once; the same descriptions again change nothing.
    const { post: both } = await hana.caller.posts.edit({
      postId: post.id,
      content: 'pictures, described',
      alts: ['one', 'two'],
    });
    expect(both.images.map((i) => i.alt)).toEqual(['one', 'two']);
    expect(both.editedAt).not.toBeNull();
    const again = await hana.caller.posts.edit({
      postId: post.id,
      content: both.content,
      alts: ['one', 'two'],
    });
    expect(again.post).toEqual(both);
    expect((await hana.caller.posts.revisions({ postId: post.id })).revisions).toHaveLength(1);

    // Refused: a count that is not the post's, bad descriptions, someone else's post, a post without images.
    for (const alts of [['one'], ['one', 'two', 'three'], []]) {
      await expectCode(
        hana.caller.posts.edit({ postId: post.id, content: 'x', alts }),
        'BAD_REQUEST',
        'This post has 2 images: send 2 descriptions',
      );
    }
    for (const alts of [['nul \u0000', 'b'], ['a', 'b'.repeat(1501)], ['a', 42], 'ab', [{}, 'b']]) {
      await expectCode(
        hana.caller.posts.edit({ postId: post.id, content: 'x', alts: alts as never }),
        'BAD_REQUEST',
      );
    }
    await expectCode(
      other.caller.posts.edit({ postId: post.id, content: 'pictures, described', alts: ['mine', 'now'] }),
      'NOT_FOUND',
    );
    const { post: plain } = await hana.caller.posts.create({ content: 'no pictures' });
    await expectCode(
      hana.caller.posts.edit({ postId: plain.id, content: 'no pictures', alts: ['what'] }),
      'BAD_REQUEST',
      'This post has no images to describe',
    );
    expect((await hana.caller.posts.byId({ postId: post.id })).post).toEqual(both);
    controller.abort();
    await listening;
  });

  it('are hidden with their post from a block either way, a mute (feed) and a suspension', async () => {
    const author = await createMember(db.orm);
    const blocker = await createMember(db.orm);
    const blocked = await createMember(db.orm);
    const muter = await createMember(db.orm);
    const { post } = await author.caller.posts.create({
      content: 'hidden pictures',
      images: [{ objectPath: await upload(author), alt: 'secret' }],
    });
    await blocker.caller.safety.block({ userId: author.user.id });
    await author.caller.safety.block({ userId: blocked.user.id });
    await muter.caller.safety.mute({ userId: author.user.id });
    for (const viewer of [blocker, blocked]) {
      await expectCode(viewer.caller.posts.byId({ postId: post.id }), 'NOT_FOUND');
      expect((await viewer.caller.gallery.mediaOf({ userId: author.user.id })).items).toEqual([]);
    }
    const feed = (await muter.caller.posts.feed({ limit: 50 })).items;
    expect(feed.some((p) => p.id === post.id)).toBe(false);

    const mod = await createMember(db.orm);
    await setRole(db.orm.em.fork(), mod.user.username, 'moderator');
    await mod.caller.moderation.suspend({ userId: author.user.id, days: 1, reason: 'x' });
    await expectCode(visitor(db.orm).posts.byId({ postId: post.id }), 'NOT_FOUND');
    expect((await visitor(db.orm).gallery.mediaOf({ userId: author.user.id })).items).toEqual([]);
  });

  it('keep every image’s upload from the sweep until the post is deleted', async () => {
    const storage = createMemoryStorage();
    const hank = await createMember(db.orm);
    const paths = [await upload(hank), await upload(hank), await upload(hank)];
    const { post } = await hank.caller.posts.create({
      content: 'kept',
      images: paths.map((objectPath) => ({ objectPath })),
    });
    const keys = paths.map((p) => p.slice('/objects/'.length));
    // Make them old enough to be swept if nothing used them.
    await db.orm.em
      .fork()
      .nativeUpdate(
        UploadedObject,
        { key: { $in: keys } },
        { createdAt: new Date(Date.now() - 2 * 86_400_000) },
      );
    const stillThere = async () =>
      (await db.orm.em.fork().find(UploadedObject, { key: { $in: keys } })).map((o) => o.key).sort();
    await sweepOrphanUploads(db.orm.em.fork(), storage, new Date());
    expect(await stillThere()).toEqual([...keys].sort());
    await hank.caller.posts.delete({ postId: post.id });
    await sweepOrphanUploads(db.orm.em.fork(), storage, new Date());
    expect(await stillThere()).toEqual([]);
  });
});
