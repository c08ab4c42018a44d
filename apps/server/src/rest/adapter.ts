/**
 * The REST adapter: registers each row of the REST table (each module's `*.rest.ts`, collected as
 * `restRows` in packages/api/src/rest.ts) as a Fastify route that calls the same tRPC procedure,
 * found once at start-up and called as tRPC's own handlers call it (all its middleware and input
 * validation run). A row says declaratively where the input comes from and
 * how the result is shaped, so the same row also drives the OpenAPI document (openapi.ts), which
 * is served at GET /api/openapi.json. It maps paths and shapes, nothing else.
 */
import { describeError, isGone, type RestRow, withoutCursor } from '@cubes/api';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ContextDeps, createHttpContext } from '../context.js';
import { sendError } from '../errors.js';
import { OPENAPI_PATH, registerOpenApi } from './openapi.js';
import { inputJsonSchema, inputProperties, procedureAt } from './procedures.js';

export { procedureExists } from './procedures.js';

function objectBody(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

/** Builds the row's input reader once: a fixed copy of named fields, nothing decided per request. */
function inputReader(route: RestRow, numericFields: ReadonlySet<string>): (req: FastifyRequest) => unknown {
  const params = Object.entries(route.params ?? {});
  const query = (route.query ?? []) as readonly string[];
  const body = route.body as true | readonly string[] | undefined;
  if (params.length === 0 && query.length === 0) {
    if (body === true) return (req) => req.body ?? undefined;
    if (body === undefined) return () => undefined;
  }
  return (req) => {
    const input: Record<string, unknown> = body === true ? { ...objectBody(req) } : {};
    if (body !== undefined && body !== true) {
      const fields = objectBody(req);
      for (const name of body) input[name] = fields[name];
    }
    const values = req.query as Record<string, unknown>;
    for (const name of query) {
      const value = values[name];
      // A number that is not one (?limit=ten → NaN) fails the procedure's validation.
      input[name] = value !== undefined && numericFields.has(name) ? Number(value) : value;
    }
    const pathValues = req.params as Record<string, string | undefined>;
    for (const [param, field] of params) input[field] = pathValues[param];
    return input;
  };
}

function numericInputFields(route: RestRow): Set<string> {
  const properties = inputProperties(inputJsonSchema(procedureAt(route.procedure)));
  const numeric = new Set<string>();
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.type === 'integer' || schema.type === 'number') numeric.add(name);
  }
  return numeric;
}

function shapeOutput(route: RestRow, result: unknown, reply: FastifyReply): unknown {
  if (route.paged === 'object') {
    const page = result as { nextCursor: string | null };
    if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
    return withoutCursor(page);
  }
  if (route.paged) {
    const page = result as { items: unknown[]; nextCursor: string | null };
    if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
    return page.items;
  }
  if (route.unavailableUnless && !(result as Record<string, unknown>)[route.unavailableUnless])
    reply.status(503);
  return result;
}

/** Methods in the order an Allow header lists them. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * For a URL no route took: the methods its path answers, when some row has that path with other
 * methods (the 405's Allow header), or null when no row has it (404). GET brings HEAD, which
 * Fastify answers for every GET route. A `:param` matches as the router matches it, empty included.
 */
export function allowedMethodsOf(
  rows: readonly { method: string; path: string }[],
): (url: string) => string[] | null {
  const patterns = rows.map((row) => ({
    method: row.method,
    pattern: new RegExp(
      `^${row.path
        .split(/:[A-Za-z0-9_]+/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'))
        .join('[^/]*')}$`,
    ),
  }));
  return (url) => {
    const path = url.split('?')[0]!;
    const methods = new Set(patterns.filter((p) => p.pattern.test(path)).map((p) => p.method));
    if (methods.size === 0) return null;
    if (methods.has('GET')) methods.add('HEAD');
    return METHOD_ORDER.filter((method) => methods.has(method));
  };
}

/**
 * Registers the rows and the OpenAPI document; returns, for the not-found handler, the methods a
 * URL's path answers (allowedMethodsOf).
 */
export function registerRestRoutes(
  app: FastifyInstance,
  deps: ContextDeps,
  routes: readonly RestRow[],
): (url: string) => string[] | null {
  for (const route of routes) {
    const procedure = procedureAt(route.procedure);
    const type = procedure._def.type;
    const readInput = inputReader(route, numericInputFields(route));
    app.route({
      method: route.method,
      url: route.path,
      // Its answers' Cache-Control follows the procedure (cache-control.ts).
      config: { procedure: route.procedure },
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
          const body = shapeOutput(route, result, reply);
          if (reply.sent) return reply;
          return reply.status(reply.statusCode === 200 ? (route.status ?? 200) : reply.statusCode).send(body);
        } catch (error) {
          if (!(error instanceof TRPCError)) throw error;
          // A poll that ended: 410, which tRPC has no code for (errors.ts's gone()).
          if (isGone(error)) return sendError(reply, 410, { message: error.message, code: 'GONE' });
          const status = getHTTPStatusCodeFromError(error);
          if (status === 503) req.log.warn({ err: error.cause ?? error }, 'database unavailable');
          else if (status >= 500) req.log.error({ err: error.cause ?? error }, 'procedure failed');
          const { retryAfterSeconds, message, ...body } = describeError(error);
          if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
          return sendError(reply, status, { message, code: error.code, ...body });
        }
      },
    });
  }
  registerOpenApi(app, routes);
  return allowedMethodsOf([...routes, { method: 'GET', path: OPENAPI_PATH }]);
}
