/**
 * Visitors' pages rendered on the server (pages/render.ts with the web app's own renderer, built
 * here from apps/web/src/entry-server.tsx by Vite into a temporary folder): each page's head
 * (title, description, canonical, Open Graph, Twitter, JSON-LD, feed links) and body, parsed with
 * parse5, the HTML parser browsers' own algorithm is written to; hostile text in every field a
 * member controls comes out as text; hidden content is a 404 with noindex; nothing secret and no
 * executable inline script is in the page.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRecordingMailer } from '@cubes/api';
import type { LightMyRequestResponse } from 'fastify';
import { type DefaultTreeAdapterTypes, parse } from 'parse5';
import SuperJSON from 'superjson';
import { describe, expect } from 'vitest';
import { it as withApp } from './fixtures.js';
import {
  call,
  createPost,
  newUserInput,
  registerModerator,
  registerUser,
  suspendOver,
  type TestApp,
  updateSettings,
} from './harness.js';
import { uploadPng } from './uploads.js';

type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;

const ORIGIN = 'http://cubes.test';
// The page's state as the browser reads it: superjson, with a request's error as its message and
// shape (apps/web/src/lib/rendered-state.ts), read back here as that plain object.
const stateJson = new SuperJSON();
stateJson.registerCustom<{ message: string; shape: string }, { message: string; shape: string }>(
  {
    isApplicable: (_value): _value is { message: string; shape: string } => false,
    serialize: (v) => v,
    deserialize: (v) => v,
  },
  'TRPCClientError',
);
/**
 * The app's scripts as a rendered page names them (pages/render.ts): a visitor's page asks for
 * them once it has painted (public/start-after-paint.js), as a member's home and Chat do; a member's
 * shell at once, at low priority.
 */
const AFTER_PAINT =
  '<script defer src="/start-after-paint.js" data-entry="/assets/index-abc123.js" data-preload="/assets/chunk-def456.js"></script>';
const LOW_PRIORITY_ENTRY =
  '<script type="module" crossorigin fetchpriority="low" src="/assets/index-abc123.js">';
const LOW_PRIORITY_CHUNK =
  '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/chunk-def456.js">';
const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');

// The built web app: a small index.html as the client build writes it, and beside it the server
// renderer, built from the web app's sources for this file (a few seconds).
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none).
const it = withApp.extend('dist', { scope: 'file' }, async ({}, { onCleanup }) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'cubes-render-'));
  onCleanup(() => rm(root, { recursive: true, force: true }));
  const dist = path.join(root, 'dist');
  await mkdir(dist);
  await writeFile(
    path.join(dist, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Cubes AI: a community for AI creators." />
    <meta property="csp-nonce" nonce="__CSP_NONCE__" />
    <script src="/theme-init.js"></script>
    <title>Cubes AI</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/chunk-def456.js">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`,
  );
  const vite = path.join(
    path.dirname(createRequire(path.join(webDir, 'package.json')).resolve('vite/package.json')),
    'bin',
    'vite.js',
  );
  const built = spawnSync(
    process.execPath,
    [
      vite,
      'build',
      '--ssr',
      'src/entry-server.tsx',
      '--outDir',
      path.join(root, 'dist-ssr'),
      '--logLevel',
      'error',
    ],
    // As `pnpm build` runs it: vitest's NODE_ENV=test would build React's development JSX.
    { cwd: webDir, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (built.status !== 0) throw new Error(`vite build --ssr failed: ${built.stderr}${built.stdout}`);
  return dist;
});
// The codes mailed (a new address's confirmation) are read from it.
const mailer = createRecordingMailer();
it.override('appOptions', ({ dist }) => ({ config: { webDist: dist, publicUrl: ORIGIN }, mailer }));

function get(t: TestApp, url: string, cookie?: string) {
  return t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

/** `reporterCookie`'s member reports the post, and the moderator removes it. */
async function reportAndRemove(t: TestApp, reporterCookie: string, modCookie: string, postId: string) {
  const report = await t.app.inject({
    method: 'POST',
    url: '/api/reports',
    headers: { cookie: reporterCookie },
    payload: { targetType: 'post', targetId: postId, reason: 'Spam' },
  });
  expect(report.statusCode, report.body).toBe(201);
  const remove = await t.app.inject({
    method: 'POST',
    url: '/trpc/moderation.remove',
    headers: { cookie: modCookie },
    payload: { json: { reportId: report.json().id, reason: 'Spam' } },
  });
  expect(remove.statusCode, remove.body).toBe(200);
}

function elements(node: ParentNode, out: Element[] = []): Element[] {
  for (const child of node.childNodes) {
    if ('tagName' in child) {
      out.push(child);
      elements('content' in child ? (child as DefaultTreeAdapterTypes.Template).content : child, out);
    }
  }
  return out;
}
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
function textOf(node: ParentNode): string {
  return node.childNodes
    .map((child) =>
      'value' in child && child.nodeName === '#text'
        ? child.value
        : 'childNodes' in child
          ? textOf(child)
          : '',
    )
    .join('');
}

/** The page, parsed: its head's tags by name, its JSON-LD, its state, #root's text. */
function page(res: LightMyRequestResponse) {
  const all = elements(parse(res.body));
  const meta = (key: string) =>
    all
      .filter((el) => el.tagName === 'meta' && (attr(el, 'name') === key || attr(el, 'property') === key))
      .map((el) => attr(el, 'content'));
  const one = (key: string) => {
    const found = meta(key);
    expect(found, key).toHaveLength(1);
    return found[0];
  };
  const scripts = all.filter((el) => el.tagName === 'script');
  const root = all.find((el) => attr(el, 'id') === 'root')!;
  const state = scripts.find((el) => attr(el, 'id') === 'cubes-rendered-state');
  return {
    title: all.filter((el) => el.tagName === 'title').map(textOf),
    meta,
    one,
    links: (rel: string) => all.filter((el) => el.tagName === 'link' && attr(el, 'rel') === rel),
    scripts,
    jsonLd: scripts
      .filter((el) => attr(el, 'type') === 'application/ld+json')
      .map((el) => JSON.parse(textOf(el))),
    state: state
      ? stateJson.parse<{ queries: { queries: { queryKey: unknown; state: { data: unknown } }[] } }>(
          textOf(state),
        )
      : null,
    stateScript: state,
    rootText: textOf(root),
    rootHasChildren: root.childNodes.length > 0,
  };
}

/** No script runs but the app's files: every inline script is data (JSON), under the page's nonce. */
function expectOnlyDataScripts(res: LightMyRequestResponse) {
  const { scripts } = page(res);
  const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
  for (const script of scripts) {
    if (attr(script, 'src')) continue;
    expect(['application/json', 'application/ld+json'], textOf(script).slice(0, 80)).toContain(
      attr(script, 'type'),
    );
    expect(attr(script, 'nonce')).toBe(nonce);
  }
  expect(String(res.headers['content-security-policy'])).toContain("script-src 'self';");
}

// A display name holds at most 50 characters.
const HOSTILE_NAME = 'Eve "the" <b>x</b> & </title><script>a()</script>';
const HOSTILE_POST = `</script><script>alert(1)</script> <!-- ${'\u2028'} #hostile`;

/** `message`'s text in the web app's checked-in catalog for `language` (apps/web/src/locales). */
function translated(language: 'de' | 'ar', message: string): string {
  const po = readFileSync(path.join(webDir, 'src', 'locales', language, 'messages.po'), 'utf8');
  const entry = po.split('\n\n').find((block) => block.includes(`msgid ${JSON.stringify(message)}\n`));
  const text = entry && /\nmsgstr (".*")/.exec(entry)?.[1];
  if (!text) throw new Error(`no ${language} text for ${message}`);
  return JSON.parse(text) as string;
}

describe('visitors’ pages rendered on the server', () => {
  it('home: the Everyone feed in the HTML, the head, the state it was rendered from, no inline script', async ({
    t,
  }) => {
    const author = await registerUser(t.app);
    const post = await createPost(t.app, author.cookie, 'rendered on the server, first of the feed');
    const res = await get(t, '/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers.vary)).toContain('cookie');
    const p = page(res);
    expect(p.rootText).toContain('rendered on the server, first of the feed');
    expect(p.title).toEqual(['Cubes AI']);
    expect(p.meta('description')).toHaveLength(1);
    expect(p.links('canonical').map((l) => attr(l, 'href'))).toEqual([`${ORIGIN}/`]);
    expect(p.one('og:url')).toBe(`${ORIGIN}/`);
    expect(p.one('og:image')).toBe(`${ORIGIN}/icons/icon-512.png`);
    expect(p.one('og:image:width')).toBe('512');
    expect(p.one('twitter:card')).toBe('summary');
    // The feed's first page and the session (none) are in the state, under the feed's key.
    const keys = p.state!.queries.queries.map((q) => JSON.stringify(q.queryKey));
    expect(keys).toContain(JSON.stringify([['auth', 'session'], { type: 'query' }]));
    const feed = p.state!.queries.queries.find((q) => JSON.stringify(q.queryKey).includes('"posts","feed"'));
    expect(JSON.stringify(feed?.state.data)).toContain(post.id);
    expectOnlyDataScripts(res);
    // The page paints without its scripts: it asks for them once it has.
    expect(res.body).toContain(AFTER_PAINT);
    expect(res.body).not.toContain('type="module"');
    expect(res.body).not.toContain('modulepreload');
  });

  it('a member’s Moderation is the shell alone: header, tabs and a loading state, with no data of theirs', async ({
    t,
  }) => {
    const input = newUserInput('shell');
    const member = await registerUser(t.app, input);
    for (const url of ['/moderation']) {
      const res = await get(t, url, member.cookie);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      const p = page(res);
      expect(p.rootHasChildren, url).toBe(true);
      expect(p.rootText, url).toContain('Skip to content');
      expect(p.rootText, url).toContain('Loading…');
      expect(p.state, url).toMatchObject({ shell: true, queries: { queries: [] } });
      expect(res.body, url).not.toContain(input.email);
      expect(res.body, url).not.toContain(input.displayName);
      expect(p.meta('og:title'), url).toEqual([]);
      expectOnlyDataScripts(res);
      // What the shell waits for comes from its scripts: asked for at once, at low priority.
      expect(res.body, url).toContain(LOW_PRIORITY_ENTRY);
      expect(res.body, url).toContain(LOW_PRIORITY_CHUNK);
      expect(res.body, url).not.toContain('start-after-paint');
    }
    // The service worker's offline shell is the page as built, for a visitor too: an offline
    // reload of any path starts from it.
    for (const cookie of [undefined, member.cookie]) {
      const shell = await t.app.inject({
        method: 'GET',
        url: '/',
        headers: { 'x-cubes-shell': '1', ...(cookie ? { cookie } : {}) },
      });
      expect(page(shell).rootHasChildren).toBe(false);
      expect(page(shell).stateScript).toBeUndefined();
      // Nothing paints before its scripts run: they keep their priority.
      expect(shell.body).not.toContain('fetchpriority');
      expect(shell.body).not.toContain('start-after-paint');
    }
    // A page that is not rendered (the Cubes tools draw this device's stored choice): the empty
    // page, as before; a visitor's /settings too (it sends them to /auth).
    expect(page(await get(t, '/cubes', member.cookie)).rootHasChildren).toBe(false);
    expect(page(await get(t, '/settings')).rootHasChildren).toBe(false);
  });

  it('a member’s Settings is rendered with their settings, kept for them until they change one, and names their address only if they show it', async ({
    t,
  }) => {
    const input = { ...newUserInput('sets'), displayName: HOSTILE_NAME };
    const member = await registerUser(t.app, input);
    const token = member.cookie.split('=')[1]!;
    await updateSettings(t.app, member.cookie, { bio: '</textarea><script>bio()</script> "q"' });

    const res = await get(t, '/settings', member.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const p = page(res);
    expect(p.rootText).toContain('Profile Settings');
    expect(p.rootText).toContain('Change Email');
    expect(p.rootText).not.toContain('Loading settings...');
    // The form starts from their values, as text: the hostile name and bio never close a tag.
    expect(res.body).toContain('&lt;/textarea&gt;&lt;script&gt;bio()&lt;/script&gt;');
    expect(res.body).not.toContain('<script>bio()');
    expect(res.body).not.toContain('<script>a()');
    expect(res.body).not.toContain('<b>x</b>');
    // The address is theirs alone and hidden: not in the page, and Settings' answer goes into the
    // state without it and stale, so the browser asks for it once the page has hydrated.
    expect(res.body).not.toContain(input.email);
    expect(res.body).not.toContain(token);
    expect(p.rootText).toContain('We send a code to the new address to confirm it.');
    expect(p.rootText).not.toContain('Currently');
    const settingsOf = (r: LightMyRequestResponse) =>
      page(r).state?.queries.queries.find((q) => JSON.stringify(q.queryKey).includes('"settings","get"'));
    expect(settingsOf(res)?.state).toMatchObject({
      data: { displayName: HOSTILE_NAME, email: '', emailVisible: false },
      isInvalidated: true,
    });
    expect(page(res).meta('og:title')).toEqual([]);
    expectOnlyDataScripts(res);

    // Shown on their profile, the address is on the page too.
    await updateSettings(t.app, member.cookie, { emailVisible: true });
    const visible = await get(t, '/settings', member.cookie);
    expect(page(visible).rootText).toContain(`Currently ${input.email}.`);
    expect(settingsOf(visible)?.state).toMatchObject({ data: { email: input.email }, isInvalidated: false });
    // Kept for them (rendered-pages.cache.ts): the same request again is the same page.
    const renderedAt = (r: LightMyRequestResponse) =>
      (page(r).state as unknown as { renderedAt: number }).renderedAt;
    expect(renderedAt(await get(t, '/settings', member.cookie))).toBe(renderedAt(visible));
    // A visitor's page of their profile, kept too, shows the address they show.
    const profilePath = `/profile/${input.username}`;
    expect(page(await get(t, profilePath)).rootText).toContain(input.email);
    expect(page(await get(t, profilePath)).rootText).toContain(input.email);

    // A new address, confirmed by its code, shows at once on both: the confirmation is an event.
    const fresh = newUserInput('setsnew').email;
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/settings/email',
      headers: { cookie: member.cookie },
      payload: { email: fresh, password: input.password },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const code = mailer.sent.find((mail) => mail.kind === 'email-change' && mail.to === fresh)?.code;
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/settings/email/confirm',
      headers: { cookie: member.cookie },
      payload: { code },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = await get(t, '/settings', member.cookie);
    expect(page(after).rootText).toContain(`Currently ${fresh}.`);
    expect(after.body).not.toContain(input.email);
    const profileAfter = page(await get(t, profilePath)).rootText;
    expect(profileAfter).toContain(fresh);
    expect(profileAfter).not.toContain(input.email);
  });

  it('a member’s post, profile, tag, search and gallery pages, and their own profile, bookmarks and notifications, carry their own view', async ({
    t,
  }) => {
    const input = newUserInput('view');
    const member = await registerUser(t.app, input);
    const author = await registerUser(t.app, newUserInput('auth'));
    const blocked = await registerUser(t.app, newUserInput('blkd'));
    const post = await createPost(t.app, author.cookie, 'a post the member likes #memberview');
    const hidden = await createPost(
      t.app,
      blocked.cookie,
      'a post by someone the member blocked #memberview',
    );
    const mine = await createPost(t.app, member.cookie, 'my own post, on my own profile');
    // The member likes and bookmarks the post and blocks a member; the author likes theirs.
    for (const [url, cookie] of [
      [`/api/posts/${post.id}/like`, member.cookie],
      [`/api/users/${blocked.user.id}/block`, member.cookie],
      [`/api/posts/${post.id}/bookmark`, member.cookie],
      [`/api/posts/${mine.id}/like`, author.cookie],
    ] as const) {
      const res = await call(t, 'POST', url, cookie);
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
    }
    const token = member.cookie.split('=')[1]!;
    const likedButton = /aria-pressed="true"[^>]*aria-label="[^"]*[Ll]ike/;

    const own = await get(t, `/posts/${post.id}`, member.cookie);
    expect(own.statusCode).toBe(200);
    // Theirs alone: no shared cache or back button keeps it.
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(page(own).state).toMatchObject({ shell: false });
    expect(page(own).rootText).toContain('a post the member likes');
    expect(own.body).toMatch(likedButton);
    // A visitor's copy of the same page: not liked, and kept for everyone.
    const visitors = await get(t, `/posts/${post.id}`);
    expect(visitors.headers['cache-control']).not.toContain('private');
    expect(visitors.body).not.toMatch(likedButton);

    // A block: the post is gone for the member, as an unknown id is; a visitor still reads it.
    const gone = await get(t, `/posts/${hidden.id}`, member.cookie);
    expect(gone.statusCode).toBe(404);
    expect(page(gone).rootText).not.toContain('someone the member blocked');
    expect((await get(t, `/posts/${hidden.id}`)).statusCode).toBe(200);
    for (const url of ['/tags/memberview', '/search?q=memberview']) {
      const res = await get(t, url, member.cookie);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
      expect(page(res).rootText, url).toContain('a post the member likes');
      expect(page(res).rootText, url).not.toContain('someone the member blocked');
      expect(res.body, url).toMatch(likedButton);
    }
    for (const url of [`/profile/${author.user.username}`, '/gallery']) {
      const res = await get(t, url, member.cookie);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
      expect(page(res).state, url).toMatchObject({ shell: false });
    }
    expect(page(await get(t, `/profile/${author.user.username}`, member.cookie)).rootText).toContain(
      'a post the member likes',
    );
    // Their own profile, bookmarks and notifications.
    const expected = {
      '/profile': 'my own post, on my own profile',
      '/bookmarks': 'a post the member likes',
      '/notifications': `${author.user.username} liked your post`,
    };
    for (const [url, text] of Object.entries(expected)) {
      const res = await get(t, url, member.cookie);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
      expect(page(res).state, url).toMatchObject({ shell: false });
      expect(page(res).rootText.replace(/[\u2068\u2069]/g, ''), url).toContain(text);
    }
    // A visitor's: the page as built (the app sends them to log in).
    expect(page(await get(t, '/bookmarks')).rootHasChildren).toBe(false);
    for (const url of [
      `/posts/${post.id}`,
      '/tags/memberview',
      '/search?q=memberview',
      '/gallery',
      '/profile',
      '/bookmarks',
      '/notifications',
    ]) {
      const res = await get(t, url, member.cookie);
      expect(res.body, url).not.toContain(input.email);
      expect(res.body, url).not.toContain(token);
      expectOnlyDataScripts(res);
      // Whole without its scripts, as a visitor's page: it asks for them once it has painted.
      expect(res.body, url).toContain(AFTER_PAINT);
    }
  });

  it('a member’s home and Chat carry their own data, for them alone, and never their e-mail or session', async ({
    t,
  }) => {
    const input = { ...newUserInput('own'), displayName: HOSTILE_NAME };
    const member = await registerUser(t.app, input);
    const peer = await registerUser(t.app, newUserInput('peer'));
    const blocked = await registerUser(t.app, newUserInput('blk'));
    const own = await createPost(t.app, member.cookie, 'my own post, in my home');
    await createPost(t.app, blocked.cookie, 'a post by a member I blocked');
    const block = await t.app.inject({
      method: 'POST',
      url: `/api/users/${blocked.user.id}/block`,
      headers: { cookie: member.cookie },
    });
    expect(block.statusCode, block.body).toBe(200);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: { cookie: peer.cookie },
      payload: { receiverId: member.user.id, content: HOSTILE_POST },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const token = member.cookie.split('=')[1]!;

    const home = await get(t, '/', member.cookie);
    expect(home.statusCode).toBe(200);
    // Theirs alone: no shared cache or back button keeps it.
    expect(home.headers['cache-control']).toBe('private, no-store');
    const p = page(home);
    expect(p.rootText).toContain(`Hi ${HOSTILE_NAME}, here is what's new`);
    expect(p.rootText).toContain('my own post, in my home');
    expect(p.rootText).not.toContain('a post by a member I blocked');
    expect(p.rootText).not.toContain('Join the community');
    // The composer's code comes before the page hydrates (lib/lazy-part.ts): the one lazy part
    // drawn (the side column is drawn by the browser alone, at its width).
    expect(p.state).toMatchObject({ shell: false, parts: ['composer'] });
    const session = p.state?.queries.queries.find((q) => JSON.stringify(q.queryKey).includes('"session"'));
    expect(session?.state.data).toMatchObject({ user: { id: member.user.id, email: null } });
    // Everyone, the default tab, and its feed.
    expect(home.body).toMatch(/aria-selected="true"[^>]*>Everyone</);
    // Kept for them (rendered-pages.cache.ts) until something it shows changes: a like of theirs
    // renders it again, liked.
    const renderedAt = (res: LightMyRequestResponse) =>
      (page(res).state as unknown as { renderedAt: number }).renderedAt;
    expect(renderedAt(await get(t, '/', member.cookie))).toBe(renderedAt(home));
    const like = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${own.id}/like`,
      headers: { cookie: member.cookie },
    });
    expect(like.statusCode, like.body).toBeLessThan(300);
    const liked = await get(t, '/', member.cookie);
    expect(renderedAt(liked)).not.toBe(renderedAt(home));
    const likedButton = /aria-pressed="true"[^>]*aria-label="[^"]*[Ll]ike/;
    expect(home.body).not.toMatch(likedButton);
    expect(liked.body).toMatch(likedButton);
    for (const res of [home]) {
      expect(res.body).not.toContain(input.email);
      expect(res.body).not.toContain(token);
      expect(res.body).not.toContain('<script>a()');
      expect(res.body).not.toContain('<b>x</b>');
      expect(page(res).meta('og:title')).toEqual([]);
      expectOnlyDataScripts(res);
      // Whole without its scripts, as a visitor's page: it asks for them once it has painted.
      expect(res.body).toContain(AFTER_PAINT);
      expect(res.body).not.toContain('modulepreload');
    }

    // The feed this device chose last (features/posts/feed-scope.ts), if it is this member's.
    const following = await get(t, '/', `${member.cookie}; cubes-feed=${member.user.id}.following`);
    expect(following.body).toMatch(/aria-selected="true"[^>]*>Following</);
    const followingKeys = page(following).state?.queries.queries.map((q) => JSON.stringify(q.queryKey));
    expect(followingKeys?.some((key) => key.includes('"scope":"following"'))).toBe(true);
    const others = await get(t, '/', `${member.cookie}; cubes-feed=${peer.user.id}.following`);
    expect(others.body).toMatch(/aria-selected="true"[^>]*>Everyone</);

    // Chat: the conversations, and a thread, the peer's hostile message as text.
    const chat = await get(t, '/chat', member.cookie);
    expect(chat.statusCode).toBe(200);
    expect(chat.headers['cache-control']).toBe('private, no-store');
    expect(page(chat).rootText).toContain(peer.input.displayName);
    const thread = await get(t, `/chat?user=${peer.user.id}`, member.cookie);
    expect(page(thread).rootText).toContain(HOSTILE_POST);
    for (const res of [chat, thread]) {
      expect(res.body).not.toContain(input.email);
      expect(res.body).not.toContain(token);
      expect(res.body).not.toContain('<script>alert(1)');
      expectOnlyDataScripts(res);
    }

    // Rendered for each request: the peer's home is the peer's.
    const theirs = page(await get(t, '/', peer.cookie));
    expect(theirs.rootText).toContain(`Hi ${peer.input.displayName}, here is what's new`);
    expect(theirs.rootText).not.toContain(`Hi ${HOSTILE_NAME}`);

    // A cookie whose session has ended: the visitor's page, and no Chat of anyone's.
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: peer.cookie },
    });
    expect(logout.statusCode, logout.body).toBeLessThan(300);
    const ended = await get(t, '/', peer.cookie);
    expect(ended.headers['cache-control']).toBe('no-cache');
    expect(page(ended).rootText).toContain('Join the community');
    expect(page(ended).rootText).not.toContain(peer.input.displayName);
    expect(page(await get(t, '/chat', peer.cookie)).rootHasChildren).toBe(false);
  });

  it('a profile: hostile name, bio and post come out as text everywhere; no e-mail; its feed is linked', async ({
    t,
  }) => {
    const input = { ...newUserInput('ssr'), displayName: HOSTILE_NAME };
    const author = await registerUser(t.app, input);
    await updateSettings(t.app, author.cookie, { bio: '</meta><script>bio()</script> "quoted" & co' });
    const post = await createPost(t.app, author.cookie, HOSTILE_POST);
    const long = await createPost(t.app, author.cookie, 'w'.repeat(1990));
    // The marks a kept page puts each answer's nonce at, written by a member: text, never a nonce.
    await createPost(t.app, author.cookie, 'marks <!--nonce--> and __CSP_NONCE__ stay text');

    const res = await get(t, `/profile/${author.user.username}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(input.email);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('<script>bio()');
    const p = page(res);
    expect(p.title).toEqual([`${HOSTILE_NAME} (@${author.user.username}) · Cubes AI`]);
    expect(p.one('description')).toBe('</meta><script>bio()</script> "quoted" & co');
    expect(p.one('og:type')).toBe('profile');
    expect(p.links('canonical').map((l) => attr(l, 'href'))).toEqual([
      `${ORIGIN}/profile/${author.user.username}`,
    ]);
    expect(
      p
        .links('alternate')
        .filter((l) => !attr(l, 'hreflang'))
        .map((l) => [attr(l, 'type'), attr(l, 'href')]),
    ).toEqual([['application/rss+xml', `${ORIGIN}/profile/${author.user.username}.rss`]]);
    const [ld] = p.jsonLd;
    expect(ld['@type']).toBe('ProfilePage');
    expect(ld.mainEntity.name).toBe(HOSTILE_NAME);
    expect(ld.mainEntity.description).toBe('</meta><script>bio()</script> "quoted" & co');
    // The posts are in the page as text, and in the state exactly as written.
    expect(p.rootText).toContain('</script><script>alert(1)</script>');
    expect(p.rootText).toContain('w'.repeat(1990));
    expect(p.rootText).toContain('marks <!--nonce--> and __CSP_NONCE__ stay text');
    const state = JSON.stringify(p.state);
    expect(state).toContain(post.id);
    expect(state).toContain(long.id);
    expect(JSON.stringify(p.state)).toContain(JSON.stringify(HOSTILE_POST).slice(1, -1));
    expectOnlyDataScripts(res);
  });

  it('a tag: its counts in the description, its feed linked; an unused tag noindex, no tag a 404', async ({
    t,
  }) => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    await createPost(t.app, a.cookie, 'one #rendered_tag');
    await createPost(t.app, b.cookie, 'two #rendered_tag');
    const res = await get(t, '/tags/Rendered_Tag');
    expect(res.statusCode).toBe(200);
    const p = page(res);
    expect(p.title).toEqual(['#rendered_tag · Cubes AI']);
    expect(p.one('description')).toBe('#rendered_tag on Cubes AI: 2 posts by 2 people.');
    expect(p.links('canonical').map((l) => attr(l, 'href'))).toEqual([`${ORIGIN}/tags/rendered_tag`]);
    expect(
      p
        .links('alternate')
        .filter((l) => !attr(l, 'hreflang'))
        .map((l) => attr(l, 'href')),
    ).toEqual([`${ORIGIN}/tags/rendered_tag.rss`]);
    expect(p.rootText).toContain('one #rendered_tag');

    // A tag nobody used is a page that says so, kept out of search engines; what is no tag, a 404.
    const unused = await get(t, '/tags/never_used_here');
    expect(unused.statusCode).toBe(200);
    expect(page(unused).one('robots')).toBe('noindex');
    expect(page(unused).links('canonical')).toEqual([]);
    const notATag = await get(t, `/tags/${encodeURIComponent('<not a tag>')}`);
    expect(notATag.statusCode).toBe(404);
    expect(page(notATag).one('robots')).toBe('noindex');
  });

  it('a suspended member’s profile is a 404 with noindex and no old preview text', async ({ t }) => {
    const author = await registerUser(t.app, { ...newUserInput('susp'), displayName: 'Soon Suspended' });
    await updateSettings(t.app, author.cookie, { bio: 'a bio that must not survive' });
    await createPost(t.app, author.cookie, 'a post that must not survive');
    expect((await get(t, `/profile/${author.user.username}`)).body).toContain('a bio that must not survive');

    const mod = await registerModerator(t);
    await suspendOver(t.app, mod.cookie, author.user.id);
    const res = await get(t, `/profile/${author.user.username}`);
    expect(res.statusCode).toBe(404);
    expect(page(res).one('robots')).toBe('noindex');
    expect(res.body).not.toContain('a bio that must not survive');
    expect(res.body).not.toContain('a post that must not survive');
  });

  it('a deleted or removed post leaves the rendered feed at once', async ({ t }) => {
    const author = await registerUser(t.app);
    const deleted = await createPost(t.app, author.cookie, 'deleted soon, rendered first');
    const removed = await createPost(t.app, author.cookie, 'removed soon, rendered first');
    const before = await get(t, '/');
    expect(before.body).toContain('deleted soon, rendered first');
    expect(before.body).toContain('removed soon, rendered first');

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${deleted.id}`,
      headers: { cookie: author.cookie },
    });
    expect(del.statusCode, del.body).toBe(200);
    const reporter = await registerUser(t.app);
    const mod = await registerModerator(t);
    await reportAndRemove(t, reporter.cookie, mod.cookie, removed.id);
    const after = await get(t, '/');
    expect(after.body).not.toContain('deleted soon, rendered first');
    expect(after.body).not.toContain('removed soon, rendered first');
  });

  it('a member’s kept home drops a post at once when its author is muted or suspended, or it is removed', async ({
    t,
  }) => {
    const member = await registerUser(t.app, newUserInput('mkeep'));
    const [muted, suspended, reported] = await Promise.all(
      ['mmut', 'msus', 'mrem'].map((prefix) => registerUser(t.app, newUserInput(prefix))),
    );
    await createPost(t.app, muted!.cookie, 'a post by a member about to be muted');
    await createPost(t.app, suspended!.cookie, 'a post by a member about to be suspended');
    const removed = await createPost(t.app, reported!.cookie, 'a post about to be removed');
    const home = async () => page(await get(t, '/', member.cookie)).rootText;
    const before = await home();
    for (const text of ['about to be muted', 'about to be suspended', 'about to be removed'])
      expect(before).toContain(text);

    const mute = await t.app.inject({
      method: 'POST',
      url: `/api/users/${muted!.user.id}/mute`,
      headers: { cookie: member.cookie },
    });
    expect(mute.statusCode, mute.body).toBe(200);
    expect(await home()).not.toContain('about to be muted');

    const mod = await registerModerator(t);
    await suspendOver(t.app, mod.cookie, suspended!.user.id);
    expect(await home()).not.toContain('about to be suspended');

    await reportAndRemove(t, member.cookie, mod.cookie, removed.id);
    const after = await home();
    expect(after).not.toContain('about to be removed');
    expect(after).toContain(`Hi ${member.input.displayName}`);
  });

  it('search: the query escaped in the head, its canonical URL', async ({ t }) => {
    const res = await get(t, `/search?q=${encodeURIComponent('</title><script>q()</script>')}`);
    expect(res.statusCode).toBe(200);
    const p = page(res);
    expect(p.title).toEqual(['Search: </title><script>q()</script> · Cubes AI']);
    expect(p.meta('robots')).toEqual([]);
    expect(p.links('canonical').map((l) => attr(l, 'href'))).toEqual([
      `${ORIGIN}/search?q=${encodeURIComponent('</title><script>q()</script>')}`,
    ]);
    expect(res.body).not.toContain('<script>q()');
    expectOnlyDataScripts(res);
  });

  it('an old /?post= link is redirected to the post’s page; anything else there is home', async ({ t }) => {
    const id = '0b7e7a4e-2f0c-4c39-9a39-0d6f7d4f1a11';
    const res = await get(t, `/?post=${id}`);
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`/posts/${id}`);
    expect((await get(t, '/?post=%3Cscript%3E')).statusCode).toBe(200);
  });

  it('a post’s page: the post, its thread, its image as the preview with size and alt, JSON-LD', async ({
    t,
  }) => {
    const author = await registerUser(t.app, { ...newUserInput('pp'), displayName: HOSTILE_NAME });
    const image = await uploadPng(t.app, author.cookie, 640, 400);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/posts',
      headers: { cookie: author.cookie },
      payload: {
        content: `${HOSTILE_POST} with a picture`,
        images: [{ objectPath: image, alt: 'a blue "square" <here>' }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const post = created.json().post as { id: string };
    const reader = await registerUser(t.app);
    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${post.id}/comments`,
      headers: { cookie: reader.cookie },
      payload: { content: 'a comment </textarea><script>c()</script>' },
    });
    expect(comment.statusCode, comment.body).toBe(201);

    const res = await get(t, `/posts/${post.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>c()');
    const p = page(res);
    expect(p.rootText).toContain(`${HOSTILE_POST} with a picture`);
    expect(p.rootText).toContain('a comment </textarea><script>c()</script>');
    expect(p.title[0]).toBe(
      `${HOSTILE_NAME} (@${author.user.username}): “${HOSTILE_POST.replace(/\s+/g, ' ')} with a picture” · Cubes AI`,
    );
    expect(p.one('og:type')).toBe('article');
    expect(p.one('og:url')).toBe(`${ORIGIN}/posts/${post.id}`);
    expect(p.one('og:image')).toBe(`${ORIGIN}${image}`);
    expect(p.one('og:image:width')).toBe('640');
    expect(p.one('og:image:height')).toBe('400');
    expect(p.one('og:image:alt')).toBe('a blue "square" <here>');
    expect(p.one('twitter:card')).toBe('summary_large_image');
    expect(p.links('canonical').map((l) => attr(l, 'href'))).toEqual([`${ORIGIN}/posts/${post.id}`]);
    const [ld] = p.jsonLd;
    expect(ld).toMatchObject({
      '@type': 'SocialMediaPosting',
      url: `${ORIGIN}/posts/${post.id}`,
      articleBody: `${HOSTILE_POST} with a picture`,
      author: { name: HOSTILE_NAME, url: `${ORIGIN}/profile/${author.user.username}` },
      image: `${ORIGIN}${image}`,
    });
    expectOnlyDataScripts(res);

    // A post without an image previews with its author's avatar or the default card.
    const plain = await createPost(t.app, author.cookie, 'no picture here');
    const plainPage = page(await get(t, `/posts/${plain.id}`));
    expect(plainPage.one('og:image')).toBe(`${ORIGIN}/icons/icon-512.png`);
    expect(plainPage.one('twitter:card')).toBe('summary');
  });

  it('a deleted, removed or unknown post is a 404 with noindex, its state hydrating as gone', async ({
    t,
  }) => {
    const author = await registerUser(t.app);
    const gone = await createPost(t.app, author.cookie, 'a post deleted after its page was seen');
    expect((await get(t, `/posts/${gone.id}`)).body).toContain('a post deleted after its page was seen');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/posts/${gone.id}`,
      headers: { cookie: author.cookie },
    });
    expect(del.statusCode).toBe(200);
    for (const id of [gone.id, '0b7e7a4e-2f0c-4c39-9a39-0d6f7d4f1a11', 'not-a-uuid']) {
      const res = await get(t, `/posts/${id}`);
      expect(res.statusCode, id).toBe(404);
      const p = page(res);
      expect(p.one('robots')).toBe('noindex');
      expect(p.rootText).toContain('Post not found');
      expect(res.body).not.toContain('a post deleted after its page was seen');
      // The error is in the state, as the browser's TRPCClientError with its code.
      expect(JSON.stringify(p.state)).toMatch(/NOT_FOUND|BAD_REQUEST/);
    }
  });

  it('the paths of rendered pages count against the general limit, as API calls do', async ({
    appWith,
    dist,
  }) => {
    // 600 a minute per address, scaled down to 6 (the start-up's read of the OpenAPI document took one).
    const limited = await appWith({ config: { rateLimitScale: 0.01, webDist: dist, publicUrl: ORIGIN } });
    const statuses: number[] = [];
    for (const url of ['/', '/gallery', '/search?q=x', '/tags/x', '/profile/nobody', '/posts/x', '/'])
      statuses.push((await get(limited, url)).statusCode);
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('in the reader’s language: ?lang=, then the lang cookie, then Accept-Language; each kept apart; hreflang alternates', async ({
    t,
  }) => {
    const author = await registerUser(t.app);
    await createPost(t.app, author.cookie, 'a post in any language');
    const ask = (url: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url, headers });
    const html = (res: LightMyRequestResponse) =>
      elements(parse(res.body)).find((el) => el.tagName === 'html')!;
    const skip = { de: translated('de', 'Skip to content'), ar: translated('ar', 'Skip to content') };

    const german = await ask('/', { 'accept-language': 'fr-CH, de;q=0.9, en;q=0.8' });
    expect(german.statusCode).toBe(200);
    expect([attr(html(german), 'lang'), attr(html(german), 'dir')]).toEqual(['de', 'ltr']);
    expect(page(german).rootText).toContain(skip.de);
    expect(page(german).rootText).not.toContain('Skip to content');
    expect(String(german.headers.vary)).toContain('accept-language');
    expect(page(german).one('og:locale')).toBe('de_DE');
    // Every language's address, and the one that follows the reader.
    expect(
      page(german)
        .links('alternate')
        .filter((l) => attr(l, 'hreflang'))
        .map((l) => [attr(l, 'hreflang'), attr(l, 'href')]),
    ).toEqual([
      ['en', `${ORIGIN}/?lang=en`],
      ['de', `${ORIGIN}/?lang=de`],
      ['ar', `${ORIGIN}/?lang=ar`],
      ['x-default', `${ORIGIN}/`],
    ]);

    // English right after, from the same kept renders: each language is kept apart.
    const english = await ask('/', {});
    expect(attr(html(english), 'lang')).toBe('en');
    expect(page(english).rootText).toContain('Skip to content');

    // The cookie comes before the browser's languages, and ?lang= before both.
    const arabic = await ask('/', { cookie: 'lang=ar', 'accept-language': 'de' });
    expect([attr(html(arabic), 'lang'), attr(html(arabic), 'dir')]).toEqual(['ar', 'rtl']);
    expect(page(arabic).rootText).toContain(skip.ar);
    const asked = await ask('/?lang=de', { cookie: 'lang=ar' });
    expect(attr(html(asked), 'lang')).toBe('de');
    // A language's own address is its canonical one (not another of its hreflang addresses);
    // the address that follows the reader stays x-default.
    expect(
      page(german)
        .links('canonical')
        .map((l) => attr(l, 'href')),
    ).toEqual([`${ORIGIN}/`]);
    expect(
      page(asked)
        .links('canonical')
        .map((l) => attr(l, 'href')),
    ).toEqual([`${ORIGIN}/?lang=de`]);
    expect(page(asked).one('og:url')).toBe(`${ORIGIN}/?lang=de`);
    expect(
      page(asked)
        .links('alternate')
        .filter((l) => attr(l, 'hreflang') === 'x-default')
        .map((l) => attr(l, 'href')),
    ).toEqual([`${ORIGIN}/`]);

    // Anything else is English: unknown codes, garbage, a 70,000-character header.
    for (const headers of [
      { 'accept-language': 'fr, es;q=0.5' } as Record<string, string>,
      { 'accept-language': 'x'.repeat(70_000) },
      // Past the first 32 ranges nothing is read.
      { 'accept-language': `${'fr, '.repeat(40)}de` },
      { 'accept-language': 'de;q=0, en' },
      { cookie: 'lang=xx' },
    ]) {
      const res = await ask('/', headers);
      expect(res.statusCode, JSON.stringify(headers).slice(0, 60)).toBe(200);
      expect(attr(html(res), 'lang'), JSON.stringify(headers).slice(0, 60)).toBe('en');
    }
    const bad = await ask('/?lang=%00%3Cscript%3E', {});
    expect(attr(html(bad), 'lang')).toBe('en');

    // A member's shell, in their language too.
    const member = await registerUser(t.app);
    const shell = await ask('/', { cookie: `${member.cookie}; lang=de` });
    expect(attr(html(shell), 'lang')).toBe('de');
    expect(page(shell).rootText).toContain(skip.de);
  });
});
