/**
 * A client generated from GET /api/openapi.json sends what the document allows: this test plays
 * that client. For every operation it generates path and query parameters and a JSON body from
 * the served document alone (json-schema-faker; each value checked against its schema with a
 * JSON Schema validator, so only values the document allows are sent) and sends them, logged out
 * and as a member. None may be refused for its shape: no 400 with zod's `issues`, no 400 at all
 * beyond the few that judge a value against stored state (a wrong password or code), and no 5xx.
 * Wrong passwords, unknown ids and made-up uploads fail as they should: 401, 403, 404, 409.
 *
 * Where this fails, the document is looser than the server: put the rule into the zod schema in a
 * form its JSON Schema carries (`.regex()`, `.max()`, `.email()`, or `.meta()` with `not`,
 * `oneOf`, `minProperties` beside a refinement).
 *
 * Fixed seeds, bounded runs: SAMPLE_RUNS (samples per operation and caller, default 3) and
 * SAMPLE_SEED make a longer or different run by hand.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { InjectOptions } from 'fastify';
import { generateSync } from 'json-schema-faker';
import { describe, expect } from 'vitest';
import { OPENAPI_PATH } from '../src/rest/openapi.js';
import { itWith } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';

const RUNS = Number(process.env.SAMPLE_RUNS ?? 3);
const SEED = Number(process.env.SAMPLE_SEED ?? 20261128);
/** Tries at most this many seeds for one value the document allows, then fails. */
const TRIES = 200;

/**
 * 400s that judge a well-formed value against what is stored, as docs/api.md lists them: a
 * generated client cannot know a reset code or the member's password, nor hold an upload of its
 * own (an image of someone else's and one that does not exist answer alike, on purpose), nor a
 * post to quote, nor
 * know which push endpoints this server takes.
 */
const JUDGED = new Set([
  'Invalid or expired code',
  'Current password is incorrect',
  'Password is incorrect',
  'Image not found: upload it first',
  'The post you quote is unavailable',
  'Profile picture must be an image you uploaded',
  'Banner must be an image you uploaded',
  'Endpoint refused: scheme http: is not allowed',
]);
/**
 * The push endpoint's host is resolved when subscribing: a generated name (`https://RB:65174`)
 * does not resolve here (no DNS), and a generated address may be private. Refused for where it
 * points, not for its shape.
 */
const UNREACHABLE_ENDPOINT = /^Endpoint refused: \S+ (is not a public address$|does not resolve\b)/;

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Json;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: Json } } };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: Json;
}
let doc: Document;
let cookie = '';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

// Cubey's offline assistant answers at once; limits as the harness sets them (scaled up).
const it = itWith({ config: { cubey: { offlineDelayMs: 0, offlineThinkMs: 0 } } });
it.beforeAll(async ({ t }) => {
  doc = (await t.app.inject({ method: 'GET', url: OPENAPI_PATH })).json() as Document;
  await renewSession(t);
});

/** The member; a new one when a generated request logged it out (logout, a session ended). */
async function renewSession(t: TestApp): Promise<void> {
  const me = cookie ? await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } }) : null;
  if (me?.statusCode === 200) return;
  cookie = (await registerUser(t.app)).cookie;
}

const validators = new Map<Json, ValidateFunction>();
function validator(schema: Json): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: doc.components });
    validators.set(schema, validate);
  }
  return validate;
}

/** A value the schema allows, from `seed` on; fails the test when none is found. */
function sample(schema: Json, seed: number, where: string): unknown {
  const validate = validator(schema);
  for (let i = 0; i < TRIES; i++) {
    const value = generateSync({ ...schema, components: doc.components } as never, {
      seed: seed * TRIES + i,
      optionalsProbability: 0.5,
    });
    if (validate(value)) return value;
  }
  throw new Error(`${where}: no value the document allows in ${TRIES} tries: ${JSON.stringify(schema)}`);
}

/**
 * The query parameters as one object schema, so optional ones come and go. `cursor` is left out:
 * a cursor is opaque, only one the server made continues a list (docs/api.md, Paging).
 */
function querySchema(parameters: Parameter[]): Json {
  const query = parameters.filter((p) => p.in === 'query' && p.name !== 'cursor');
  return {
    type: 'object',
    properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
    required: query.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

function request(path: string, method: string, op: Operation, seed: number): InjectOptions {
  const parameters = op.parameters ?? [];
  const where = `${method.toUpperCase()} ${path}`;
  let url = path;
  for (const p of parameters.filter((p) => p.in === 'path')) {
    url = url.replace(
      `{${p.name}}`,
      encodeURIComponent(String(sample(p.schema, seed, `${where} ${p.name}`))),
    );
  }
  const query = sample(querySchema(parameters), seed, `${where} query`) as Record<string, unknown>;
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  const body = op.requestBody?.content['application/json'].schema;
  return {
    method: method.toUpperCase() as InjectOptions['method'],
    url: search ? `${url}?${search}` : url,
    ...(body ? { payload: sample(body, seed, `${where} body`) as Json } : {}),
  };
}

/** Every operation but the document's own; logout and ending sessions last, as they log out. */
function operations(): [string, string, Operation][] {
  const all = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => [path, method, op] as [string, string, Operation]),
  );
  const last = (op: Operation) => (op.operationId.startsWith('auth.logout') ? 1 : 0);
  return all.filter(([path]) => path !== OPENAPI_PATH).sort(([, , a], [, , b]) => last(a) - last(b));
}

async function run(t: TestApp, asMember: boolean): Promise<string[]> {
  const refused: string[] = [];
  for (const [path, method, op] of operations()) {
    for (let run = 0; run < RUNS; run++) {
      if (asMember) await renewSession(t);
      const options = request(path, method, op, SEED + run);
      const res = await t.app.inject({ ...options, ...(asMember ? { headers: { cookie } } : {}) });
      const body = String(res.headers['content-type']).startsWith('application/json') ? res.json() : null;
      const judged = JUDGED.has(body?.message) || UNREACHABLE_ENDPOINT.test(String(body?.message));
      const shape = res.statusCode === 400 && (body?.issues !== undefined || !judged);
      if (shape || res.statusCode >= 500) {
        refused.push(
          `${options.method} ${options.url} ${JSON.stringify(options.payload ?? null).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`,
        );
      }
    }
  }
  return refused;
}

describe('values generated from the OpenAPI document', () => {
  it('none is refused for its shape, logged out', { timeout: 300_000 }, async ({ t }) => {
    expect(await run(t, false)).toEqual([]);
    expect(t.contract.problems).toEqual([]);
  });

  it('none is refused for its shape, as a member', { timeout: 300_000 }, async ({ t }) => {
    expect(await run(t, true)).toEqual([]);
    expect(t.contract.problems).toEqual([]);
  });
});
