/**
 * Cubey's fair use across two real server processes on one database, with a model (a local
 * chat-completions server this test starts): a member's running answers are capped at 2 whichever
 * instances run them, asked one after the other or all at once, and the daily tokens one instance counted refuse an answer on the other.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as readBody } from 'node:stream/consumers';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newUserInput } from './harness.js';
import { listeningAt, type ServerProcess, START_BOUND_MS, startServer, stopServer } from './ops-instances.js';

let model: Server;
let modelUrl: string;
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});

let db: Awaited<ReturnType<typeof createTestDatabase>>;
const servers: ServerProcess[] = [];
const bases: string[] = [];

beforeAll(async () => {
  model = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as {
      stream: boolean;
      messages: { role: string; content: string }[];
    };
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'Title' } }] }));
      return;
    }
    const question = body.messages.at(-1)?.content ?? '';
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Hi' } }] })}\n\n`);
    if (question.includes('hold')) await held;
    // Held answers spend little: the cap test must not meet the daily limit.
    const tokens = question.includes('hold') ? 10 : 70;
    res.write(`data: ${JSON.stringify({ choices: [], usage: { total_tokens: tokens } })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
  db = await createTestDatabase();
  // One after the other: the first applies the migrations.
  for (let i = 0; i < 2; i += 1) {
    const server = startServer({
      PORT: '0',
      DATABASE_URL: db.url,
      METRICS_PORT: '0',
      // The listening line is an info line.
      LOG_LEVEL: 'info',
      CUBEY_BASE_URL: modelUrl,
      CUBEY_DAILY_TOKENS: '100',
      CUBEY_TIMEOUT_MS: '20000',
    });
    servers.push(server);
    bases.push(await listeningAt(server));
  }
}, 2 * START_BOUND_MS);

afterAll(async () => {
  release();
  for (const server of servers) await stopServer(server);
  model.closeAllConnections();
  await new Promise((resolve) => model.close(resolve));
  await db?.drop();
});

async function register(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(newUserInput('fair')),
  });
  expect(res.status).toBe(201);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function send(base: string, cookie: string, message: string) {
  const res = await fetch(`${base}/trpc/cubey.send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ json: { message } }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { error: { json: { message: string } } },
  };
}

async function chat(base: string, cookie: string, message: string) {
  const res = await fetch(`${base}/api/cubey/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ message }),
  });
  return { status: res.status, body: (await res.json()) as { message?: string } };
}

describe('Cubey fair use on two instances', () => {
  it('lets 2 of 6 answers asked at once on two instances start, and refuses the others', async () => {
    const [a, b] = bases as [string, string];
    const cookie = await register(a);
    // Each in a session of its own: only the member's answers lock makes the six take turns.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send(i % 2 === 0 ? a : b, cookie, `hold race ${i}`)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
  }, 60_000);

  it('runs at most 2 answers of a member at once, whichever instance runs them', async () => {
    const [a, b] = bases as [string, string];
    const cookie = await register(a);
    const one = await send(a, cookie, 'hold one');
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const two = await send(b, cookie, 'hold two');
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    for (const base of [a, b]) {
      const third = await send(base, cookie, 'a third');
      expect(third.status).toBe(429);
      expect(third.body.error.json.message).toBe(
        'Cubey is already writing 2 answers for you: wait for one to finish, or stop it',
      );
    }
    release();
    // Once they end, there is room again: asked until an answer starts (each 429 starts nothing).
    await vi.waitFor(async () => expect((await send(b, cookie, 'hold after')).status).toBe(200), {
      timeout: 20_000,
      interval: 200,
    });
  }, 60_000);

  it('counts the day’s tokens in the database: spent on one instance, refused on the other', async () => {
    const [a, b] = bases as [string, string];
    const cookie = await register(a);
    expect((await chat(a, cookie, 'first')).status).toBe(200);
    expect((await chat(b, cookie, 'second')).status).toBe(200);
    const refused = await chat(a, cookie, 'third');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^You have used today's 100 Cubey tokens\. They reset at 00:00 UTC/);
    const usage = await fetch(`${b}/api/cubey/usage`, { headers: { cookie } });
    expect(await usage.json()).toMatchObject({ used: 140, limit: 100, left: 0 });
  });
});
