/**
 * The path a request reached, as the router saw it. `req.url` is the raw request target: it can
 * be percent-encoded (`/%61pi/…` routes to `/api/…`) or in absolute form (`http://host/api/…`),
 * and Fastify routes both. A check on the raw target's prefix would let either past it (the
 * general rate limit, the session hook), so those checks ask this module.
 */
import type { FastifyRequest } from 'fastify';

/** The request target without a scheme and authority (absolute form) and without its query. */
function targetPath(url: string): string {
  let path = url;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length) || '/';
  const query = path.search(/[?#]/);
  return query === -1 ? path : path.slice(0, query);
}

/**
 * The route's own pattern when the request was routed (`/api/posts/:id`, `/trpc/:path`), or the
 * target's path, decoded once as the router decodes it, when no route matched (a 404).
 */
export function routedPath(req: FastifyRequest): string {
  const route = req.routeOptions.url;
  if (route !== undefined) return route;
  const path = targetPath(req.url);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The target's query string, with its `?` (empty when there is none), also in absolute form. */
export function targetQuery(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return '';
  const end = url.indexOf('#', start);
  return end === -1 ? url.slice(start) : url.slice(start, end);
}
