/**
 * The origin absolute links are made of (permalinks in feeds, the sitemap, robots.txt, and the
 * previews of rendered pages): PUBLIC_URL when set, else the request's own origin (behind a
 * proxy, TRUST_PROXY lets X-Forwarded-Proto and -Host name it). A Host that is no origin at all
 * gets null: the caller answers 400 rather than print it.
 */
import type { FastifyRequest } from 'fastify';

const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

export function publicOrigin(configured: string | null, req: FastifyRequest): string | null {
  if (configured) return configured;
  try {
    // A name or a bracketed IPv6 address, and a port: `evil.test/"><x` would parse, as evil.test.
    if (!HOST.test(req.host)) return null;
    return new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    return null;
  }
}
