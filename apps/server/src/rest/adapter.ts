/**
 * The REST adapter: registers each row of the routes table as a Fastify route that calls the
 * same tRPC procedure through a per-request caller. It maps paths and shapes, nothing else.
 */
import { type AppRouter, createCaller, describeError } from '@cubes/api';
import type { AnyProcedure, AnyRouter, TRPCRouterRecord as RouterRecord } from '@trpc/server';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ContextDeps, createRequestContext } from '../context.js';
import { sendError } from '../errors.js';

type ProcedurePaths<R, Prefix extends string = ''> = {
  [K in keyof R & string]: R[K] extends AnyProcedure
    ? `${Prefix}${K}`
    : R[K] extends RouterRecord
      ? ProcedurePaths<R[K], `${Prefix}${K}.`>
      : never;
}[keyof R & string];

/** Every procedure of the app router, as a dotted path ('auth.login'). */
export type ProcedurePath = ProcedurePaths<AppRouter['_def']['record']>;

export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify path, with :params */
  path: string;
  procedure: ProcedurePath;
  /** Builds the procedure input; default: the JSON body for writes, nothing for reads. */
  input?: (req: FastifyRequest) => unknown;
  /** Success status; default 200. */
  status?: number;
  /** Shapes the procedure's output into the REST body (and headers); default: as is. */
  output?: (result: never, reply: FastifyReply) => unknown;
}

function defaultInput(req: FastifyRequest): unknown {
  return req.method === 'GET' || req.method === 'DELETE' ? undefined : (req.body ?? undefined);
}

export function procedureExists(router: AnyRouter, path: string): boolean {
  return Object.hasOwn(router._def.procedures, path);
}

export function registerRestRoutes(
  app: FastifyInstance,
  deps: ContextDeps,
  routes: readonly RestRoute[],
): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (req, reply) => {
        const caller = createCaller(createRequestContext(deps, req, reply));
        const call = route.procedure
          .split('.')
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
          input: unknown,
        ) => Promise<unknown>;
        try {
          const result = await call((route.input ?? defaultInput)(req));
          const body = route.output ? route.output(result as never, reply) : result;
          if (reply.sent) return reply;
          return reply.status(reply.statusCode === 200 ? (route.status ?? 200) : reply.statusCode).send(body);
        } catch (error) {
          if (!(error instanceof TRPCError)) throw error;
          const status = getHTTPStatusCodeFromError(error);
          if (status >= 500) req.log.error({ err: error.cause ?? error }, 'procedure failed');
          const { retryAfterSeconds, ...body } = describeError(error);
          if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
          return sendError(reply, status, { ...body, code: error.code });
        }
      },
    });
  }
}
