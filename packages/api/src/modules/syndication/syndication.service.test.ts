import { describe, expect, it } from 'vitest';
import { createMember, publicObject, useDatabase } from '../../../test/harness.js';
import { forgetEverything } from '../../kept-reads.js';
import type { SitemapRow } from './syndication.schema.js';
import { sitemapPage, storedImages } from './syndication.service.js';

const db = useDatabase();

async function sql(query: string, params: unknown[] = []) {
  await db.orm.em.fork().getConnection().execute(query, params);
}
const ctx = () => ({ em: db.orm.em.fork(), cacheScope: db.orm.em.getDriver() });
const keys = (rows: SitemapRow[]) => rows.map((r) => `${r.kind}:${r.key}`);

describe('the sitemap', () => {
  it('lists shown profiles, tags with a shown post and the newest shown posts; hides the rest', async () => {
    const shown = await createMember(db.orm, { username: 'a_shown' });
    const suspended = await createMember(db.orm, { username: 'b_suspended' });
    const deleted = await createMember(db.orm, { username: 'c_deleted' });
    const first = (await shown.caller.posts.create({ content: 'first #Sitemap' })).post;
    const second = (await shown.caller.posts.create({ content: 'second #only_removed' })).post;
    const third = (await shown.caller.posts.create({ content: 'third' })).post;
    await suspended.caller.posts.create({ content: 'by someone suspended #only_suspended' });
    await deleted.caller.posts.create({ content: 'by someone deleted' });
    await sql('update users set suspended_at = now() where id = ?', [suspended.user.id]);
    await sql('update users set deleted_at = now() where id = ?', [deleted.user.id]);
    await sql('update posts set removed_at = now() where id = ?', [second.id]);
    await sql("update posts set edited_at = created_at + interval '1 hour' where id = ?", [first.id]);

    const page = await sitemapPage(ctx(), 0, { urlsMax: 100, postsMax: 100 });
    expect(page?.kind).toBe('urlset');
    const rows = page?.kind === 'urlset' ? page.rows : [];
    expect(keys(rows)).toEqual(['profile:a_shown', 'tag:sitemap', `post:${third.id}`, `post:${first.id}`]);
    // lastmod: a post's edit, a tag's newest post, a profile's newest post.
    const byKey = new Map(rows.map((r) => [r.key, r.lastmod.getTime()]));
    expect(byKey.get(first.id)).toBe(new Date(first.createdAt).getTime() + 3_600_000);
    expect(byKey.get('sitemap')).toBe(new Date(first.createdAt).getTime());
    expect(byKey.get('a_shown')).toBe(new Date(third.createdAt).getTime());

    // Only the newest `postsMax` posts.
    const capped = await sitemapPage(ctx(), 0, { urlsMax: 100, postsMax: 1 });
    expect(capped?.kind === 'urlset' && keys(capped.rows)).toEqual([
      'profile:a_shown',
      'tag:sitemap',
      `post:${third.id}`,
    ]);
  });

  it('past urlsMax it is an index of pages that together list every row once', async () => {
    const whole = await sitemapPage(ctx(), 0, { urlsMax: 1_000, postsMax: 1_000 });
    const all = whole?.kind === 'urlset' ? keys(whole.rows) : [];
    expect(all.length).toBeGreaterThan(3);
    const index = await sitemapPage(ctx(), 0, { urlsMax: 2, postsMax: 1_000 });
    expect(index).toEqual({ kind: 'index', pages: Math.ceil(all.length / 2) });
    const split: string[] = [];
    for (let n = 1; n <= Math.ceil(all.length / 2); n++) {
      const part = await sitemapPage(ctx(), n, { urlsMax: 2, postsMax: 1_000 });
      expect(part?.kind).toBe('urlset');
      split.push(...(part?.kind === 'urlset' ? keys(part.rows) : []));
    }
    expect(split).toEqual(all);
    for (const n of [Math.ceil(all.length / 2) + 1, -1, 1.5, Number.NaN]) {
      expect(await sitemapPage(ctx(), n, { urlsMax: 2, postsMax: 1_000 })).toBeNull();
    }
    // No pages when it fits in one file.
    expect(await sitemapPage(ctx(), 1, { urlsMax: 1_000, postsMax: 1_000 })).toBeNull();
  });

  it('is kept, and a deletion drops it at once', async () => {
    forgetEverything(db.orm.em.getDriver());
    const author = await createMember(db.orm);
    const post = (await author.caller.posts.create({ content: 'kept in the sitemap' })).post;
    const listed = async () => {
      const page = await sitemapPage(ctx(), 0);
      return page?.kind === 'urlset' ? keys(page.rows) : [];
    };
    expect(await listed()).toContain(`post:${post.id}`);
    await author.caller.posts.delete({ postId: post.id });
    expect(await listed()).not.toContain(`post:${post.id}`);
  });
});

describe('storedImages', () => {
  it('gives the stored type and size of our public images only', async () => {
    const owner = await createMember(db.orm);
    const shown = await publicObject(db.orm, owner.user.id);
    const hidden = await publicObject(db.orm, owner.user.id, 'private');
    const found = await storedImages(ctx(), [
      shown,
      hidden,
      '/objects/../etc/passwd',
      'https://elsewhere.example/x.png',
    ]);
    expect([...found]).toEqual([[shown, { contentType: 'image/png', size: 1 }]]);
  });
});
