/**
 * /sitemap.xml and /robots.txt. The sitemap lists what a visitor can open (syndication.service.ts
 * in @cubes/api chooses and keeps it): public profiles, tags with posts and the newest posts,
 * each with its `lastmod`; past SITEMAP_URLS_MAX URLs, /sitemap.xml is an index of
 * /sitemap-{n}.xml files. The XML is written by fast-xml-parser's builder, which escapes it.
 * robots.txt keeps crawlers off the API and the members' own pages, and names the sitemap.
 */
import { type SitemapRow, sitemapPage } from '@cubes/api';
import { ERROR_REASONS } from '@cubes/api/error-reasons';
import { XMLBuilder } from 'fast-xml-parser';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ContextDeps } from '../context.js';
import { sendError } from '../errors.js';
import { publicOrigin } from './public-origin.js';

export const SITEMAP_CACHE_CONTROL = 'public, max-age=300';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** Paths that are a member's own, or no page at all: nothing there for a search engine. */
// The API and the files it serves alone. A member's pages (/chat, /settings, …) are not listed:
// a crawler is sent to the login page there anyway, and a page robots.txt refuses is one
// Lighthouse's SEO audit marks down for the member who opens it.
export const ROBOTS_DISALLOW = ['/api/', '/trpc/', '/exports/'];

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', format: false });

export function registerSitemap(app: FastifyInstance, deps: ContextDeps, publicUrl: string | null): void {
  const serve = async (req: FastifyRequest, reply: FastifyReply, page: number) => {
    const origin = publicOrigin(publicUrl, req);
    if (!origin) return sendError(reply, 400, { message: ERROR_REASONS.INVALID_HOST, code: 'BAD_REQUEST' });
    const found = await sitemapPage(
      { em: req.em, cacheScope: deps.cacheScope, ...readReplicaOf(deps) },
      page,
    );
    if (!found) return sendError(reply, 404, { message: ERROR_REASONS.SITEMAP_NOT_FOUND, code: 'NOT_FOUND' });
    const body =
      found.kind === 'index'
        ? {
            sitemapindex: {
              '@xmlns': SITEMAP_NS,
              sitemap: Array.from({ length: found.pages }, (_, i) => ({
                loc: `${origin}/sitemap-${i + 1}.xml`,
              })),
            },
          }
        : { urlset: { '@xmlns': SITEMAP_NS, url: found.rows.map((row) => urlOf(origin, row)) } };
    return reply
      .header('cache-control', SITEMAP_CACHE_CONTROL)
      .type('application/xml; charset=utf-8')
      .send(`<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(body)}`);
  };

  app.get('/sitemap.xml', (req, reply) => serve(req, reply, 0));
  app.get('/sitemap-:page.xml', (req, reply) => {
    const { page } = req.params as { page: string };
    if (!/^[1-9][0-9]{0,5}$/.test(page)) {
      return sendError(reply, 404, { message: ERROR_REASONS.SITEMAP_NOT_FOUND, code: 'NOT_FOUND' });
    }
    return serve(req, reply, Number(page));
  });

  app.get('/robots.txt', (req, reply) => {
    const origin = publicOrigin(publicUrl, req);
    const lines = [
      '# Every public page may be indexed; the API and the members’ own pages are not for crawlers.',
      'User-agent: *',
      ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`),
      ...(origin ? ['', `Sitemap: ${origin}/sitemap.xml`] : []),
      '',
    ];
    return reply
      .header('cache-control', SITEMAP_CACHE_CONTROL)
      .type('text/plain; charset=utf-8')
      .send(lines.join('\n'));
  });
}

function readReplicaOf(deps: ContextDeps) {
  const readOrm = deps.readOrm;
  return readOrm ? { readReplica: () => readOrm.em.fork() } : {};
}

function urlOf(origin: string, row: SitemapRow) {
  const path =
    row.kind === 'profile'
      ? `/profile/${row.key}`
      : row.kind === 'tag'
        ? `/tags/${encodeURIComponent(row.key)}`
        : `/posts/${row.key}`;
  return { loc: `${origin}${path}`, lastmod: row.lastmod.toISOString() };
}
