import { createMemoryStorage } from '@cubes/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupDatabase, visitor } from '../../../test/harness.js';
import { createContextInner } from '../../context.js';
import { login } from '../auth/auth.service.js';
import { formatDemoAccounts, seedDemoCommunity } from './demo.seed.js';

let db: Awaited<ReturnType<typeof setupDatabase>>;
const storage = createMemoryStorage();
beforeAll(async () => {
  db = await setupDatabase();
});
afterAll(() => db.close());

describe('the demo community', () => {
  // The seed is real work: 2.3 s of this test's 2.5 on an idle machine, 1.5 s of it the gallery's
  // 44 images (each an SVG rendered to PNG by sharp, stored and thumbnailed), then the members'
  // avatars and posts (argon2 is 0.1 s of it: ten hashes). At a load average of 8–12 on two cores
  // it passed 20 s, so its bound is its own.
  it('seeds an empty database once, with consistent counters and working logins', {
    timeout: 120_000,
  }, async () => {
    const accounts = await seedDemoCommunity(db.orm.em.fork(), storage);
    expect(accounts).not.toBeNull();
    expect(accounts!.length).toBeGreaterThanOrEqual(5);
    expect(await seedDemoCommunity(db.orm.em.fork(), storage)).toBeNull();

    const em = db.orm.em.fork();
    const [drift] = await em.execute<{ bad: number; posts: number }[]>(
      `select count(*) filter (
                where likes_count <> (select count(*) from likes l where l.post_id = p.id)
                   or comments_count <> (select count(*) from comments c where c.post_id = p.id)
              )::int as bad,
              count(*)::int as posts
         from posts p`,
    );
    expect(drift).toEqual({ bad: 0, posts: expect.any(Number) });
    expect(drift!.posts).toBeGreaterThanOrEqual(12);
    const [others] = await em.execute<{ likes: number; comments: number; follows: number; future: number }[]>(
      `select (select count(*)::int from likes) as likes, (select count(*)::int from comments) as comments,
              (select count(*)::int from follows) as follows,
              (select count(*)::int from posts where created_at > now()) +
              (select count(*)::int from likes where created_at > now()) +
              (select count(*)::int from comments where created_at > now()) as future`,
    );
    expect(others!.likes).toBeGreaterThan(10);
    expect(others!.comments).toBeGreaterThan(5);
    expect(others!.follows).toBeGreaterThan(5);
    const avatars = await em.execute<{ avatar_url: string | null }[]>('select avatar_url from users');
    expect(new Set(avatars.map((a) => a.avatar_url)).size).toBe(avatars.length); // each their own
    for (const { avatar_url } of avatars) {
      // a real public upload of its owner, PNG, with a thumbnail
      const key = avatar_url!.replace(/^\/objects\//, '');
      const [row] = await em.execute<{ visibility: string; content_type: string; thumb_key: string }[]>(
        'select visibility, content_type, thumb_key from uploaded_objects where key = ?',
        [key],
      );
      expect(row).toMatchObject({ visibility: 'public', content_type: 'image/png' });
      expect((await storage.read(key)).subarray(1, 4).toString()).toBe('PNG');
      expect(await storage.stat(row!.thumb_key)).not.toBeNull();
    }
    expect(others!.future).toBe(0);

    const feed = await visitor(db.orm).posts.feed();
    expect(feed.items.length).toBeGreaterThan(10);
    // Posts with several described images, each image its author's own upload.
    const withImages = feed.items.filter((p) => p.images.length > 1);
    expect(withImages.map((p) => [p.username, p.images.length])).toEqual([
      ['alice', 2],
      ['bruno', 3],
    ]);
    for (const post of withImages) {
      expect(post.imageUrl).toBe(post.images[0]!.url);
      for (const image of post.images) {
        expect(image.alt).toMatch(/\w/);
        expect(image.width).toBeGreaterThan(0);
        expect(image.height).toBeGreaterThan(0);
      }
    }
    // The last day's tags trend on a fresh start; the mentioned members were told.
    const tags = await visitor(db.orm).tags.trending();
    expect(tags[0]).toEqual({ tag: 'buildchallenge', postsCount: 3, peopleCount: 3 });
    expect(tags.map((t) => t.tag).sort()).toEqual(['aimusic', 'buildchallenge', 'pixelart', 'promptswap']);
    const [mentions] = await em.execute<{ count: number }[]>(
      "select count(*)::int from notifications where type = 'mention'",
    );
    expect(mentions!.count).toBe(3);

    // Direct conversations: Alice has two (one with two unread lines), in order, nothing ahead.
    const [dms] = await em.execute<{ total: number; future: number }[]>(
      `select count(*)::int as total,
              count(*) filter (where created_at > now() or read_at > now() or read_at < created_at)::int as future
         from direct_messages`,
    );
    expect(dms!.total).toBeGreaterThanOrEqual(12);
    expect(dms!.future).toBe(0);
    const alice = await em.execute<{ peer: string; unread: number }[]>(
      `select u.username as peer, count(*) filter (where d.receiver_id = a.id and d.read_at is null)::int as unread
         from direct_messages d join users a on a.username = 'alice'
         join users u on u.id = case when d.sender_id = a.id then d.receiver_id else d.sender_id end
        where a.id in (d.sender_id, d.receiver_id)
        group by u.username order by u.username`,
    );
    expect(alice).toEqual([
      { peer: 'bruno', unread: 2 },
      { peer: 'dana', unread: 0 },
    ]);

    const first = accounts![0]!;
    const ctx = createContextInner({ em: db.orm.em.fork() });
    const { user } = await login(ctx, { email: first.email, password: first.password });
    expect(user.username).toBe(first.username);

    const block = formatDemoAccounts(accounts!);
    expect(block.startsWith('Demo accounts (shown once):')).toBe(true);
    for (const a of accounts!) expect(block).toContain(`${a.email}`);
  });
});
