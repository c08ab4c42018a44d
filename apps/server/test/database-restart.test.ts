/**
 * The database going away under a running app: PostgreSQL's postmaster is killed outright while
 * members write through /api and /trpc. Every answer meanwhile is a 2xx or a 503
 * SERVICE_UNAVAILABLE in the error contract's shape (never a 500, never a stack); the embedded
 * PostgreSQL's supervisor starts it again and says so; the app's pool reconnects by itself; and
 * every write that got a 2xx is still there afterwards.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DATABASE_UNAVAILABLE_MESSAGE } from '@cubes/api';
import { type EmbeddedPostgres, initOrm, type MikroORM, startEmbeddedPostgres } from '@cubes/db';
import { createLocalStorage } from '@cubes/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { contractError } from './error-shape.js';
import { listen, newUserInput, TEST_UPLOAD_SECRET } from './harness.js';

let dir: string;
let server: EmbeddedPostgres;
let orm: MikroORM;
let app: FastifyInstance;
let base: string;
const notices: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cubes-db-restart-'));
  await chmod(dir, 0o755); // the postgres user must reach it when tests run as root
  // Durable settings (not the tests' usual `ephemeral`): a crash must not lose acknowledged commits.
  // The first restart waits a little, so the outage is long enough to be seen.
  server = await startEmbeddedPostgres({
    dataDir: path.join(dir, 'pg'),
    port: 0,
    restartDelayMs: 1_500,
    notice: (line) => notices.push(line),
  });
  orm = await initOrm({ clientUrl: server.url(), poolMax: 5 });
  app = await buildApp({
    orm,
    storage: createLocalStorage({ root: path.join(dir, 'objects'), secret: TEST_UPLOAD_SECRET }),
    config: {
      allowedOrigins: [],
      cookieSecure: false,
      trustProxy: false,
      rateLimitScale: 1000,
      logLevel: 'silent',
      webDist: null,
    },
  });
  base = await listen(app);
});

afterAll(async () => {
  await app?.close();
  await orm?.close(true);
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
  request: { method: string; url: string };
  content: string;
}

async function write(via: 'api' | 'trpc', cookie: string, content: string): Promise<Answer> {
  const url = via === 'api' ? '/api/posts' : '/trpc/posts.create?batch=1';
  const payload = via === 'api' ? { content } : { 0: { json: { content } } };
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return {
    status: res.status,
    body: await res.text(),
    headers: Object.fromEntries(res.headers),
    request: { method: 'POST', url },
    content,
  };
}

describe('database restart under load', () => {
  it('answers 503 while PostgreSQL is down, recovers by itself and keeps every acknowledged write', async () => {
    const reg = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(newUserInput('restart')),
    });
    expect(reg.status).toBe(201);
    const cookie = reg.headers.getSetCookie()[0]!.split(';')[0]!;

    const answers: Answer[] = [];
    let stop = false;
    let counter = 0;
    const writer = async (via: 'api' | 'trpc') => {
      while (!stop) {
        counter += 1;
        answers.push(await write(via, cookie, `restart-${via}-${counter}`));
      }
    };
    const writers = [writer('api'), writer('api'), writer('trpc')];

    const oldPid = server.pid()!;
    // Every writer has been answered a few times before the kill.
    await vi.waitFor(() => expect(answers.length).toBeGreaterThanOrEqual(6), {
      timeout: 30_000,
      interval: 20,
    });
    const beforeKill = answers.length;
    process.kill(oldPid, 'SIGKILL');

    // Wait for an outage answer on each transport, then for writes to succeed again (polled:
    // the assertions below say what was missing if it never came).
    const after = () => answers.slice(beforeKill);
    await vi
      .waitFor(
        () => {
          const seen = after();
          const failedApi = seen.some((a) => a.status === 503 && a.request.url.startsWith('/api/'));
          const failedTrpc = seen.some((a) => a.status === 503 && a.request.url.startsWith('/trpc/'));
          const lastFailure = seen.findLastIndex((a) => a.status !== 201 && a.status !== 200);
          const recovered =
            lastFailure >= 0 && seen.slice(lastFailure + 1).filter((a) => a.status < 300).length >= 10;
          if (!(failedApi && failedTrpc && recovered)) throw new Error('no outage and recovery yet');
        },
        { timeout: 30_000, interval: 50 },
      )
      .catch(() => {});
    stop = true;
    await Promise.all(writers);

    expect(server.restarts()).toBe(1);
    expect(server.pid()).not.toBe(oldPid);
    expect(notices.some((n) => /exited unexpectedly \(SIGKILL\); starting it again/.test(n))).toBe(true);
    expect(notices.some((n) => /running again/.test(n))).toBe(true);

    // Every answer was a success or a 503 in the contract's shape, on both transports.
    const failures = answers.filter((a) => a.status >= 300);
    expect(failures.some((a) => a.request.url.startsWith('/api/'))).toBe(true);
    expect(failures.some((a) => a.request.url.startsWith('/trpc/'))).toBe(true);
    for (const failure of failures) {
      expect(failure.status, failure.body).toBe(503);
      const error = contractError(
        { statusCode: failure.status, body: failure.body, headers: failure.headers },
        failure.request,
      );
      expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    // Recovered: the last answers are successes again.
    expect(answers.slice(-5).every((a) => a.status < 300)).toBe(true);

    // No acknowledged write is lost.
    const acknowledged = answers.filter((a) => a.status < 300).map((a) => a.content);
    const rows = await orm.em
      .fork()
      .execute<{ content: string }[]>(`select content from posts where content like 'restart-%'`);
    const stored = new Set(rows.map((r) => r.content));
    expect(acknowledged.length).toBeGreaterThan(5);
    expect(acknowledged.filter((c) => !stored.has(c))).toEqual([]);
  }, 60_000);
});
