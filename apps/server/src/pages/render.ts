/**
 * Pages rendered on the server (issue #48). For a visitor: `/`, `/posts/{id}`,
 * `/profile/{username}`, `/tags/{tag}`, `/search?q=` and `/gallery`. The web app's own React tree
 * renders them (apps/web/src/entry-server.tsx, built by `vite build --ssr` into
 * apps/web/dist-ssr/), fed by its route loaders through a tRPC link that calls the router in this
 * process as the request's reader (`unstable_localLink`, made by the renderer): the same
 * procedures, kept reads, rules and errors as /api, so a block, a suspension or a deletion shows
 * at once, as the events drop the kept reads.
 *
 * A member (a session cookie) gets their home, Chat, profile, bookmarks, notifications, Settings
 * and the pages above rendered with their own data, as /api would answer them (their session read
 * before routing: plugins/session.ts): their likes, their blocks. Kept for them alone
 * (rendered-pages.cache.ts), and `private, no-store`
 * (plugins/web.ts). Moderation is the shell (header, tab bar, "Checking your session…"), rendered
 * from no data and kept like a visitor's page: the browser asks for the session and the page's
 * data as before.
 *
 * This module only joins the render into the built index.html: the head's tags (every value
 * escaped), the app's HTML in #root, and the dehydrated query cache as JSON under the page's nonce
 * with `<` escaped, so no text of a post can close the script.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppRouter, Context } from '@cubes/api';
import { appRouter } from '@cubes/api';
import type { Language } from '@cubes/api/languages';
import escapeHtml from 'escape-html';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { type ContextDeps, createHttpContext } from '../context.js';
import { keptPage, memberPages } from './rendered-pages.cache.js';

/**
 * Whom a page is rendered for: a visitor (no session cookie), a member with their own data (home,
 * Chat, their profile, bookmarks, notifications, Settings and the public pages), or a member's
 * shell (Moderation).
 */
export type Reader = 'visitor' | 'member' | 'shell';

/** The renderer's module, as entry-server.tsx exports it. */
interface RendererModule {
  RENDERED_STATE_ID: string;
  /** The cookies a member's own page is drawn by (their choices on this device), and no other. */
  MEMBER_PAGE_COOKIES: readonly string[];
  rendersOnServer(pathname: string, reader: Reader): boolean;
  render(options: {
    url: string;
    origin: string;
    router: AppRouter;
    createContext: () => Promise<Context>;
    reader: Reader;
    language: Language;
    cookies: Record<string, string>;
  }): Promise<RenderedPage>;
}

export type HeadTag =
  | { tag: 'title'; text: string }
  | { tag: 'meta'; name?: string; property?: string; content: string }
  | { tag: 'link'; rel: string; href: string; type?: string; title?: string; hreflang?: string }
  | { tag: 'json-ld'; json: object };

interface RenderedPage {
  status: 200 | 404;
  head: HeadTag[];
  html: string;
  state: string;
}

export interface PageRenderer {
  /** Whether `pathname` is rendered here for `reader`. */
  renders(pathname: string, reader: Reader): boolean;
  /**
   * The page: its status and `template` (the index.html for its path, `nonce` standing for each
   * answer's nonce) with the page in it, in parts to be joined with the answer's nonce.
   */
  render(
    req: FastifyRequest,
    origin: string,
    reader: Reader,
    language: Language,
    template: { html: string; nonce: string },
  ): Promise<{ status: number; parts: readonly string[] }>;
}

/** The built renderer beside `webDist` (apps/web/dist-ssr/), or null when it is not built. */
export async function loadPageRenderer(
  webDist: string,
  deps: ContextDeps,
  log: FastifyBaseLogger,
): Promise<PageRenderer | null> {
  const file = path.join(webDist, '..', 'dist-ssr', 'entry-server.js');
  if (!existsSync(file)) {
    log.warn(
      `no server renderer in ${path.dirname(file)}; pages are rendered in the browser (run: pnpm build)`,
    );
    return null;
  }
  let renderer: RendererModule;
  try {
    renderer = (await import(pathToFileURL(file).href)) as RendererModule;
  } catch (error) {
    log.error({ err: error }, 'the server renderer did not load; pages are rendered in the browser');
    return null;
  }
  return {
    renders: (pathname, reader) => renderer.rendersOnServer(pathname, reader),
    render(req, origin, reader, language, template) {
      const createContext = async () => createHttpContext(deps, req, null);
      // The member's choices on this device that their page is drawn by (the feed's tab): never
      // the session's cookie, which nothing rendered needs.
      const cookies = reader === 'member' ? pick(req.cookies, renderer.MEMBER_PAGE_COOKIES) : {};
      const renderPage = async () => {
        const page = await renderer.render({
          url: req.url,
          origin,
          router: appRouter,
          createContext,
          reader,
          language,
          cookies,
        });
        const html = template.html.split(template.nonce).join(NONCE);
        return {
          status: page.status,
          parts: fill(html, page, NONCE, renderer.RENDERED_STATE_ID, reader).split(NONCE),
        };
      };
      // Every visitor asking for a path gets the same page, and every member the same shell: kept
      // (rendered-pages.cache.ts), dropped by the events that change what it shows, and kept
      // written out, so an answer costs a join with its nonce. A member's own page is kept for
      // them alone (their id, and the feed their device chose, in its key).
      if (reader === 'member') {
        const key = `${req.session?.user.id} ${JSON.stringify(cookies)} ${language} ${origin}${req.url}`;
        return keptPage(deps.cacheScope, key, renderPage, memberPages);
      }
      return keptPage(deps.cacheScope, `${reader} ${language} ${origin}${req.url}`, renderPage);
    },
  };
}

function pick(cookies: Record<string, string | undefined>, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = cookies[name];
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/**
 * Where each answer's nonce goes in a kept page: a comment, which no text of the page can spell
 * (React's HTML, the head's attributes and the JSON all escape `<`).
 */
const NONCE = '<!--nonce-->';

/**
 * index.html with the page in it: its head, its HTML in #root, its state before </body>, and its
 * scripts asked for as the page needs them (below).
 */
function fill(html: string, page: RenderedPage, nonce: string, stateId: string, reader: Reader): string {
  const head = page.head.map((tag) => headTag(tag, nonce)).join('\n    ');
  const state = `<script type="application/json" id="${stateId}" nonce="${nonce}">${scriptJson(page.state)}</script>`;
  return (reader === 'shell' ? scriptsAtLowPriority(html) : scriptsAfterPaint(html))
    .replace(/<title>[^<]*<\/title>/, '')
    .replace(/<meta name="description"[^>]*>/, '')
    .replace('</head>', `  ${head}\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${page.html}</div>\n    ${state}`);
}

/**
 * A visitor's page, and a member's home and Chat, are whole without their scripts, so they ask for
 * none of them before they are on screen. The entry's `<script type="module">` and every `modulepreload` link (its chunks, the
 * page's, the language's catalog) give way to public/start-after-paint.js, which asks for them all
 * at once when the page has painted and then starts the app. Asked for beside the page, ~150 KB of
 * script shared a slow phone's connection with the stylesheet, the font and the first image, and
 * the browser ran what had come before its first frame: Lighthouse mobile's largest paint went
 * from 2.6-3.7 s to 1.5-1.8 s (bench/README.md, "Paint first, then the scripts"). A member's
 * rendered home asking for them at once, at low priority: 2.8-3.0 s.
 */
function scriptsAfterPaint(html: string): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
  if (!entry) return html;
  const preloads: string[] = [];
  const withoutLinks = html.replace(
    /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g,
    (_, href: string) => {
      preloads.push(href);
      return '';
    },
  );
  return withoutLinks.replace(
    entry[0],
    `<script defer src="/start-after-paint.js" data-entry="${escapeHtml(entry[1]!)}" data-preload="${escapeHtml(preloads.join(' '))}"></script>`,
  );
}

/**
 * A member's shell (header, tab bar, skeletons) paints without its scripts, but what it is waiting
 * for comes from them: they are asked for at once, at low priority, so the stylesheet and the font
 * come first and the shell paints while they arrive (first paint 2.3-2.8 s -> 1.0-1.2 s).
 */
function scriptsAtLowPriority(html: string): string {
  return html
    .replace(/<script type="module" crossorigin /g, '<script type="module" crossorigin fetchpriority="low" ')
    .replace(
      /<link rel="modulepreload" crossorigin /g,
      '<link rel="modulepreload" crossorigin fetchpriority="low" ',
    );
}

function headTag(tag: HeadTag, nonce: string): string {
  switch (tag.tag) {
    case 'title':
      return `<title>${escapeHtml(tag.text)}</title>`;
    case 'meta': {
      const key = tag.property
        ? `property="${escapeHtml(tag.property)}"`
        : `name="${escapeHtml(tag.name ?? '')}"`;
      return `<meta ${key} content="${escapeHtml(tag.content)}">`;
    }
    case 'link': {
      const type = tag.type ? ` type="${escapeHtml(tag.type)}"` : '';
      const title = tag.title ? ` title="${escapeHtml(tag.title)}"` : '';
      const hreflang = tag.hreflang ? ` hreflang="${escapeHtml(tag.hreflang)}"` : '';
      return `<link rel="${escapeHtml(tag.rel)}"${hreflang}${type}${title} href="${escapeHtml(tag.href)}">`;
    }
    case 'json-ld':
      return `<script type="application/ld+json" nonce="${nonce}">${scriptJson(JSON.stringify(tag.json))}</script>`;
  }
}

/**
 * JSON inside a <script>: `<` (so neither `</script>` nor `<!--` can appear), and the two line
 * separators JavaScript once read as line ends, as \u escapes; JSON parsers read them back.
 */
function scriptJson(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
