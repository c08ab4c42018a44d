/**
 * Times every HTTP request into cubes_http_request_duration_seconds, labelled by the route's
 * pattern (`/api/posts/:id`), never the raw URL, so the number of series stays bounded. Calls to
 * /trpc are labelled by procedure (`/trpc/posts.feed`); a batch of different procedures is
 * `/trpc/(batch)` and a name the router does not have is `/trpc/(unknown)`. Requests that
 * matched no route are `(unmatched)`.
 */
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpDuration } from './metrics.registry.js';

export function registerHttpMetrics(app: FastifyInstance, router: AnyRouter, trpcPrefix = '/trpc'): void {
  const procedures = new Set(Object.keys(router._def.procedures as Record<string, AnyProcedure>));
  const trpcRoute = `${trpcPrefix}/:path`;

  function routeOf(req: FastifyRequest): string {
    const pattern = req.routeOptions.url;
    if (!pattern) return '(unmatched)';
    if (pattern !== trpcRoute) return pattern;
    const names = String((req.params as { path?: string }).path ?? '').split(',');
    const first = names[0] ?? '';
    if (!procedures.has(first)) return `${trpcPrefix}/(unknown)`;
    return names.every((name) => name === first) ? `${trpcPrefix}/${first}` : `${trpcPrefix}/(batch)`;
  }

  app.addHook('onResponse', (req, reply, done) => {
    httpDuration.observe(
      { method: req.method, route: routeOf(req), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
