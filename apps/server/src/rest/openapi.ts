/**
 * The OpenAPI 3.1 document of the REST table: every row (each module's `*.rest.ts`, collected in
 * packages/api/src/rest.ts) becomes one operation, its parameters and body taken from the
 * procedure's zod input, its answer from the procedure's `.output()` schema, and the error answers
 * from what the row's shape implies (docs/api.md has the rules).
 * Built once at start-up and served, with an ETag, at GET /api/openapi.json.
 */
import { createHash } from 'node:crypto';
import type { RestRow } from '@cubes/api';
import { ERROR_REASONS, type ErrorReason } from '@cubes/api/error-reasons';
import {
  commentSchema,
  notificationSchema,
  postImageSchema,
  postSchema,
  settingsSchema,
  userSchema,
  userStatsSchema,
} from '@cubes/api/schemas';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ErrorBody, ErrorCode } from '../errors.js';
import { pathParams } from './paths.js';
import {
  answerSchema,
  inputJsonSchema,
  inputProperties,
  type JsonSchema,
  procedureAt,
} from './procedures.js';

export const OPENAPI_PATH = '/api/openapi.json';

/** A message's stable reason (@cubes/api/error-reasons): absent when the message varies per request. */
const reasonSchema = z
  .enum(Object.keys(ERROR_REASONS) as [ErrorReason, ...ErrorReason[]])
  .optional()
  .describe('The stable reason of `message`, for clients to show their own words; absent when it has none');

const issueSchema = z.strictObject({ path: z.string(), message: z.string(), reason: reasonSchema });

/** Every non-2xx answer; `issues` lists zod's field problems on a 400. */
export const errorBodySchema = z.strictObject({
  message: z.string(),
  code: z.enum(['GONE', ...(Object.keys(TRPC_ERROR_CODES_BY_KEY) as ErrorCode[])] as [
    ErrorCode,
    ...ErrorCode[],
  ]),
  reason: reasonSchema,
  issues: z.array(issueSchema).optional(),
}) satisfies z.ZodType<ErrorBody>;

/** Shared schemas, listed once under components.schemas and referenced wherever they appear. */
const registry = z.registry<{ id: string }>();
const named: [z.ZodType, string][] = [
  [errorBodySchema, 'Error'],
  [userSchema, 'User'],
  [userStatsSchema, 'UserStats'],
  [postImageSchema, 'PostImage'],
  [postSchema, 'Post'],
  [commentSchema, 'Comment'],
  [notificationSchema, 'Notification'],
  [settingsSchema, 'Settings'],
];
for (const [schema, id] of named) registry.add(schema, { id });

interface ErrorResponse {
  status: number;
  name: string;
  code: ErrorCode;
  description: string;
}

const errorResponses = {
  400: {
    status: 400,
    name: 'BadRequest',
    code: 'BAD_REQUEST',
    description:
      'Invalid input: malformed JSON, or the first zod issue as `message` and all of them as `issues`',
  },
  401: {
    status: 401,
    name: 'Unauthorized',
    code: 'UNAUTHORIZED',
    description: 'Not logged in (or wrong credentials on login)',
  },
  403: {
    status: 403,
    name: 'Forbidden',
    code: 'FORBIDDEN',
    description: 'A state-changing request whose Origin is not the app’s own',
  },
  404: { status: 404, name: 'NotFound', code: 'NOT_FOUND', description: 'No such thing (or not yours)' },
  409: { status: 409, name: 'Conflict', code: 'CONFLICT', description: 'Already taken' },
  410: { status: 410, name: 'Gone', code: 'GONE', description: 'Over for good (a poll that ended)' },
  413: {
    status: 413,
    name: 'PayloadTooLarge',
    code: 'PAYLOAD_TOO_LARGE',
    description: 'JSON body over 64 KB',
  },
  415: {
    status: 415,
    name: 'UnsupportedMediaType',
    code: 'UNSUPPORTED_MEDIA_TYPE',
    description: 'A body that is not JSON',
  },
  429: {
    status: 429,
    name: 'TooManyRequests',
    code: 'TOO_MANY_REQUESTS',
    description: 'Rate limited; retry after the seconds in Retry-After',
  },
  502: {
    status: 502,
    name: 'BadGateway',
    code: 'BAD_GATEWAY',
    description: 'The AI provider failed; `message` says how',
  },
  503: {
    status: 503,
    name: 'ServiceUnavailable',
    code: 'SERVICE_UNAVAILABLE',
    description:
      'The database is down or restarting; retry shortly (nothing was changed unless a retry shows it)',
  },
  500: {
    status: 500,
    name: 'InternalServerError',
    code: 'INTERNAL_SERVER_ERROR',
    description: 'Unexpected failure; no details are given',
  },
} as const satisfies Record<number, ErrorResponse>;

type ErrorStatus = keyof typeof errorResponses;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The error statuses a row can answer, from its shape: see docs/api.md, Errors. */
export function errorStatuses(route: RestRow, hasInput: boolean): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([429, 500, 503]);
  const write = WRITES.has(route.method);
  if (hasInput || write) statuses.add(400);
  if (route.auth) statuses.add(401);
  if (write) for (const s of [403, 413, 415] as const) statuses.add(s);
  if (pathParams(route.path).length > 0) statuses.add(404);
  for (const s of route.errors ?? []) statuses.add(s);
  return [...statuses].sort((a, b) => a - b);
}

/** `/api/posts/:id/like` → `/api/posts/{id}/like` */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const LOCAL_REF = /^#\/\$defs\/(.+)$/;

/** zod's JSON Schema with its `$defs` moved to components.schemas and its refs pointed there. */
function hoist(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const { $schema: _dialect, $defs, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  for (const [id, def] of Object.entries($defs ?? {})) {
    const hoisted = hoist(def, components);
    const known = components[id];
    if (known && JSON.stringify(known) !== JSON.stringify(hoisted)) {
      throw new Error(`OpenAPI: two different schemas named ${id}`);
    }
    components[id] = hoisted;
  }
  return rewriteRefs(rest) as JsonSchema;
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const local = key === '$ref' && typeof inner === 'string' ? LOCAL_REF.exec(inner) : null;
    out[key] = local ? `#/components/schemas/${local[1]}` : rewriteRefs(inner);
  }
  return out;
}

function outputSchema(schema: z.ZodType, components: Record<string, JsonSchema>, define = false): JsonSchema {
  const id = named.find(([s]) => s === schema)?.[1];
  if (id && !define) return { $ref: `#/components/schemas/${id}` };
  return hoist(z.toJSONSchema(schema, { io: 'output', metadata: registry }) as JsonSchema, components);
}

/** A parameter travels as text: a `null` branch (a JSON-only value) cannot be sent, so it is left out. */
function parameterSchema(schema: JsonSchema | undefined): JsonSchema {
  if (!schema) return {};
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  const sendable = anyOf?.filter((branch) => branch.type !== 'null');
  if (sendable?.length !== 1) return schema;
  const { anyOf: _branches, ...rest } = schema;
  return { ...rest, ...sendable[0] };
}

/** The part of the input that comes in the JSON body: the row's fields, or all but path and query. */
function bodySchema(route: RestRow, input: JsonSchema | null): JsonSchema {
  const properties = inputProperties(input);
  const required = (input?.required ?? []) as string[];
  const fromUrl = new Set<string>([...Object.values(route.params ?? {}), ...(route.query ?? [])]);
  const fields =
    route.body === true
      ? Object.keys(properties).filter((f) => !fromUrl.has(f))
      : [...((route.body ?? []) as readonly string[])];
  const {
    $schema: _dialect,
    properties: _all,
    required: _required,
    default: _default,
    ...rest
  } = input ?? {};
  const kept = required.filter((f) => fields.includes(f));
  return {
    ...rest,
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f, properties[f] ?? {}])),
    ...(kept.length > 0 ? { required: kept } : {}),
  };
}

function operation(route: RestRow, components: Record<string, JsonSchema>): JsonSchema {
  const input = inputJsonSchema(procedureAt(route.procedure));
  const properties = inputProperties(input);
  const params = route.params as Record<string, string> | undefined;
  const declared = pathParams(route.path);
  const mapped = Object.keys(params ?? {});
  if (declared.join() !== mapped.join()) {
    throw new Error(
      `REST route ${route.method} ${route.path}: params ${mapped.join()} do not match its path`,
    );
  }
  const parameters = [
    ...declared.map((param) => ({
      name: param,
      in: 'path',
      required: true,
      schema: parameterSchema(properties[params![param]!]),
    })),
    ...((route.query ?? []) as readonly string[]).map((field) => ({
      name: field,
      in: 'query',
      required: ((input?.required ?? []) as string[]).includes(field),
      schema: parameterSchema(properties[field]),
    })),
  ];
  const status = route.status ?? 200;
  const answer = answerSchema(route);
  const body = route.paged === true ? z.array(answer) : answer;
  const success = {
    description: route.paged ? 'One page; the next page’s cursor is in X-Next-Cursor' : 'Success',
    ...(route.paged
      ? {
          headers: {
            'X-Next-Cursor': {
              description: 'Cursor of the next page (pass it as ?cursor=); absent on the last page',
              schema: { type: 'string' },
            },
          },
        }
      : {}),
    content: { 'application/json': { schema: outputSchema(body, components) } },
  };
  const responses: Record<string, unknown> = { [status]: success };
  for (const s of errorStatuses(route, input !== null)) {
    responses[s] = { $ref: `#/components/responses/${errorResponses[s].name}` };
  }
  if (route.unavailableUnless) {
    responses[503] = {
      description: `The same body, with ${route.unavailableUnless} false`,
      content: success.content,
    };
  }
  return {
    operationId: route.procedure,
    summary: route.summary,
    tags: [route.procedure.split('.')[0]],
    security: route.auth ? [{ session: [] }] : [{}, { session: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: bodySchema(route, input) } },
          },
        }
      : {}),
    responses,
  };
}

function errorResponseComponents(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const e of Object.values(errorResponses)) {
    out[e.name] = {
      description: e.description,
      ...(e.status === 429
        ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } }
        : {}),
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { const: e.code } } }],
          },
        },
      },
    };
  }
  return out;
}

/** The document for `routes`: one operation per row, plus the document's own path. */
export function openApiDocument(routes: readonly RestRow[]) {
  const components: Record<string, JsonSchema> = {};
  // A registered schema converts to a $ref to itself, its body landing in components by the hoist.
  for (const [schema] of named) outputSchema(schema, components, true);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    const method = route.method.toLowerCase();
    paths[path] ??= {};
    if (paths[path][method]) throw new Error(`REST route ${route.method} ${route.path} appears twice`);
    paths[path][method] = operation(route, components);
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      tags: ['meta'],
      security: [{}],
      responses: {
        200: {
          description: 'The OpenAPI 3.1 document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        304: { description: 'Unchanged since the ETag in If-None-Match' },
        429: { $ref: '#/components/responses/TooManyRequests' },
      },
    },
  };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Cubes AI REST API',
      version: '1.0.0',
      description:
        'Every /api path of Cubes AI, generated from the REST table and the zod schemas of the procedures ' +
        'it calls. Errors are JSON {message, code, reason?, issues?}; pages send their next cursor in X-Next-Cursor. ' +
        'docs/api.md in the repository has the rules (errors, paging, rate limits, sessions, text input).',
    },
    paths,
    components: {
      schemas: components,
      responses: errorResponseComponents(),
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'cubes_session',
          description: 'Set by register and login; HttpOnly, SameSite=Lax, 30-day sliding expiry',
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;

/** Serves the document, encoded once; clients revalidate with its ETag. */
export function registerOpenApi(app: FastifyInstance, routes: readonly RestRow[]): void {
  const json = JSON.stringify(openApiDocument(routes));
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
  app.get(OPENAPI_PATH, (req, reply) => {
    reply.header('cache-control', 'public, max-age=300').header('etag', etag);
    // A compressed answer carries the tag as weak (plugins/compress.ts): compare without W/.
    const match = req.headers['if-none-match'];
    if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return reply.status(304).send();
    }
    return reply.type('application/json; charset=utf-8').send(json);
  });
}
