/**
 * Hostile input against every REST row and every tRPC procedure (over HTTP at /trpc), generated
 * with fast-check from each procedure's own zod input schema, so a new row or procedure is
 * fuzzed without being listed here. Values are valid-ish, near-valid (one field wrong) or
 * hostile (control characters, lone surrogates, emoji, huge strings, wrong types, nested
 * objects, unknown ids, broken %-encoding), sent logged in and out. Whatever comes in: no 5xx,
 * and every error is the contract (test/contract.ts).
 *
 * Fixed seed, bounded runs: FUZZ_RUNS (runs per row and per procedure, default 25) and
 * FUZZ_SEED make a longer or different run by hand.
 */
import { appRouter, type RestRow, restRows, setRole } from '@cubes/api';
import type { AnyProcedure } from '@trpc/server';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { contractError } from './error-shape.js';
import { it } from './fixtures.js';
import { registerUser, type TestApp } from './harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** Every procedure by dotted path ('auth.login'), as tRPC keeps them. */
const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;
/** Values the server knows, so that some generated requests reach real rows. */
const known: string[] = [];
let cookie = '';

it.beforeAll(async ({ t }) => {
  const other = await registerUser(t.app);
  const post = await t.app.inject({
    method: 'POST',
    url: '/api/posts',
    headers: { cookie: other.cookie },
    payload: { content: 'fuzz target 🧊' },
  });
  const postId = (post.json() as { post: { id: string } }).post.id;
  known.push(other.user.id, other.user.username, other.input.email, other.input.password, postId);
  await renewSession(t);
});

/**
 * The fuzzing member; a new one when a generated request logged it out or changed its password.
 * A moderator, so the moderation procedures are fuzzed past their 404 for everyone else.
 */
async function renewSession(t: TestApp): Promise<void> {
  const me = cookie ? await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } }) : null;
  if (me?.statusCode === 200) return;
  const member = await registerUser(t.app);
  await setRole(t.orm.em.fork(), member.user.username, 'moderator');
  cookie = member.cookie;
}

// ---------------------------------------------------------------- values

// NUL weighs most: PostgreSQL refuses it in text, where the other control characters pass.
const controlChar = fc.oneof(
  { weight: 2, arbitrary: fc.constant('\u0000') },
  {
    weight: 3,
    arbitrary: fc
      .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
      .map((c) => String.fromCharCode(c)),
  },
);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

const hostileString: fc.Arbitrary<string> = fc.oneof(
  // Mostly: plausible text with a control character or a lone surrogate somewhere in it.
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }), fc.oneof(controlChar, loneSurrogate), fc.string({ maxLength: 8 }))
      .map((parts) => parts.join('')),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'a\u0000b',
      '\u0000',
      '\uD800',
      'x\uDFFFy',
      '\u001B[31mred',
      '\u0085next line',
      '\u202Eevil',
      '👩🏽‍💻 🏳️‍🌈 ❤️',
      '\u200D\uFE0F',
      "' OR 1=1 --",
      '../../etc/passwd',
      '<script>alert(1)</script>',
      '',
      ' ',
      '\t\n\r',
      '00000000-0000-0000-0000-000000000000',
      'x'.repeat(70_000),
      '😀'.repeat(3000),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.oneof(controlChar, loneSurrogate, fc.string({ unit: 'binary', maxLength: 1 })),
      maxLength: 30,
    }),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
);

const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 3, maxKeys: 4 }),
);

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
}

/** The JSON schema of what a procedure accepts as input (zod 4's own conversion). */
function inputSchema(procedure: AnyProcedure): JsonSchema | null {
  const inputs = procedure._def.inputs as unknown as z.ZodType[];
  if (inputs.length === 0) return null;
  const [first, ...rest] = inputs;
  const merged = rest.reduce<z.ZodType>((a, b) => z.intersection(a, b), first!);
  return z.toJSONSchema(merged, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** A value the schema accepts, or nearly: strings may be a known id, a uuid, an email. */
function validish(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(validish));
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1000 });
    case 'string': {
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { size: 'small' });
      return fc.oneof(
        fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) }),
        fc.constantFrom(...known),
        fc.uuid(),
        fc.emailAddress(),
      );
    }
    case 'array':
      return fc.array(schema.items ? validish(schema.items) : fc.anything(), { maxLength: 3 });
    case 'object': {
      const properties = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, validish(value)]),
      );
      return fc.record(properties, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.anything({ maxDepth: 2 });
  }
}

/** Valid-ish, near-valid (any field hostile, of the wrong type or missing, extra keys) or hostile. */
function inputFor(schema: JsonSchema | null): fc.Arbitrary<unknown> {
  const hostile = fc.oneof(
    wrongType,
    hostileString,
    fc.constant(undefined),
    fc.anything({ maxDepth: 3, withNullPrototype: true }),
  );
  if (!schema) return fc.oneof(fc.constant(undefined), hostile);
  if (schema.type !== 'object' || !schema.properties) return fc.oneof(validish(schema), hostile);
  // Valid-ish but for one field, which is hostile or of the wrong type; maybe unknown keys too.
  const nearValid = fc
    .tuple(
      validish(schema),
      fc.constantFrom(...Object.keys(schema.properties)),
      fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 1, arbitrary: wrongType }),
      fc.dictionary(fc.string({ maxLength: 10 }), fc.anything({ maxDepth: 2 }), { maxKeys: 2 }),
    )
    .map(([fields, key, bad, extra]) => ({ ...extra, ...(fields as object), [key]: bad }));
  return fc.oneof(
    { weight: 2, arbitrary: validish(schema) },
    { weight: 4, arbitrary: nearValid },
    { weight: 1, arbitrary: hostile },
  );
}

/** Percent-encodes every UTF-8 byte but the unreserved ones (a lone surrogate becomes U+FFFD). */
function encode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A path segment or query value as sent: well encoded, or raw and broken. */
const urlPart: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: hostileString.map(encode) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('%', '%zz', '%00', '%ED%A0%80', '%C0%AF', '%FF', '..', '%2e%2e', '%2F'),
  },
  { weight: 3, arbitrary: fc.oneof(fc.uuid(), fc.constant('')).map((v) => encode(v)) },
);
const knownPart = () => fc.constantFrom(...known.map(encode));

// ---------------------------------------------------------------- requests

const loggedInMostly = fc.oneof(
  { weight: 3, arbitrary: fc.constant(true) },
  { weight: 1, arbitrary: fc.constant(false) },
);

interface Sent {
  request: InjectOptions & { method: string; url: string };
  loggedIn: boolean;
}

function bodyOf(input: unknown): fc.Arbitrary<{ payload?: string; headers?: Record<string, string> }> {
  const json = input === undefined ? undefined : JSON.stringify(input);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constant(
        json === undefined ? {} : { payload: json, headers: { 'content-type': 'application/json' } },
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { payload: '{"content":', headers: { 'content-type': 'application/json' } },
        { payload: '', headers: { 'content-type': 'application/json' } },
        { payload: json ?? 'x', headers: { 'content-type': 'text/plain' } },
        { payload: json ?? 'x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        { payload: json ?? 'x', headers: { 'content-type': 'multipart/form-data; boundary=x' } },
      ),
    },
  );
}

async function send(t: TestApp, { request, loggedIn }: Sent): Promise<LightMyRequestResponse> {
  const res = await t.app.inject({
    ...request,
    headers: { ...(loggedIn ? { cookie } : {}), ...request.headers },
  });
  expect(
    res.statusCode,
    `${request.method} ${request.url.slice(0, 200)} → ${res.body.slice(0, 300)}`,
  ).toBeLessThan(500);
  if (res.statusCode >= 400) contractError(res, request);
  // A generated request may log the member out (logout, a password change): start a new session.
  if (loggedIn && res.statusCode < 300 && request.method !== 'GET') await renewSession(t);
  return res;
}

function restRequest(route: RestRow): fc.Arbitrary<Sent> {
  const schema = inputSchema(procedures[route.procedure]!);
  const params = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const paramValues = fc.tuple(...params.map(() => fc.oneof(urlPart, knownPart())));
  const hasBody = route.method === 'POST' || route.method === 'PUT';
  return fc.tuple(paramValues, inputFor(schema), loggedInMostly).chain(([values, input, loggedIn]) => {
    let url = route.path;
    params.forEach((name, i) => {
      url = url.replace(`:${name}`, values[i]!);
    });
    // Reads take their input from the query string (the page rows read cursor and limit).
    if (!hasBody && input && typeof input === 'object') {
      const query = Object.entries(input as Record<string, unknown>)
        .map(
          ([key, value]) =>
            `${encode(key)}=${encode(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))}`,
        )
        .join('&');
      if (query) url += `?${query}`;
    }
    return (hasBody ? bodyOf(input) : fc.constant({})).map((body) => ({
      request: { method: route.method, url, ...body },
      loggedIn,
    }));
  });
}

function trpcRequest(path: string, procedure: AnyProcedure): fc.Arbitrary<Sent> {
  const schema = inputSchema(procedure);
  const query = procedure._def.type === 'query';
  return fc
    .tuple(inputFor(schema), loggedInMostly, fc.integer({ min: 0, max: 9 }))
    .chain(([input, loggedIn, shape]) => {
      const envelope = input === undefined ? undefined : { json: input };
      // Shapes 2-4: a batch of one, as the web app's httpBatchLink sends it.
      const batch = shape >= 2 && shape <= 4;
      const sent = shape === 0 ? input : batch ? { 0: envelope } : envelope;
      const url = `/trpc/${path}${batch ? '?batch=1' : ''}`;
      if (query) {
        const inputParam =
          shape === 1
            ? 'input=%7B%22json%22%3A'
            : sent === undefined
              ? ''
              : `input=${encode(JSON.stringify(sent))}`;
        const full = inputParam ? `${url}${batch ? '&' : '?'}${inputParam}` : url;
        return fc.constant<Sent>({ request: { method: 'GET', url: full }, loggedIn });
      }
      return bodyOf(sent).map((body): Sent => ({ request: { method: 'POST', url, ...body }, loggedIn }));
    });
}

const options = () => ({ numRuns: RUNS, seed: SEED, endOnFailure: true });
/** A row's time grows with FUZZ_RUNS (Cubey's answers take ~70 ms each): 20 s for the default 25. */
const ROW_TIMEOUT_MS = Math.max(20_000, RUNS * 800);

describe('fuzzing every REST row', () => {
  it.for((restRows as readonly RestRow[]).map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s',
    { timeout: ROW_TIMEOUT_MS },
    async ([, route], { t }) => {
      await fc.assert(
        fc.asyncProperty(restRequest(route), async (sent) => {
          await send(t, sent);
        }),
        options(),
      );
    },
  );
});

describe('fuzzing every tRPC procedure over HTTP', () => {
  it.for(Object.entries(procedures).filter(([, p]) => p._def.type !== 'subscription'))(
    '%s',
    { timeout: ROW_TIMEOUT_MS },
    async ([path, procedure], { t }) => {
      await fc.assert(
        fc.asyncProperty(trpcRequest(path, procedure), async (sent) => {
          await send(t, sent);
        }),
        options(),
      );
    },
  );
});

describe('control characters in every text field', () => {
  /** Every top-level string property of a procedure's input. */
  function textFields(schema: JsonSchema | null): string[] {
    return Object.entries(schema?.properties ?? {})
      .filter(([, s]) =>
        [s, ...(s.anyOf ?? [])].some((a) => a.type === 'string' && !('const' in a) && !a.enum),
      )
      .map(([key]) => key);
  }

  // Subscriptions are refused over HTTP (405); socket.test.ts sends them these over the socket.
  it.for(Object.entries(procedures).filter(([, p]) => p._def.type !== 'subscription'))(
    '%s refuses them with a 400 naming the field',
    async ([path, procedure], { t }) => {
      for (const field of textFields(inputSchema(procedure))) {
        for (const bad of ['a\u0000b', 'a\u0007b', 'a\u009Fb', 'a\uD800b']) {
          const input = { json: { [field]: bad } };
          const url =
            procedure._def.type === 'query'
              ? `/trpc/${path}?input=${encode(JSON.stringify(input))}`
              : `/trpc/${path}`;
          const request =
            procedure._def.type === 'query'
              ? { method: 'GET', url }
              : { method: 'POST', url, payload: input, headers: { 'content-type': 'application/json' } };
          const res = await t.app.inject({ ...request, headers: { cookie, ...request.headers } });
          const error = contractError(res, request);
          expect(error.status, `${path}.${field}`).toBe(400);
          expect(error.issues, `${path}.${field}`).toContainEqual({
            path: field,
            message: expect.stringMatching(/ contains characters that are not allowed$/),
            reason: expect.stringMatching(/_NOT_ALLOWED_CHARACTERS$/),
          });
        }
      }
    },
  );

  it.for(
    (restRows as readonly RestRow[])
      .filter((r) => r.path.includes(':'))
      .map((r) => [`${r.method} ${r.path}`, r] as const),
  )('%s refuses them in path parameters with a 400', async ([, route], { t }) => {
    const url = route.path.replace(/:[A-Za-z]+/g, 'a%00b');
    const res = await t.app.inject({ method: route.method, url, headers: { cookie } });
    const error = contractError(res, { method: route.method, url });
    expect(error.status, url).toBe(400);
    expect(
      error.issues?.some((issue) => / contains characters that are not allowed$/.test(issue.message)),
      `${url} ${JSON.stringify(error)}`,
    ).toBe(true);
  });
});
