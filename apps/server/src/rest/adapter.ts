/**
 * The REST adapter: registers each row of the routes table as a Fastify route that calls the
 * same tRPC procedure, found once at start-up and called as tRPC's own handlers call it (all its
 * middleware and input validation run). A row says declaratively where the input comes from and
 * how the result is shaped, so the same row also drives the OpenAPI document (openapi.ts), which
 * is served at GET /api/openapi.json. It maps paths and shapes, nothing else.
 */
import { describeError, type RouterInputs, type RouterOutputs, withoutCursor } from '@cubes/api';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ContextDeps, createHttpContext } from '../context.js';
import { sendError } from '../errors.js';
import { OPENAPI_PATH, registerOpenApi } from './openapi.js';
import { inputJsonSchema, inputProperties, type ProcedurePath, procedureAt } from './procedures.js';

export { type ProcedurePath, procedureExists } from './procedures.js';

type At<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : P extends keyof T
    ? T[P]
    : never;

/** The field names of what a client sends to the procedure at P (an input may also be left out). */
type Fields<T> = T extends object ? keyof T & string : never;
type InputField<P extends ProcedurePath> = Fields<At<RouterInputs, P>>;
type Output<P extends ProcedurePath> = At<RouterOutputs, P>;

/** Error statuses a procedure gives beyond those the row's shape implies (see openapi.ts). */
export type ProcedureErrorStatus = 400 | 401 | 403 | 404 | 409 | 502;

interface RouteBase<P extends ProcedurePath> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify path, with :params */
  path: string;
  procedure: P;
  /** One line for the OpenAPI document. */
  summary: string;
  /** Path parameter → input field: `{ id: 'postId' }`. */
  params?: Readonly<Record<string, InputField<P>>>;
  /** Query parameters copied into the input by name; numbers where the input schema wants a number. */
  query?: readonly InputField<P>[];
  /** The JSON body: `true` is the whole body as the input (path and query fields added); a list picks fields. */
  body?: true | readonly InputField<P>[];
  /** Success status; default 200. */
  status?: number;
  /** The procedure needs a logged-in session: 401 without one. */
  auth?: true;
  /** What the procedure itself can answer that the row's shape does not imply (409 on a taken name…). */
  errors?: readonly ProcedureErrorStatus[];
}

type RouteOf<P extends ProcedurePath> = RouteBase<P> &
  (
    | {
        /**
         * The result is a page. `true`: its items are the body; `'object'`: all but its
         * nextCursor is the body. The cursor goes in X-Next-Cursor.
         */
        paged: Output<P> extends { nextCursor: string | null } ? true | 'object' : never;
        unavailableUnless?: never;
      }
    | {
        paged?: never;
        /** A boolean field of the result; when it is false the status is 503 (same body). */
        unavailableUnless?: {
          [K in keyof Output<P>]: Output<P>[K] extends boolean ? K : never;
        }[keyof Output<P>];
      }
  );

/** One row of the REST table; its answer's schema is its procedure's `.output()` (procedures.ts). */
export type RestRoute = { [P in ProcedurePath]: RouteOf<P> }[ProcedurePath];

/** The path's `:name` parameters, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

function objectBody(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}

/** Builds the row's input reader once: a fixed copy of named fields, nothing decided per request. */
function inputReader(route: RestRoute, numericFields: ReadonlySet<string>): (req: FastifyRequest) => unknown {
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

function numericInputFields(route: RestRoute): Set<string> {
  const properties = inputProperties(inputJsonSchema(procedureAt(route.procedure)));
  const numeric = new Set<string>();
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.type === 'integer' || schema.type === 'number') numeric.add(name);
  }
  return numeric;
}

function shapeOutput(route: RestRoute, result: unknown, reply: FastifyReply): unknown {
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
  routes: readonly RestRoute[],
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
          const status = getHTTPStatusCodeFromError(error);
          if (status === 503) req.log.warn({ err: error.cause ?? error }, 'database unavailable');
          else if (status >= 500) req.log.error({ err: error.cause ?? error }, 'procedure failed');
          const { retryAfterSeconds, ...body } = describeError(error);
          if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
          return sendError(reply, status, { ...body, code: error.code });
        }
      },
    });
  }
  registerOpenApi(app, routes);
  return allowedMethodsOf([...routes, { method: 'GET', path: OPENAPI_PATH }]);
}
