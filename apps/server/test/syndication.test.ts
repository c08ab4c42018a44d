/**
 * The public pages outside the app, on a real app and database: each profile's and tag's RSS
 * feed, /sitemap.xml and /robots.txt. Every document is parsed with an XML parser
 * (fast-xml-parser) after a well-formedness check, with hostile text in every field a member
 * controls; hidden content (removed, suspended, deleted, a block) stays out of every one.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import {
  createPost,
  newUserInput,
  registerModerator,
  registerUser,
  suspendOver,
  type TestApp,
  updateSettings,
} from './harness.js';
import { uploadPng } from './uploads.js';

const ORIGIN = 'http://cubes.test';
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Text as written: numbers and booleans are not guessed, entities are decoded.
  parseTagValue: false,
  isArray: (name) => ['item', 'url', 'sitemap', 'category'].includes(name),
});

interface RssItem {
  title: string;
  link: string;
  guid: { '#text': string } | string;
  description: string;
  pubDate: string;
  enclosure?: { '@url': string; '@type': string; '@length': string };
  category?: ({ '#text': string } | string)[];
}

function xmlOf(res: LightMyRequestResponse) {
  expect(XMLValidator.validate(res.body), res.body).toBe(true);
  return parser.parse(res.body);
}

function get(t: TestApp, url: string, cookie?: string, host = 'cubes.test') {
  return t.app.inject({ method: 'GET', url, headers: { host, ...(cookie ? { cookie } : {}) } });
}

async function rss(t: TestApp, url: string, cookie?: string) {
  const res = await get(t, url, cookie);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
  const channel = xmlOf(res).rss.channel;
  return { res, channel, items: (channel.item ?? []) as RssItem[] };
}

const text = (value: { '#text': string } | string) => (typeof value === 'string' ? value : value['#text']);

const HOSTILE_POSTS = [
  '</script><script>alert(1)</script> #hostile',
  ']]> <![CDATA[ <b>not bold</b> ]]> & &amp; #hostile',
  // A post holds at most 2,000 characters: one word as long as that allows.
  `${'w'.repeat(1990)} #hostile`,
  'two lines\nand "quotes" \'here\' 🧊 #hostile',
];

describe('RSS feeds', () => {
  it('a profile’s newest 20 posts: permalinks, escaped text, the first image as an enclosure', async ({
    t,
  }) => {
    const input = { ...newUserInput('rss'), displayName: 'Ann "<b>" & </title>' };
    const author = await registerUser(t.app, input);
    await updateSettings(t.app, author.cookie, { bio: '</description><script>x</script> & co' });
    for (let i = 0; i < 17; i++) await createPost(t.app, author.cookie, `older ${i}`);
    const image = await uploadPng(t.app, author.cookie, 64, 48);
    const withImage = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie: author.cookie },
      payload: { content: 'a picture', images: [{ objectPath: image, alt: 'a blue <square>' }] },
    });
    expect(withImage.statusCode, withImage.body).toBe(201);
    const hostile = [];
    for (const content of HOSTILE_POSTS) hostile.push(await createPost(t.app, author.cookie, content));

    const { channel, items, res } = await rss(t, `/profile/${author.user.username}.rss`);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(channel.title).toBe(`Ann "<b>" & </title> (@${author.user.username}) on Cubes`);
    expect(channel.description).toBe('</description><script>x</script> & co');
    expect(channel.link).toBe(`${ORIGIN}/profile/${author.user.username}`);
    expect(items).toHaveLength(20);
    // Newest first: the hostile four, the picture, then the older ones.
    const newest = [...hostile].reverse();
    expect(items.slice(0, 4).map((i) => i.link)).toEqual(newest.map((p) => `${ORIGIN}/posts/${p.id}`));
    expect(items.slice(0, 4).map((i) => text(i.guid))).toEqual(newest.map((p) => `${ORIGIN}/posts/${p.id}`));

    // The text comes back as escaped HTML: a reader that renders it shows the markup as text.
    const byLink = new Map(items.map((i) => [i.link, i]));
    const script = byLink.get(`${ORIGIN}/posts/${hostile[0]!.id}`)!;
    expect(script.description).toBe('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; #hostile');
    expect(script.title).toBe('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; #hostile');
    expect(res.body).not.toContain('<script>');
    const cdata = byLink.get(`${ORIGIN}/posts/${hostile[1]!.id}`)!;
    // Two `]]>`: xml-js splits only the first out of a CDATA section; escaped, none reaches it.
    expect(cdata.title).toBe(
      ']]&gt; &lt;![CDATA[ &lt;b&gt;not bold&lt;/b&gt; ]]&gt; &amp; &amp;amp; #hostile',
    );
    expect(cdata.description).toBe(
      ']]&gt; &lt;![CDATA[ &lt;b&gt;not bold&lt;/b&gt; ]]&gt; &amp; &amp;amp; #hostile',
    );
    const long = byLink.get(`${ORIGIN}/posts/${hostile[2]!.id}`)!;
    expect(long.description).toBe(HOSTILE_POSTS[2]);
    expect([...long.title].length).toBeLessThanOrEqual(81);
    expect(long.title.endsWith('…')).toBe(true);
    const lines = byLink.get(`${ORIGIN}/posts/${hostile[3]!.id}`)!;
    expect(lines.title).toBe('two lines');
    expect(lines.description).toBe('two lines<br>and &quot;quotes&quot; &#39;here&#39; 🧊 #hostile');
    expect((lines.category ?? []).map(text)).toEqual(['hostile']);

    const picture = byLink.get(`${ORIGIN}/posts/${withImage.json().post.id}`)!;
    expect(picture.enclosure).toMatchObject({ '@url': `${ORIGIN}${image}`, '@type': 'image/png' });
    expect(Number(picture.enclosure!['@length'])).toBeGreaterThan(0);
    // RFC 822 dates are to the second.
    expect(new Date(picture.pubDate).getTime()).toBe(
      Math.floor(new Date(withImage.json().post.createdAt).getTime() / 1000) * 1000,
    );
  });

  it('a tag’s newest posts; 404 for what is not a tag', async ({ t }) => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const first = await createPost(t.app, a.cookie, 'one #Ünïcode_tag');
    const second = await createPost(t.app, b.cookie, 'two #ünïcode_tag');
    await createPost(t.app, b.cookie, 'untagged');
    const { channel, items } = await rss(t, `/tags/${encodeURIComponent('ÜNÏCODE_TAG')}.rss`);
    expect(channel.title).toBe('#ünïcode_tag on Cubes');
    expect(channel.description).toBe('2 posts by 2 people tagged #ünïcode_tag');
    expect(channel.link).toBe(`${ORIGIN}/tags/${encodeURIComponent('ünïcode_tag')}`);
    // Its self link is the canonical one, however the request spelled the tag.
    expect(channel['atom:link']['@href']).toBe(`${ORIGIN}/tags/${encodeURIComponent('ünïcode_tag')}.rss`);
    expect(items.map((i) => i.link)).toEqual([second, first].map((p) => `${ORIGIN}/posts/${p.id}`));
    expect((await rss(t, '/tags/nothing_here_yet.rss')).items).toEqual([]);
    for (const url of [
      '/tags/%3Cscript%3E.rss',
      '/tags/%00.rss',
      `/tags/${'a'.repeat(70)}.rss`,
      '/tags/.rss',
    ]) {
      const res = await get(t, url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
      expect(res.json()).toEqual({ message: 'Feed not found', code: 'NOT_FOUND', reason: 'FEED_NOT_FOUND' });
    }
  });

  it('hides removed posts, suspended and deleted members, and a blocked pair from each other', async ({
    t,
  }) => {
    const author = await registerUser(t.app);
    const kept = await createPost(t.app, author.cookie, 'kept #hiding');
    const removed = await createPost(t.app, author.cookie, 'removed #hiding');
    await t.orm.em.fork().execute('update posts set removed_at = now() where id = ?', [removed.id]);
    const links = async (url: string, cookie?: string) =>
      (await rss(t, url, cookie)).items.map((i) => i.link);
    expect(await links(`/profile/${author.user.username}.rss`)).toEqual([`${ORIGIN}/posts/${kept.id}`]);
    expect(await links('/tags/hiding.rss')).toEqual([`${ORIGIN}/posts/${kept.id}`]);

    // A block: the pair get 404 (and nothing of the other on a tag); everyone else the feed.
    const blocker = await registerUser(t.app);
    const block = await t.app.inject({
      method: 'POST',
      url: `/api/users/${author.user.id}/block`,
      headers: { cookie: blocker.cookie },
    });
    expect(block.statusCode).toBe(200);
    for (const cookie of [blocker.cookie, author.cookie]) {
      const other = cookie === blocker.cookie ? author : blocker;
      const res = await get(t, `/profile/${other.user.username}.rss`, cookie);
      expect(res.statusCode, `${other === author ? 'the blocker' : 'the blocked'} asks: ${res.body}`).toBe(
        404,
      );
    }
    const forBlocker = await rss(t, '/tags/hiding.rss', blocker.cookie);
    expect(forBlocker.items).toEqual([]);
    expect(forBlocker.res.headers['cache-control']).toBe('private, no-store');

    // Suspended by a moderator, then another member deletes their account.
    const mod = await registerModerator(t);
    await suspendOver(t.app, mod.cookie, author.user.id);
    expect((await get(t, `/profile/${author.user.username}.rss`)).statusCode).toBe(404);
    expect(await links('/tags/hiding.rss')).toEqual([]);

    const leaving = await registerUser(t.app);
    await createPost(t.app, leaving.cookie, 'soon gone #hiding');
    await t.orm.em.fork().execute('update users set deleted_at = now() where id = ?', [leaving.user.id]);
    expect((await get(t, `/profile/${leaving.user.username}.rss`)).statusCode).toBe(404);
    for (const url of [
      '/profile/nobody_by_that_name.rss',
      '/profile/%00.rss',
      `/profile/${'x'.repeat(5000)}.rss`,
    ]) {
      const res = await get(t, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'Feed not found', code: 'NOT_FOUND', reason: 'FEED_NOT_FOUND' });
    }
  });
});

describe('the sitemap and robots.txt', () => {
  it('lists public profiles, tags and posts with lastmod; hides removed and suspended', async ({ t }) => {
    const shown = await registerUser(t.app);
    const post = await createPost(t.app, shown.cookie, 'in the sitemap #mapped');
    const removed = await createPost(t.app, shown.cookie, 'not in the sitemap #unmapped');
    await t.orm.em.fork().execute('update posts set removed_at = now() where id = ?', [removed.id]);
    const hidden = await registerUser(t.app);
    const hiddenPost = await createPost(t.app, hidden.cookie, 'by a suspended member');
    await t.orm.em
      .fork()
      .execute(
        "update users set suspended_at = now(), suspended_until = now() + interval '1 day' where id = ?",
        [hidden.user.id],
      );

    const res = await get(t, '/sitemap.xml');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const urls = xmlOf(res).urlset.url as { loc: string; lastmod: string }[];
    const locs = urls.map((u) => u.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        `${ORIGIN}/profile/${shown.user.username}`,
        `${ORIGIN}/tags/mapped`,
        `${ORIGIN}/posts/${post.id}`,
      ]),
    );
    for (const gone of [
      `${ORIGIN}/profile/${hidden.user.username}`,
      `${ORIGIN}/posts/${hiddenPost.id}`,
      `${ORIGIN}/posts/${removed.id}`,
      `${ORIGIN}/tags/unmapped`,
    ]) {
      expect(locs).not.toContain(gone);
    }
    for (const url of urls) expect(new Date(url.lastmod).toISOString()).toBe(url.lastmod);
    expect(urls.find((u) => u.loc === `${ORIGIN}/posts/${post.id}`)?.lastmod).toBe(post.createdAt);
    // No split under 50,000 URLs: no page files.
    for (const url of ['/sitemap-1.xml', '/sitemap-0.xml', '/sitemap-x.xml', '/sitemap-99999999.xml']) {
      expect((await get(t, url)).statusCode, url).toBe(404);
    }
  });

  it('robots.txt keeps crawlers off the API and names the sitemap', async ({ t }) => {
    const res = await get(t, '/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain('User-agent: *\nDisallow: /api/\nDisallow: /trpc/');
    expect(res.body).toContain('Disallow: /exports/\n');
    // A member's page sends a crawler to the login page anyway; refused, Lighthouse's SEO marks it.
    expect(res.body).not.toContain('Disallow: /chat');
    expect(res.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml\n`);
    // A Host that is no host is refused, never printed into a document.
    for (const url of ['/sitemap.xml', '/tags/x.rss']) {
      const bad = await get(t, url, undefined, 'evil.test/"><x');
      expect(bad.statusCode, `${url}: ${bad.body}`).toBe(400);
    }
  });

  it('PUBLIC_URL is the origin of every absolute link, whatever the Host says', async ({ appWith }) => {
    const configured = await appWith({ config: { publicUrl: 'https://cubes.example' } });
    const member = await registerUser(configured.app);
    const post = await createPost(configured.app, member.cookie, 'configured #origin');
    const robots = await get(configured, '/robots.txt', undefined, 'attacker.test');
    expect(robots.body).toContain('Sitemap: https://cubes.example/sitemap.xml\n');
    const { items } = await rss(configured, '/tags/origin.rss');
    expect(items.map((i) => i.link)).toEqual([`https://cubes.example/posts/${post.id}`]);
  });

  it('the feeds and the sitemap count against the general limit, as API calls do', async ({ appWith }) => {
    // 600 a minute per address, scaled down to 6.
    const limited = await appWith({ config: { rateLimitScale: 0.01 } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await get(limited, '/sitemap.xml')).statusCode);
      statuses.push((await get(limited, '/tags/limited.rss')).statusCode);
    }
    // The app's own start-up read of the OpenAPI document took one of the six.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    // robots.txt is a constant: never counted.
    expect((await get(limited, '/robots.txt')).statusCode).toBe(200);
  });
});
