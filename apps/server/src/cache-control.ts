/**
 * Cache-Control for every /api and /trpc answer, decided here and nowhere else, from the
 * procedures that made it:
 * - a procedure built with `sharedProcedure` (packages/api/src/trpc.ts) never sees the session,
 *   so its success carries the Cache-Control its meta names, for shared caches too, and its
 *   errors `no-store`;
 * - every other procedure may read the session (a member's own things, what a visitor sees
 *   instead, the blocks and mutes taken out of a public list): all its answers, errors included
 *   (a 401, or a 404 for what someone else may see), are `private, no-store`;
 * - so is whatever no procedure made: an unknown path, a 405, a 415, a rate limit.
 * An answer that set its own (the OpenAPI document, the web app's files) keeps it. A tRPC batch
 * is shared only when each of its calls is, with one Cache-Control.
 */
import { appRouter, type ProcedureMeta } from '@cubes/api';
import type { AnyProcedure } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { routedPath } from './request-path.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The procedure a REST row calls (rest/adapter.ts), for its Cache-Control. */
    procedure?: string;
  }
}

export const PRIVATE_NO_STORE = 'private, no-store';

const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure | undefined>;

function sharedCacheOf(path: string): string | undefined {
  return (procedures[path]?._def.meta as ProcedureMeta | undefined)?.sharedCache;
}

/** The Cache-Control of an answer made by the procedures at `paths`, with or without success. */
export function cacheControlOf(paths: readonly string[], ok: boolean): string {
  const shared = paths.map(sharedCacheOf);
  const [first] = shared;
  if (first === undefined || shared.some((policy) => policy !== first)) return PRIVATE_NO_STORE;
  return ok ? first : 'no-store';
}

/** Registered before the tRPC plugin and the REST rows, so that their answers pass through it. */
export function registerCacheControl(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    // The routed path: `/%74rpc/…` and `http://x/api/…` reach the same procedures (request-path.ts).
    const path = routedPath(req);
    const trpc = path.startsWith('/trpc/');
    if (!(trpc || path.startsWith('/api/')) || reply.hasHeader('cache-control')) return done(null, payload);
    // tRPC answers with a fetch Response, whose status Fastify copies after this hook.
    const status = payload instanceof Response ? payload.status : reply.statusCode;
    const procedure = req.routeOptions.config?.procedure;
    const paths = trpc
      ? trpcPaths((req.params as { path?: string }).path ?? '')
      : procedure
        ? [procedure]
        : [];
    reply.header('cache-control', cacheControlOf(paths, status < 300));
    done(null, payload);
  });
}

/**
 * The procedures tRPC's route parameter names (`a,b` of `/trpc/a,b?batch=1`, decoded once by the
 * router); tRPC decodes it once more. None when it cannot be read.
 */
function trpcPaths(param: string): string[] {
  try {
    return decodeURIComponent(param).split(',');
  } catch {
    return [];
  }
}
