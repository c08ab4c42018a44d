/**
 * Browser-facing protection: security headers (HSTS only over HTTPS), and a CSRF guard that refuses state-changing
 * requests sent from another origin. Requests without an Origin header (curl, server-to-server)
 * pass; the session cookie's SameSite=Lax covers old browsers that omit it.
 *
 * The headers are helmet's, worked out once at start: they depend only on the configuration,
 * and @fastify/helmet would rebuild helmet (re-parsing the CSP) on every request.
 */
import { IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ERROR_REASONS } from '@cubes/api/error-reasons';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { sendError } from '../errors.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Helmet's default Strict-Transport-Security: a year, subdomains included. */
export const HSTS = 'max-age=31536000; includeSubDomains';

export function ownOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/**
 * Whether a browser page on `origin` may act on this app: the origin the request reached us on
 * (so each instance of several is its own), or one configured in APP_ORIGIN. No Origin header
 * (curl, server-to-server) is fine: the session cookie is SameSite=Lax.
 */
export function originAllowed(req: FastifyRequest, allowed: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  return origin === undefined || origin === ownOrigin(req) || allowed.has(origin);
}

/** The headers helmet sets for these options, read off a response it never sends. */
export function helmetHeaders(options: HelmetOptions): OutgoingHttpHeaders {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  helmet(options)(res.req, res, (error?: unknown) => {
    if (error) throw error;
  });
  return res.getHeaders();
}

/** `csp` with `nonce` allowed in style-src (one page load's `<style>` elements). */
export function withStyleNonce(csp: string, nonce: string): string {
  return csp.replace(/(^|;)style-src ([^;]*)/, `$1style-src $2 'nonce-${nonce}'`);
}

export function registerSecurity(
  app: FastifyInstance,
  allowedOrigins: string[],
  /** Other origins the page may connect to (an S3 endpoint that receives uploads). */
  connectSources: string[] = [],
  /** COOKIE_SECURE: the app is served over HTTPS, so HSTS goes on every answer. */
  httpsOnly = false,
): void {
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        // Our own origin only: images of other sites would tell them who looks at what.
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'", ...connectSources],
        'script-src': ["'self'"],
        // No 'unsafe-inline': index.html's answer adds its own nonce (withStyleNonce) for the
        // <style> elements a library adds; React's style props go through the CSSOM, which CSP allows.
        'style-src': ["'self'"],
        // Style attributes only (no <style> element, no stylesheet): a page rendered on the server
        // (pages/render.ts) writes React's style props (an avatar's size, an image grid's aspect
        // ratio) as attributes, which the browser would otherwise refuse. An attribute can neither
        // run script nor fetch from another origin (img-src and font-src stay 'self').
        'style-src-attr': ["'unsafe-inline'"],
        'font-src': ["'self'", 'data:'],
        // The web manifest and the service worker (/sw.js) are the app's own files.
        'manifest-src': ["'self'"],
        'worker-src': ["'self'"],
        // Served over plain http on localhost by default; upgrading would break every asset.
        'upgrade-insecure-requests': null,
      },
    },
    strictTransportSecurity: false,
  });
  // HSTS only where it belongs: a browser that got it over plain-http localhost would be pinned
  // to an HTTPS that is not there. Behind a TLS-terminating proxy, req.protocol is https when
  // TRUST_PROXY trusts it.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(headers);
    if (httpsOnly || req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });

  const allowed = new Set(allowedOrigins);
  app.addHook('onRequest', (req, reply, done) => {
    if (!UNSAFE.has(req.method) || originAllowed(req, allowed)) return done();
    sendError(reply, 403, { message: ERROR_REASONS.CROSS_ORIGIN_REFUSED, code: 'FORBIDDEN' });
  });
}
