import { createHash, randomUUID } from 'node:crypto';
import { createMemoryStorage } from '@cubes/storage';
import { describe, expect, it, vi } from 'vitest';
import { callerFor, expectCode, useDatabase } from '../../../test/harness.js';
import { readZip } from '../../../test/zip-reader.js';
import { resolveSession } from '../sessions/sessions.service.js';
import {
  DELETED_USER_NAME,
  EXPORT_KEEP_MS,
  findExportDownload,
  isUsernameHeld,
  releaseHeldUsernames,
  sweepExpiredExports,
  USERNAME_HOLD_MS,
  WRONG_PASSWORD,
} from './account.service.js';

const db = useDatabase();

const storage = createMemoryStorage();

/** Letters only, so a username is one word of the search vocabulary, as a real one often is. */
function letters(n: number): string {
  return Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
}

/** A registered member with a real password and session, sharing one storage with the others. */
async function member(prefix: string, now?: () => Date) {
  const username = `${prefix}${letters(8)}`;
  const input = {
    username,
    email: `${username}@mail.example`,
    password: 'secret12',
    displayName: `${prefix} ${letters(6)}`,
  };
  const { caller, jar } = callerFor(db.orm, { token: null }, { storage, ...(now ? { now } : {}) });
  const { user } = await caller.auth.register(input);
  const session = await resolveSession(db.orm.em.fork(), jar.token!, new Date());
  const signed = callerFor(db.orm, jar, { session, storage, ...(now ? { now } : {}) });
  return { input, user, jar, token: jar.token!, caller: signed.caller, ctx: signed.ctx };
}

/** An uploaded image of `ownerId`: the row and its bytes. */
async function upload(ownerId: string, bytes: Buffer) {
  const key = `uploads/${randomUUID()}`;
  await db.orm.em.fork().execute(
    `insert into uploaded_objects (key, owner_id, content_type, size, visibility, width, height, thumb_key, created_at)
       values (?, ?, 'image/png', ?, 'public', 1, 1, ?, now())`,
    [key, ownerId, bytes.length, `${key}-thumb`],
  );
  await storage.put(key, bytes, 'image/png');
  await storage.put(`${key}-thumb`, bytes, 'image/png');
  return { key, objectPath: `/objects/${key}` };
}

async function chat(ownerId: string, title: string, content: string) {
  const em = db.orm.em.fork();
  const id = randomUUID();
  await em.execute('insert into chat_sessions (id, owner_id, title) values (?, ?, ?)', [id, ownerId, title]);
  await em.execute(`insert into chat_messages (id, session_id, role, content) values (?, ?, 'user', ?)`, [
    randomUUID(),
    id,
    content,
  ]);
}

async function media(creatorId: string, title: string): Promise<string> {
  const id = randomUUID();
  await db.orm.em
    .fork()
    .execute(
      `insert into ai_media (id, type, title, image_url, width, height, creator_id) values (?, 'art', ?, '/x.png', 1, 1, ?)`,
      [id, title, creatorId],
    );
  return id;
}

type Caller = Awaited<ReturnType<typeof member>>['caller'];
async function exportDone(caller: Caller) {
  return vi.waitFor(
    async () => {
      const state = await caller.account.export();
      expect(state?.status).toBe('done');
      return state!;
    },
    { timeout: 10_000, interval: 25 },
  );
}

function json(files: Map<string, Buffer>, name: string): unknown {
  const file = files.get(name);
  if (!file) throw new Error(`${name} missing from the export`);
  return JSON.parse(file.toString('utf8'));
}

describe('account.requestExport / account.export', () => {
  it('builds a zip with the member’s own data and files, and nothing private of anyone else', async () => {
    const alice = await member('alice');
    const bob = await member('bob');
    const carol = await member('carol');
    const image = Buffer.from('png-bytes-of-alice');
    const { objectPath } = await upload(alice.user.id, image);
    const { post } = await alice.caller.posts.create({
      content: 'Alice builds a cube 🧊',
      images: [{ objectPath, alt: 'An ice cube, close up' }],
    });
    const { post: bobPost } = await bob.caller.posts.create({ content: 'Bob posts' });
    await alice.caller.posts.like({ postId: bobPost.id });
    await alice.caller.bookmarks.add({ postId: bobPost.id });
    await alice.caller.reposts.add({ postId: bobPost.id });
    const { post: carolPost } = await carol.caller.posts.create({ content: 'Carol posts' });
    await bob.caller.bookmarks.add({ postId: carolPost.id });
    await alice.caller.comments.create({ postId: bobPost.id, content: 'Nice one, Bob' });
    await alice.caller.follows.follow({ userId: bob.user.id });
    await bob.caller.follows.follow({ userId: alice.user.id });
    await alice.caller.messages.send({ receiverId: bob.user.id, content: 'hi bob' });
    await bob.caller.messages.send({ receiverId: alice.user.id, content: 'hi alice' });
    await bob.caller.messages.send({ receiverId: carol.user.id, content: 'bob-to-carol secret' });
    await chat(alice.user.id, 'Alice asks Cubey', 'what is a cube?');
    await chat(bob.user.id, 'Bob private chat', 'bob secret question');
    const mediaId = await media(bob.user.id, 'Bob art');
    await alice.caller.gallery.favorite({ mediaId });
    await alice.caller.push.updatePreferences({ likes: false });

    expect(await alice.caller.account.export()).toBeNull();
    const started = await alice.caller.account.requestExport();
    expect(['queued', 'running', 'done']).toContain(started.status);
    const done = await exportDone(alice.caller);
    expect(done).toMatchObject({ id: started.id, progress: 100, downloadUrl: `/exports/${started.id}` });
    // ISO 8601 text, as the REST contract (accountExportSchema) sends it.
    expect(new Date(done.finishedAt!).toISOString()).toBe(done.finishedAt);

    // Only its owner can download it.
    expect(await findExportDownload(db.orm.em.fork(), bob.user.id, done.id)).toBeNull();
    const download = await findExportDownload(db.orm.em.fork(), alice.user.id, done.id);
    expect(download).toMatchObject({ username: alice.input.username, size: done.size });
    expect(await bob.caller.account.export()).toBeNull();

    const archive = await storage.read(download!.objectKey);
    expect(archive.length).toBe(done.size);
    const files = readZip(archive);
    expect([...files.keys()].sort()).toEqual(
      [
        'README.txt',
        'bookmarks.json',
        'comments.json',
        'cubey-chats.json',
        'favorites.json',
        'follows.json',
        'gallery.json',
        'likes.json',
        'messages.json',
        'posts.json',
        'profile.json',
        'reposts.json',
        'uploads.json',
        `uploads/${objectPath.split('/').pop()}.png`,
      ].sort(),
    );
    expect(json(files, 'profile.json')).toMatchObject({
      id: alice.user.id,
      username: alice.input.username,
      email: alice.input.email,
      displayName: alice.input.displayName,
      pushNotifications: { likes: false, comments: true, follows: true, mentions: true, messages: true },
    });
    expect(json(files, 'posts.json')).toEqual([
      expect.objectContaining({
        id: post.id,
        content: 'Alice builds a cube 🧊',
        imageUrl: objectPath,
        images: [expect.objectContaining({ url: objectPath, alt: 'An ice cube, close up' })],
      }),
    ]);
    expect(json(files, 'comments.json')).toEqual([
      expect.objectContaining({ postId: bobPost.id, content: 'Nice one, Bob' }),
    ]);
    expect(json(files, 'likes.json')).toEqual([expect.objectContaining({ postId: bobPost.id })]);
    expect(json(files, 'reposts.json')).toEqual([expect.objectContaining({ postId: bobPost.id })]);
    // Only her own bookmarks: Bob's of Carol's post is his.
    expect(json(files, 'bookmarks.json')).toEqual([
      { postId: bobPost.id, createdAt: expect.stringMatching(/Z$/) },
    ]);
    expect(json(files, 'follows.json')).toEqual({
      following: [expect.objectContaining({ userId: bob.user.id, username: bob.input.username })],
      followers: [expect.objectContaining({ userId: bob.user.id, username: bob.input.username })],
    });
    expect(json(files, 'favorites.json')).toEqual([expect.objectContaining({ mediaId, title: 'Bob art' })]);
    expect(json(files, 'messages.json')).toEqual([
      expect.objectContaining({
        direction: 'sent',
        content: 'hi bob',
        peer: { userId: bob.user.id, username: bob.input.username },
      }),
      expect.objectContaining({ direction: 'received', content: 'hi alice' }),
    ]);
    expect(json(files, 'cubey-chats.json')).toEqual([
      expect.objectContaining({
        title: 'Alice asks Cubey',
        messages: [expect.objectContaining({ role: 'user', content: 'what is a cube?' })],
      }),
    ]);
    expect(json(files, 'uploads.json')).toEqual([
      expect.objectContaining({
        objectPath,
        contentType: 'image/png',
        file: `uploads/${objectPath.split('/').pop()}.png`,
      }),
    ]);
    expect(files.get(`uploads/${objectPath.split('/').pop()}.png`)).toEqual(image);

    // Nothing private of another member: not Bob's e-mail, chats or his other conversation.
    const everything = [...files.values()].map((b) => b.toString('latin1')).join('\n');
    for (const secret of [
      bob.input.email,
      carol.input.username,
      carol.input.email,
      'bob-to-carol secret',
      'Bob private chat',
      'bob secret question',
    ]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('returns the export being built instead of starting another, and replaces a finished one', async () => {
    const dora = await member('dora');
    const first = await dora.caller.account.requestExport();
    const again = await dora.caller.account.requestExport();
    expect(again.id).toBe(first.id);
    await exportDone(dora.caller);
    const firstKey = (await findExportDownload(db.orm.em.fork(), dora.user.id, first.id))!.objectKey;
    expect(await storage.stat(firstKey)).not.toBeNull();

    const second = await dora.caller.account.requestExport();
    expect(second.id).not.toBe(first.id);
    await exportDone(dora.caller);
    expect(await findExportDownload(db.orm.em.fork(), dora.user.id, first.id)).toBeNull();
    expect(await storage.stat(firstKey)).toBeNull();
  });

  it('counts a build whose process died (no progress for minutes) as failed, and starts a new one', async () => {
    let now = Date.now();
    const erin = await member('erin', () => new Date(now));
    await db.orm.em
      .fork()
      .execute(
        `insert into account_exports (id, user_id, status, progress, created_at, updated_at) values (?, ?, 'running', 40, now(), now())`,
        [randomUUID(), erin.user.id],
      );
    expect((await erin.caller.account.export())?.status).toBe('running');
    now += 3 * 60 * 1000;
    expect(await erin.caller.account.export()).toMatchObject({ status: 'failed', downloadUrl: null });
    const fresh = await erin.caller.account.requestExport();
    expect(fresh.status).toBe('queued');
  });

  it('deletes an archive a week after it was built, file and row', async () => {
    const gil = await member('gil');
    const { id } = await gil.caller.account.requestExport();
    await exportDone(gil.caller);
    const key = (await findExportDownload(db.orm.em.fork(), gil.user.id, id))!.objectKey;
    const now = Date.now();
    await sweepExpiredExports(db.orm.em.fork(), storage, new Date(now + EXPORT_KEEP_MS - 60_000));
    expect(await storage.stat(key)).not.toBeNull();
    expect(
      await sweepExpiredExports(db.orm.em.fork(), storage, new Date(now + EXPORT_KEEP_MS + 60_000)),
    ).toBeGreaterThan(0);
    expect(await storage.stat(key)).toBeNull();
    expect(await gil.caller.account.export()).toBeNull();
  });

  it('needs a session and the rate limit', async () => {
    await expectCode(callerFor(db.orm).caller.account.requestExport(), 'UNAUTHORIZED');
    await expectCode(callerFor(db.orm).caller.account.export(), 'UNAUTHORIZED');
    const limited = await member('fay');
    const { caller } = callerFor(db.orm, limited.jar, {
      session: limited.ctx.session,
      rateLimit: async (bucket) =>
        bucket === 'dataExport' ? { allowed: false, retryAfterSeconds: 60 } : { allowed: true },
    });
    await expectCode(caller.account.requestExport(), 'TOO_MANY_REQUESTS');
  });
});

/** Every row of every table in the database, as text, that contains `needle` (any case). */
async function rowsContaining(needle: string): Promise<string[]> {
  const em = db.orm.em.fork();
  const tables = await em.execute<{ table_name: string }[]>(
    `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const hits: string[] = [];
  for (const { table_name } of tables) {
    const rows = await em.execute<{ row: string }[]>(
      `select row_to_json(t)::text as row from "${table_name}" t where strpos(lower(row_to_json(t)::text), lower(?)) > 0`,
      [needle],
    );
    for (const r of rows) hits.push(`${table_name}: ${r.row}`);
  }
  return hits;
}

describe('account.delete', () => {
  it('refuses a wrong password and changes nothing', async () => {
    const gus = await member('gus');
    await expectCode(
      gus.caller.account.delete({ password: 'wrong-password' }),
      'BAD_REQUEST',
      WRONG_PASSWORD,
    );
    await expectCode(gus.caller.account.delete({ password: '' }), 'BAD_REQUEST', 'Password is required');
    expect((await gus.caller.auth.me()).user.username).toBe(gus.input.username);
    await expectCode(callerFor(db.orm).caller.account.delete({ password: 'secret12' }), 'UNAUTHORIZED');
  });

  it('removes every trace of the member, keeps counters exact and shows their messages as from "Deleted user"', async () => {
    let now = Date.now();
    const clock = () => new Date(now);
    const dave = await member('dave', clock);
    const eve = await member('eve', clock);
    const { objectPath } = await upload(dave.user.id, Buffer.from('dave-image'));
    await dave.caller.settings.update({ bio: `I am ${dave.input.username}`, avatarUrl: objectPath });
    const { post: davePost } = await dave.caller.posts.create({
      content: `Dave's cube by ${dave.input.username}`,
      imageUrl: objectPath,
    });
    const { post: evePost } = await eve.caller.posts.create({ content: 'Eve posts' });
    await eve.caller.posts.like({ postId: evePost.id });
    await dave.caller.posts.like({ postId: evePost.id });
    await dave.caller.bookmarks.add({ postId: evePost.id });
    await eve.caller.bookmarks.add({ postId: davePost.id });
    await dave.caller.reposts.add({ postId: evePost.id });
    await eve.caller.reposts.add({ postId: evePost.id });
    await dave.caller.comments.create({ postId: evePost.id, content: 'dave comments' });
    await dave.caller.comments.create({ postId: evePost.id, content: 'dave comments again' });
    await eve.caller.comments.create({ postId: evePost.id, content: 'eve comments' });
    await eve.caller.posts.like({ postId: davePost.id });
    await eve.caller.comments.create({ postId: davePost.id, content: 'eve on dave' });
    await dave.caller.follows.follow({ userId: eve.user.id });
    await eve.caller.follows.follow({ userId: dave.user.id });
    const eveArt = await media(eve.user.id, 'Eve art');
    await dave.caller.gallery.favorite({ mediaId: eveArt });
    await eve.caller.gallery.favorite({ mediaId: eveArt });
    await media(dave.user.id, `Dave art ${dave.input.username}`);
    await chat(dave.user.id, 'Dave and Cubey', 'dave asks');
    await dave.caller.messages.send({ receiverId: eve.user.id, content: 'hello from dave' });
    await eve.caller.messages.send({ receiverId: dave.user.id, content: 'hello dave' });
    const frank = await member('frank', clock);
    await dave.caller.safety.block({ userId: frank.user.id });
    await dave.caller.safety.mute({ userId: eve.user.id });
    await frank.caller.safety.mute({ userId: dave.user.id });
    await dave.caller.reports.create({
      targetType: 'post',
      targetId: evePost.id,
      reason: 'dave reports eve',
    });
    const aboutDave = await eve.caller.reports.create({
      targetType: 'user',
      targetId: dave.user.id,
      reason: 'eve reports dave',
    });
    const aboutEve = await frank.caller.reports.create({
      targetType: 'post',
      targetId: evePost.id,
      reason: 'frank',
    });
    // Both are moderators: the audit log names dave as a moderator and as a target.
    await db.orm.em
      .fork()
      .execute(`update users set role = 'moderator' where id in (?, ?)`, [dave.user.id, eve.user.id]);
    await eve.caller.moderation.dismiss({ reportId: aboutDave.id });
    await dave.caller.moderation.dismiss({ reportId: aboutEve.id });
    await dave.caller.account.requestExport();
    await exportDone(dave.caller);
    expect((await rowsContaining(dave.input.username)).length).toBeGreaterThan(0);
    expect(await eve.caller.notifications.unreadCount()).toMatchObject({ count: expect.any(Number) });

    expect(await dave.caller.account.delete({ password: dave.input.password })).toEqual({ ok: true });
    expect(dave.jar.token).toBeNull();

    // Nothing with the member's e-mail, username or display name is left in any table.
    expect(await rowsContaining(dave.input.email)).toEqual([]);
    expect(await rowsContaining(dave.input.username)).toEqual([]);
    expect(await rowsContaining(dave.input.displayName)).toEqual([]);
    expect(await rowsContaining('dave comments')).toEqual([]);
    expect(await rowsContaining('Dave and Cubey')).toEqual([]);
    expect(await rowsContaining('dave reports eve')).toEqual([]);
    expect(await rowsContaining('eve reports dave')).toEqual([]);
    for (const table of ['blocks', 'mutes']) {
      const rows = await db.orm.em
        .fork()
        .execute(
          `select * from ${table} where ? in (${table === 'blocks' ? 'blocker_id, blocked_id' : 'muter_id, muted_id'})`,
          [dave.user.id],
        );
      expect(rows, table).toEqual([]);
    }
    // Their bookmarks, and others' bookmarks of their posts, went with them.
    expect(
      await db.orm.em
        .fork()
        .execute('select * from bookmarks where user_id = ? or post_id = ?', [dave.user.id, davePost.id]),
    ).toEqual([]);
    // …nor in storage: uploads, thumbnails and exports are gone.
    expect([...storage.objects.keys()].filter((k) => k.includes(objectPath.split('/').pop()!))).toEqual([]);

    // Counters on what stays are exact.
    const em = db.orm.em.fork();
    const [counts] = await em.execute<
      {
        likes_count: number;
        comments_count: number;
        reposts_count: number;
        likes: number;
        comments: number;
        reposts: number;
      }[]
    >(
      `select likes_count, comments_count, reposts_count,
              (select count(*)::int from likes where post_id = p.id) as likes,
              (select count(*)::int from comments where post_id = p.id) as comments,
              (select count(*)::int from reposts where post_id = p.id) as reposts
         from posts p where id = ?`,
      [evePost.id],
    );
    expect(counts).toEqual({
      likes_count: 1,
      comments_count: 1,
      reposts_count: 1,
      likes: 1,
      comments: 1,
      reposts: 1,
    });
    const [fav] = await em.execute<{ favorites_count: number }[]>(
      'select favorites_count from ai_media where id = ?',
      [eveArt],
    );
    expect(fav!.favorites_count).toBe(1);
    expect(await eve.caller.users.stats({ userId: eve.user.id })).toMatchObject({
      followersCount: 0,
      followingCount: 0,
    });

    // Every session ended; the password no longer logs in; the profile is gone.
    expect(await resolveSession(db.orm.em.fork(), dave.token, new Date())).toBeNull();
    await expectCode(
      callerFor(db.orm).caller.auth.login({ email: dave.input.email, password: dave.input.password }),
      'UNAUTHORIZED',
    );
    await expectCode(eve.caller.users.byUsername({ username: dave.input.username }), 'NOT_FOUND');

    // The messages Dave sent stay with Eve, from "Deleted user", who can no longer be written to.
    const [conversation] = await eve.caller.messages.conversations();
    expect(conversation).toMatchObject({ userId: dave.user.id, displayName: DELETED_USER_NAME });
    const thread = await eve.caller.messages.thread({ userId: dave.user.id });
    expect(thread.items.map((m) => m.content).sort()).toEqual(['hello dave', 'hello from dave']);
    await expectCode(
      eve.caller.messages.send({ receiverId: dave.user.id, content: 'are you there?' }),
      'FORBIDDEN',
    );
    await expectCode(eve.caller.follows.follow({ userId: dave.user.id }), 'NOT_FOUND');
    const found = await eve.caller.search.query({ q: 'deleted user' });
    expect(found.users.map((u) => u.id)).not.toContain(dave.user.id);
    const suggested = await eve.caller.search.suggestions();
    expect(suggested.users.map((u) => u.id)).not.toContain(dave.user.id);

    // The username is held for 30 days, then free again.
    const again = { ...dave.input, email: `again-${dave.input.email}` };
    await expectCode(
      callerFor(db.orm, { token: null }, { now: clock }).caller.auth.register(again),
      'CONFLICT',
      'Username is already taken',
    );
    await expectCode(
      callerFor(db.orm, { token: null }, { now: clock }).caller.auth.register({
        ...again,
        username: dave.input.username.toUpperCase(),
      }),
      'CONFLICT',
    );
    now += USERNAME_HOLD_MS + 1000;
    const { user } = await callerFor(db.orm, { token: null }, { now: clock }).caller.auth.register(again);
    expect(user.username).toBe(dave.input.username);
    // The e-mail was free at once.
    const { user: sameEmail } = await callerFor(db.orm).caller.auth.register({
      ...dave.input,
      username: `x${letters(10)}`,
    });
    expect(sameEmail.email).toBe(dave.input.email);
  });

  it('leaves search words that other rows still use', async () => {
    const hal = await member('hal');
    const ida = await member('ida');
    await hal.caller.posts.create({ content: 'zymurgical cubes' });
    await ida.caller.posts.create({ content: 'zymurgical too' });
    await hal.caller.account.delete({ password: hal.input.password });
    const rows = await db.orm.em
      .fork()
      .execute<unknown[]>(`select 1 from search_words where word = 'zymurgical'`);
    expect(rows).toHaveLength(1);
  });
});

describe('releaseHeldUsernames (a scheduled job)', () => {
  it('forgets only the holds that are over, and a held name stays held until then', async () => {
    const em = db.orm.em.fork();
    const now = new Date();
    const [over, running] = [`over${letters(8)}`, `held${letters(8)}`];
    const hash = (name: string) => createHash('sha256').update(name, 'utf8').digest('hex');
    await em.execute('insert into held_usernames (username_hash, free_at) values (?, ?), (?, ?)', [
      hash(over),
      new Date(now.getTime() - 1000),
      hash(running),
      new Date(now.getTime() + 60_000),
    ]);
    expect(await isUsernameHeld(em, over, now)).toBe(false);
    expect(await isUsernameHeld(em, running, now)).toBe(true);

    expect(await releaseHeldUsernames(em, now)).toBeGreaterThanOrEqual(1);
    const left = await em.execute<{ username_hash: string }[]>(
      'select username_hash from held_usernames where username_hash in (?, ?)',
      [hash(over), hash(running)],
    );
    expect(left.map((r) => r.username_hash)).toEqual([hash(running)]);
    expect(await isUsernameHeld(em, running, now)).toBe(true);
  });
});
