/**
 * Content warnings and sensitive images (issue #49): what posts.create and posts.edit accept and
 * refuse, what every read answers (quotes included), hidden authors, and the two settings.
 */
import { describe, expect, it } from 'vitest';
import {
  createMember,
  expectCode,
  type Member,
  publicObject,
  useDatabase,
  visitor,
} from '../../../test/harness.js';
import { setRole } from '../moderation/moderation.access.js';

const db = useDatabase();

const upload = (member: Member) => publicObject(db.orm, member.user.id);

describe('posts.create with a content warning and sensitive images', () => {
  it('keeps the trimmed warning and the flags, and every read answers them', async () => {
    const alice = await createMember(db.orm);
    const reader = await createMember(db.orm);
    const [a, b] = [await upload(alice), await upload(alice)];
    const { post } = await alice.caller.posts.create({
      content: 'spoilers for the finale',
      contentWarning: '  Finale spoilers 🎬  ',
      images: [{ objectPath: a, alt: 'The last scene', sensitive: true }, { objectPath: b }],
    });
    expect(post.contentWarning).toBe('Finale spoilers 🎬');
    expect(post.images.map((i) => i.sensitive)).toEqual([true, false]);

    const reads = [
      (await reader.caller.posts.byId({ postId: post.id })).post,
      (await visitor(db.orm).posts.byId({ postId: post.id })).post,
      (await reader.caller.posts.feed({ limit: 50 })).items.find((p) => p.id === post.id),
      (await visitor(db.orm).posts.feed({ limit: 50 })).items.find((p) => p.id === post.id),
      (await reader.caller.users.posts({ userId: alice.user.id })).items[0],
      (await reader.caller.gallery.mediaOf({ userId: alice.user.id })).items[0],
      (await reader.caller.search.query({ q: 'finale' })).posts.find((p) => p.id === post.id),
    ];
    for (const read of reads) {
      expect(read).toMatchObject({
        id: post.id,
        contentWarning: 'Finale spoilers 🎬',
        images: [
          { url: a, sensitive: true },
          { url: b, sensitive: false },
        ],
      });
    }
    await reader.caller.follows.follow({ userId: alice.user.id });
    const following = await reader.caller.posts.feed({ limit: 50, scope: 'following' });
    expect(following.items.find((p) => p.id === post.id)).toMatchObject({
      contentWarning: 'Finale spoilers 🎬',
    });
  });

  it('answers null and false when none are given, and a blank warning is none', async () => {
    const bob = await createMember(db.orm);
    const plain = await bob.caller.posts.create({
      content: 'plain',
      images: [{ objectPath: await upload(bob) }],
    });
    expect(plain.post.contentWarning).toBeNull();
    expect(plain.post.images[0]!.sensitive).toBe(false);
    for (const contentWarning of ['', '   \n\t ', null]) {
      const { post } = await bob.caller.posts.create({ content: 'blank warning', contentWarning });
      expect(post.contentWarning).toBeNull();
    }
  });

  it('refuses a warning over 200 characters, control characters and wrong types', async () => {
    const carl = await createMember(db.orm);
    const tooLong = 'w'.repeat(201);
    await expectCode(
      carl.caller.posts.create({ content: 'x', contentWarning: tooLong }),
      'BAD_REQUEST',
      'A content warning must be at most 200 characters',
    );
    await expectCode(
      carl.caller.posts.create({ content: 'x', contentWarning: 'z'.repeat(70_000) }),
      'BAD_REQUEST',
      'A content warning must be at most 200 characters',
    );
    // 200 is fine, and so are 100 emoji (200 UTF-16 units).
    expect(
      (await carl.caller.posts.create({ content: 'x', contentWarning: 'w'.repeat(200) })).post.contentWarning,
    ).toHaveLength(200);
    expect(
      (await carl.caller.posts.create({ content: 'x', contentWarning: '🧊'.repeat(100) })).post
        .contentWarning,
    ).toBe('🧊'.repeat(100));
    for (const bad of ['nul\u0000here', 'bell\u0007', 'c1\u0085', 'lone \uD800']) {
      await expectCode(
        carl.caller.posts.create({ content: 'x', contentWarning: bad }),
        'BAD_REQUEST',
        'Content warning contains characters that are not allowed',
      );
    }
    await expectCode(
      carl.caller.posts.create({ content: 'x', contentWarning: 5 as never }),
      'BAD_REQUEST',
      'Content warning must be text',
    );
    await expectCode(
      carl.caller.posts.create({
        content: 'x',
        images: [{ objectPath: await upload(carl), sensitive: 'yes' as never }],
      }),
      'BAD_REQUEST',
      'sensitive must be true or false',
    );
    // Nothing was written by the refused ones.
    const mine = (await carl.caller.users.posts({ userId: carl.user.id })).items;
    expect(mine).toHaveLength(2);
  });

  it('refuses a sensitive flag on an image that is not the author’s own upload', async () => {
    const owner = await createMember(db.orm);
    const thief = await createMember(db.orm);
    await expectCode(
      thief.caller.posts.create({
        content: 'x',
        images: [{ objectPath: await upload(owner), sensitive: true }],
      }),
      'BAD_REQUEST',
    );
  });
});

describe('posts.edit of the warning and the flags', () => {
  it('changes and removes the warning and the flags without marking the text edited', async () => {
    const dana = await createMember(db.orm);
    const { post } = await dana.caller.posts.create({
      content: 'before',
      images: [{ objectPath: await upload(dana) }, { objectPath: await upload(dana), alt: 'kept' }],
    });
    const warned = await dana.caller.posts.edit({
      postId: post.id,
      content: 'before',
      contentWarning: ' Loud noises ',
      sensitive: [false, true],
    });
    expect(warned.post).toMatchObject({ contentWarning: 'Loud noises', editedAt: null });
    expect(warned.post.images.map((i) => [i.sensitive, i.alt])).toEqual([
      [false, null],
      [true, 'kept'],
    ]);
    // Left out: kept as they are.
    const same = await dana.caller.posts.edit({ postId: post.id, content: 'after' });
    expect(same.post).toMatchObject({ content: 'after', contentWarning: 'Loud noises' });
    expect(same.post.images.map((i) => i.sensitive)).toEqual([false, true]);
    // alts and sensitive in one edit.
    const both = await dana.caller.posts.edit({
      postId: post.id,
      content: 'after',
      alts: ['new', null],
      sensitive: [true, true],
      contentWarning: '',
    });
    expect(both.post.contentWarning).toBeNull();
    expect(both.post.images.map((i) => [i.sensitive, i.alt])).toEqual([
      [true, 'new'],
      [true, null],
    ]);
    const cleared = await dana.caller.posts.edit({ postId: post.id, content: 'after', contentWarning: 'x' });
    expect(cleared.post.contentWarning).toBe('x');
    expect(
      (await dana.caller.posts.edit({ postId: post.id, content: 'after', contentWarning: null })).post
        .contentWarning,
    ).toBeNull();
  });

  it('refuses flags that do not match the images, a long warning, and others’ posts', async () => {
    const erin = await createMember(db.orm);
    const other = await createMember(db.orm);
    const { post } = await erin.caller.posts.create({
      content: 'one',
      images: [{ objectPath: await upload(erin) }],
    });
    await expectCode(
      erin.caller.posts.edit({ postId: post.id, content: 'one', sensitive: [true, true] }),
      'BAD_REQUEST',
      'This post has 1 image: send 1 sensitive flag',
    );
    await expectCode(
      erin.caller.posts.edit({ postId: post.id, content: 'one', sensitive: ['yes'] as never }),
      'BAD_REQUEST',
    );
    await expectCode(
      erin.caller.posts.edit({ postId: post.id, content: 'one', contentWarning: 'w'.repeat(201) }),
      'BAD_REQUEST',
      'A content warning must be at most 200 characters',
    );
    await expectCode(
      other.caller.posts.edit({
        postId: post.id,
        content: 'one',
        sensitive: [false],
        contentWarning: 'mine',
      }),
      'NOT_FOUND',
    );
    expect((await erin.caller.posts.byId({ postId: post.id })).post).toMatchObject({ contentWarning: null });
  });
});

describe('a quote of a post with a warning', () => {
  it('carries the quoted post’s warning and its image’s flag, and nothing once it is hidden', async () => {
    const author = await createMember(db.orm);
    const quoter = await createMember(db.orm);
    const blocker = await createMember(db.orm);
    const image = await upload(author);
    const { post: quoted } = await author.caller.posts.create({
      content: 'hidden text',
      contentWarning: 'Spiders',
      images: [{ objectPath: image, sensitive: true }],
    });
    const { post } = await quoter.caller.posts.create({ content: 'look', quotePostId: quoted.id });
    expect(post.quote).toMatchObject({
      id: quoted.id,
      contentWarning: 'Spiders',
      imageUrl: `${image}/thumb`,
      imageSensitive: true,
    });
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.quote).toMatchObject({
      contentWarning: 'Spiders',
      imageSensitive: true,
    });
    const plain = await author.caller.posts.create({ content: 'plain' });
    const { post: plainQuote } = await quoter.caller.posts.create({
      content: 'q',
      quotePostId: plain.post.id,
    });
    expect(plainQuote.quote).toMatchObject({ contentWarning: null, imageUrl: null, imageSensitive: false });

    // A block or a suspension hides the quoted post, its warning with it.
    await blocker.caller.safety.block({ userId: author.user.id });
    expect((await blocker.caller.posts.byId({ postId: post.id })).post.quote).toBeNull();
    const mod = await createMember(db.orm);
    await setRole(db.orm.em.fork(), mod.user.username, 'moderator');
    await mod.caller.moderation.suspend({ userId: author.user.id, days: 1, reason: 'x' });
    expect((await visitor(db.orm).posts.byId({ postId: post.id })).post.quote).toBeNull();
    await expectCode(visitor(db.orm).posts.byId({ postId: quoted.id }), 'NOT_FOUND');
  });
});

describe('the two settings', () => {
  it('are off by default, change one at a time, and come with the session', async () => {
    const fay = await createMember(db.orm);
    expect(await fay.caller.settings.get()).toMatchObject({
      alwaysShowContentWarnings: false,
      alwaysShowSensitiveMedia: false,
    });
    expect((await fay.caller.auth.session())?.preferences).toEqual({
      alwaysShowContentWarnings: false,
      alwaysShowSensitiveMedia: false,
    });
    await fay.caller.settings.update({ alwaysShowContentWarnings: true });
    expect(await fay.caller.settings.get()).toMatchObject({
      alwaysShowContentWarnings: true,
      alwaysShowSensitiveMedia: false,
    });
    await fay.caller.settings.update({ alwaysShowSensitiveMedia: true, bio: 'hi' });
    expect((await fay.caller.auth.me()).preferences).toEqual({
      alwaysShowContentWarnings: true,
      alwaysShowSensitiveMedia: true,
    });
    await expectCode(
      fay.caller.settings.update({ alwaysShowSensitiveMedia: 'yes' as never }),
      'BAD_REQUEST',
      'alwaysShowSensitiveMedia must be true or false',
    );
    await expectCode(visitor(db.orm).settings.update({ alwaysShowContentWarnings: true }), 'UNAUTHORIZED');
  });
});
