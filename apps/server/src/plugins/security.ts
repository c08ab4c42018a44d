/**
 * Browser-facing protection: security headers, and a CSRF guard that refuses state-changing
 * requests sent from another origin. Requests without an Origin header (curl, server-to-server)
 * pass; the session cookie's SameSite=Lax covers old browsers that omit it.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from '../errors.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function ownOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

export async function registerSecurity(
  app: FastifyInstance,
  allowedOrigins: string[],
  /** Other origins the page may connect to (an S3 endpoint that receives uploads). */
  connectSources: string[] = [],
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        'connect-src': ["'self'", ...connectSources],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'font-src': ["'self'", 'data:'],
        // Served over plain http on localhost by default; upgrading would break every asset.
        'upgrade-insecure-requests': null,
      },
    },
    strictTransportSecurity: false,
  });

  const allowed = new Set(allowedOrigins);
  app.addHook('onRequest', async (req, reply) => {
    if (!UNSAFE.has(req.method)) return;
    const origin = req.headers.origin;
    if (origin === undefined) return;
    if (origin === ownOrigin(req) || allowed.has(origin)) return;
    return sendError(reply, 403, {
      message: 'Cross-origin request refused',
      code: 'FORBIDDEN',
    });
  });
}
