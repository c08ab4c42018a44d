/**
 * The REST adapter: registers each row of the routes table as a Fastify route that calls the
 * same tRPC procedure, found once at start-up and called as tRPC's own handlers call it (all its
 * middleware and input validation run). It maps paths and shapes, nothing else.
 */
import { type AppRouter, appRouter, describeError } from '@cubes/api';
import type { AnyProcedure, AnyRouter, TRPCRouterRecord as RouterRecord } from '@trpc/server';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ContextDeps, createHttpContext } from '../context.js';
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

function procedureAt(router: AnyRouter, path: string): AnyProcedure | undefined {
  return procedureExists(router, path) ? (router._def.procedures[path] as AnyProcedure) : undefined;
}

export function registerRestRoutes(
  app: FastifyInstance,
  deps: ContextDeps,
  routes: readonly RestRoute[],
): void {
  for (const route of routes) {
    const procedure = procedureAt(appRouter, route.procedure);
    if (!procedure)
      throw new Error(`REST route ${route.method} ${route.path}: no procedure ${route.procedure}`);
    const type = procedure._def.type;
    const readInput = route.input ?? defaultInput;
    app.route({
      method: route.method,
      url: route.path,
      handler: async (req, reply) => {
        try {
          const input = readInput(req);
          const result = await procedure({
            path: route.procedure,
            type,
            ctx: createHttpContext(deps, req, reply),
            async getRawInput() {
              return input;
            },
            signal: undefined,
            batchIndex: 0,
          });
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
