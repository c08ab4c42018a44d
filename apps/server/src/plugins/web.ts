/**
 * Production: the built web app on the same port. Hashed assets are cached for a year;
 * index.html is always revalidated and answers every client route. Each index.html answer gets a
 * fresh CSP nonce: in its `<meta property="csp-nonce">` (the page gives it to the `<style>`
 * elements its libraries add) and in that answer's `style-src`; compress.ts compresses each one.
 * Files are sent as the build's Brotli or gzip copy (apps/web/build/precompress.ts) when the
 * browser accepts it, with `vary: accept-encoding` either way. The index.html sent for a lazy
 * page's path also names that page's chunks and its language's catalog (page-preloads.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SESSION_COOKIE } from '@cubes/api';
import { ERROR_REASONS } from '@cubes/api/error-reasons';
import { chooseLanguage, directionOf, LANGUAGES, type Language } from '@cubes/api/languages';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../errors.js';
import { MEMBER_PAGE_PATH } from '../pages/paths.js';
import { publicOrigin } from '../pages/public-origin.js';
import type { PageRenderer, Reader } from '../pages/render.js';
import { loadPageLinks } from './page-preloads.js';
import { withStyleNonce } from './security.js';

const NONCE_PLACEHOLDER = '__CSP_NONCE__';

export type SendIndex = (req: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply>;

export interface WebOptions {
  /** Renders a visitor's page into the index.html (pages/render.ts); null: every page as built. */
  renderer: PageRenderer | null;
  /** PUBLIC_URL: the origin of a rendered page's canonical and preview links. */
  publicUrl: string | null;
}

/** Sent by the service worker for its offline shell: the page unrendered. */
const SHELL_HEADER = 'x-cubes-shell';

/** A post's id in an old `/?post={id}` link (a uuid: nothing else is a post). */
const OLD_POST_LINK = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Serves `dist`; returns what answers client routes with index.html, or null when it is not built. */
export async function registerWeb(
  app: FastifyInstance,
  dist: string,
  { renderer, publicUrl }: WebOptions = { renderer: null, publicUrl: null },
): Promise<SendIndex | null> {
  const indexFile = path.join(dist, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn(`no built web app in ${dist}; serving the API only (run: pnpm build)`);
    return null;
  }
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    preCompressed: true,
    setHeaders: (res, file) => {
      const immutable =
        file.includes(`${path.sep}assets${path.sep}`) || file.includes(`${path.sep}fonts${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Read once: the build does not change under a running server. One copy of the page for each
  // lazy page, with its links before </head>, and the plain one for every other path.
  // Each language has its own copies: its `<html lang dir>` and the link to its catalog.
  const html = readFileSync(indexFile, 'utf8');
  const pageLinks = loadPageLinks(dist);
  const copies = Object.fromEntries(
    LANGUAGES.map((language) => {
      const inIt = inLanguage(html, language, pageLinks.catalog(language));
      return [
        language,
        {
          plain: splitOnce(inIt, NONCE_PLACEHOLDER),
          perPage: pageLinks.links.map((links) => splitOnce(withHeadLinks(inIt, links), NONCE_PLACEHOLDER)),
        },
      ];
    }),
  ) as Record<Language, { plain: [string, string | undefined]; perPage: [string, string | undefined][] }>;
  return async (req, reply) => {
    const [pathname, query = ''] = req.url.split('?', 2) as [string, string?];
    // A post's old link (`/?post={id}`, shared before posts had pages): its page now.
    const oldPost = pathname === '/' ? new URLSearchParams(query).get('post') : null;
    if (oldPost && OLD_POST_LINK.test(oldPost)) return reply.redirect(`/posts/${oldPost.toLowerCase()}`, 301);

    // The page's language (@cubes/api/languages): the browser loads its catalog, and a rendered
    // page is rendered in it.
    const language = chooseLanguage({
      query: new URLSearchParams(query).get('lang'),
      cookies: req.headers.cookie,
      accepted: req.headers['accept-language'],
    });
    const { plain, perPage } = copies[language];
    const [before, after] = perPage[pageLinks.find(pathname)] ?? plain;
    const nonce = randomBytes(16).toString('base64');
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp === 'string') reply.header('content-security-policy', withStyleNonce(csp, nonce));
    const page = after === undefined ? before : `${before}${nonce}${after}`;
    // The answer differs for a member (their own page) and a visitor, and by language.
    reply
      .header('cache-control', 'no-cache')
      .header('vary', 'cookie, accept-language')
      .type('text/html; charset=utf-8');
    // The service worker's offline shell (pwa/service-worker.js) is the page as built.
    if (req.headers[SHELL_HEADER] !== undefined) return reply.send(page);
    // Home, Chat, their profile, bookmarks, notifications and the public pages are rendered with a
    // member's data, once their session is confirmed (read before routing, plugins/session.ts); a
    // cookie whose session has ended gets a visitor's page. Their other pages: the shell
    // (entry-server.tsx says which are drawn).
    const reader: Reader =
      req.cookies[SESSION_COOKIE] === undefined
        ? 'visitor'
        : MEMBER_PAGE_PATH.test(pathname)
          ? req.session
            ? 'member'
            : 'visitor'
          : 'shell';
    if (!renderer?.renders(pathname, reader)) return reply.send(page);
    // The member's own data: for them alone, stored by no browser or proxy (a shared computer's
    // back button, a cache between).
    if (reader === 'member') reply.header('cache-control', 'private, no-store');

    const origin = publicOrigin(publicUrl, req);
    if (!origin) return sendError(reply, 400, { message: ERROR_REASONS.INVALID_HOST, code: 'BAD_REQUEST' });
    try {
      const template = {
        html: after === undefined ? before : `${before}${NONCE_PLACEHOLDER}${after}`,
        nonce: NONCE_PLACEHOLDER,
      };
      const rendered = await renderer.render(req, origin, reader, language, template);
      return reply.code(rendered.status).send(rendered.parts.join(nonce));
    } catch (error) {
      // The page still works: the browser renders it, as for a member.
      req.log.error({ err: error }, 'server render failed; sending the page unrendered');
      return reply.send(page);
    }
  };
}

/**
 * The page with its `<html lang dir>` for `language` (the build writes `<html lang="en">`) and the
 * link to its catalog.
 */
function inLanguage(html: string, language: Language, catalogLink: string): string {
  const marked = html.replace(
    /<html lang="[a-z]+"/,
    `<html lang="${language}" dir="${directionOf(language)}"`,
  );
  return catalogLink ? withHeadLinks(marked, catalogLink) : marked;
}

function withHeadLinks(html: string, links: string): string {
  const at = html.indexOf('</head>');
  return at < 0 ? html : `${html.slice(0, at)}${links}\n  ${html.slice(at)}`;
}

function splitOnce(text: string, marker: string): [string, string | undefined] {
  const at = text.indexOf(marker);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + marker.length)];
}
