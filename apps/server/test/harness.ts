/** Server test helpers: the real app on a database of its own, driven through inject(). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type Mailer, setRole } from '@cubes/api';
import { initOrm, initReadOrm, type MikroORM } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import { createLocalStorage, type StorageDriver } from '@cubes/storage';
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import type { AppConfig } from '../src/env.js';
import { OPENAPI_PATH } from '../src/rest/openapi.js';
import { type Contract, createContract, type OpenApiLike } from './contract.js';

export interface TestApp {
  app: FastifyInstance;
  orm: MikroORM;
  /** The read replica's ORM: a second database of its own, when asked for (`replica: true`). */
  readOrm: MikroORM | null;
  storage: StorageDriver;
  /** Every /api answer of this app, checked against the served OpenAPI document. */
  contract: Contract;
  /** Fails when an answer did not match the document (after closing the app). */
  close: () => Promise<void>;
}

export const TEST_UPLOAD_SECRET = 't'.repeat(64);

export async function createTestApp(
  config: Partial<AppConfig> = {},
  logger?: FastifyBaseLogger,
  mailer?: Mailer,
  storage?: StorageDriver,
  options: { replica?: boolean } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  // Cloned from the same migrated template: the schema a streaming replica would have.
  const replicaDb = options.replica ? await createTestDatabase() : null;
  const readOrm = replicaDb ? await initReadOrm({ clientUrl: replicaDb.url, poolMax: 5 }) : null;
  // By default a local driver in a directory of its own, removed on close.
  const objectsDir = storage ? null : await mkdtemp(path.join(tmpdir(), 'cubes-test-objects-'));
  const driver = storage ?? createLocalStorage({ root: objectsDir!, secret: TEST_UPLOAD_SECRET });
  const orm = await initOrm({ clientUrl: db.url, poolMax: 5 });
  const app = await buildApp({
    orm,
    readOrm,
    ...(logger ? { logger } : {}),
    ...(mailer ? { mailer } : {}),
    storage: driver,
    config: {
      allowedOrigins: [],
      cookieSecure: false,
      trustProxy: false,
      // Tests register many users from one address; the rate-limit tests set their own scale.
      rateLimitScale: 1000,
      logLevel: 'silent',
      webDist: null,
      ...config,
    },
  });
  let contract: Contract | null = null;
  app.addHook('onSend', async (req, reply, payload) => {
    if (contract && req.url.startsWith('/api/')) {
      contract.check({
        method: req.method,
        url: req.url,
        status: reply.statusCode,
        headers: reply.getHeaders(),
        body: decoded(payload, reply.getHeader('content-encoding')),
      });
    }
    return payload;
  });
  await app.ready();
  contract = createContract((await app.inject({ method: 'GET', url: OPENAPI_PATH })).json() as OpenApiLike);
  const checked = contract;
  return {
    app,
    orm,
    readOrm,
    storage: driver,
    contract: checked,
    close: async () => {
      await app.close();
      await orm.close(true);
      await readOrm?.close(true);
      await db.drop();
      await replicaDb?.drop();
      if (objectsDir) await rm(objectsDir, { recursive: true, force: true });
      if (checked.problems.length > 0) {
        throw new Error(`Answers that do not match the OpenAPI document:\n${checked.problems.join('\n')}`);
      }
    },
  };
}

/** An answer's body as text, decompressed when the app compressed it (plugins/compress.ts). */
function decoded(payload: unknown, encoding: unknown): string {
  if (payload === null || payload === undefined) return '';
  if (!Buffer.isBuffer(payload) || (encoding !== 'br' && encoding !== 'gzip')) return String(payload);
  return (encoding === 'br' ? brotliDecompressSync(payload) : gunzipSync(payload)).toString();
}

let counter = 0;
export function newUserInput(prefix = 'user') {
  counter += 1;
  const id = `${prefix}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return { username: id, email: `${id}@example.com`, password: 'secret12', displayName: `User ${counter}` };
}

/** The `name=value` of the session cookie a response set, ready for a Cookie header. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'cubes_session');
  if (!cookie) throw new Error(`no session cookie in ${res.statusCode} ${res.body}`);
  return `${cookie.name}=${cookie.value}`;
}

export async function registerUser(app: FastifyInstance, input = newUserInput()) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: input });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { input, user: res.json().user as { id: string; username: string }, cookie: sessionCookie(res) };
}

/** An id in the right shape that no row has: what an unknown id answers. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** One REST call as the member with `cookie` (none: a visitor), with `payload` as its JSON body. */
export function call(
  t: { app: FastifyInstance },
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  cookie?: string,
  payload?: object,
) {
  return t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
}

/** Writes a post through REST as the member with `cookie`; returns it as the API answered. */
export async function createPost<
  Post extends { id: string } = { id: string; userId: string; content: string; createdAt: string },
>(app: FastifyInstance, cookie: string, content = 'hello'): Promise<Post> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/posts',
    headers: { cookie },
    payload: { content },
  });
  if (res.statusCode !== 201) throw new Error(`post failed: ${res.statusCode} ${res.body}`);
  return res.json().post as Post;
}

/** PUT /api/settings as the member of `cookie` (a bio, a switch…); throws unless it is saved. */
export async function updateSettings(
  app: FastifyInstance,
  cookie: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const res = await app.inject({ method: 'PUT', url: '/api/settings', headers: { cookie }, payload });
  if (res.statusCode !== 200) throw new Error(`settings failed: ${res.statusCode} ${res.body}`);
}

/** Listens on a free loopback port (for real sockets and HTTP clients); returns its base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the test app has no port');
  return `http://127.0.0.1:${address.port}`;
}

/** A member made a moderator (as `npm run admin` does), for tests that suspend or remove. */
export async function registerModerator(t: { app: FastifyInstance; orm: MikroORM }) {
  const mod = await registerUser(t.app);
  await setRole(t.orm.em.fork(), mod.user.username, 'moderator');
  return mod;
}

/** `userId` suspended for three days by the moderator whose session is `modCookie`. */
export async function suspendOver(app: FastifyInstance, modCookie: string, userId: string): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/trpc/moderation.suspend',
    headers: { cookie: modCookie },
    payload: { json: { userId, days: 3, reason: 'Spam' } },
  });
  if (res.statusCode !== 200) throw new Error(`suspend failed: ${res.statusCode} ${res.body}`);
}
