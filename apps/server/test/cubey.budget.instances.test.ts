/**
 * Cubey's daily tokens held request by request, on two real server processes sharing one
 * database, with a model that asks for a tool call whenever it is offered tools (a local
 * chat-completions server this test starts; every request reports 300 tokens). An answer makes
 * up to 6 requests; two run at once, one on each instance. Checked: the day ends at most one
 * request's tokens past the limit, starting fresh or on its last 10 tokens; and a request that
 * is stopped or fails leaves no hold behind.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as readBody } from 'node:stream/consumers';
import { initOrm, type MikroORM } from '@cubes/db';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newUserInput } from './harness.js';
import { type ServerProcess, startInstances, stopServer } from './ops-instances.js';

const LIMIT = 2_000;
/** What every model request reports spending. */
const PER_REQUEST = 300;

let model: Server;
let modelUrl: string;
/** Model requests of the answers (not titles), by the question they answer. */
const asked: string[] = [];
const holds: (() => void)[] = [];

const send = (res: ServerResponse, json: unknown) => res.write(`data: ${JSON.stringify(json)}\n\n`);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
const servers: ServerProcess[] = [];
const bases: string[] = [];

/**
 * The question says what to do: `spend <n>` (answer in text, report n tokens), `hold` (wait for
 * the test, then answer), `fail` (answer 500); anything else asks for a call while tools are
 * offered and answers in text when they are not.
 */
beforeAll(async () => {
  model = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as {
      stream: boolean;
      tools?: unknown[];
      messages: { role: string; content: string | null }[];
    };
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'Title' } }] }));
      return;
    }
    const question = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    asked.push(question);
    if (question.includes('fail')) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'the model broke' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const spend = /spend (\d+)/.exec(question);
    if (question.includes('hold')) {
      send(res, { choices: [{ delta: { content: 'Thinking' } }] });
      await new Promise<void>((resolve) => holds.push(resolve));
    }
    if (body.tools && !spend && !question.includes('hold')) {
      send(res, {
        choices: [
          {
            delta: {
              tool_calls: [
                {
                  index: 0,
                  id: `call_${randomUUID().slice(0, 8)}`,
                  type: 'function',
                  function: { name: 'trending_posts', arguments: '{}' },
                },
              ],
            },
          },
        ],
      });
    } else {
      send(res, { choices: [{ delta: { content: 'Here is what I found.' } }] });
    }
    const tokens = spend ? Number(spend[1]) : PER_REQUEST;
    send(res, { choices: [], usage: { total_tokens: tokens } });
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
  db = await createTestDatabase();
  bases.push(
    ...(await startInstances(
      {
        DATABASE_URL: db.url,
        CUBEY_BASE_URL: modelUrl,
        CUBEY_DAILY_TOKENS: String(LIMIT),
        CUBEY_TIMEOUT_MS: '20000',
      },
      servers,
    )),
  );
  orm = await initOrm({ clientUrl: db.url, poolMax: 2 });
}, 330_000);

afterAll(async () => {
  for (const release of holds.splice(0)) release();
  await orm?.close();
  for (const server of servers) await stopServer(server);
  model.closeAllConnections();
  await new Promise((resolve) => model.close(resolve));
  await db?.drop();
});

async function register(base: string): Promise<{ cookie: string; id: string }> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(newUserInput('budget')),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { user: { id: string } };
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, id: body.user.id };
}

async function trpc(base: string, cookie: string, path: string, input: unknown) {
  const res = await fetch(`${base}/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ json: input }),
  });
  const body = (await res.json()) as {
    result?: { data: { json: { reply: { id: string } } } };
    error?: { json: { message: string } };
  };
  return { status: res.status, body };
}

/** Starts an answer in a new session; its id, or null when refused at the start (429). */
async function start(base: string, cookie: string, message: string): Promise<string | null> {
  const started = await trpc(base, cookie, 'cubey.send', { message });
  if (started.status === 429) return null;
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body.result!.data.json.reply.id;
}

interface Answer {
  status: string;
  error: string | null;
  content: string;
  reserved_tokens: number;
}

async function answer(id: string): Promise<Answer> {
  const [row] = await orm.em
    .fork()
    .execute<Answer[]>('select status, error, content, reserved_tokens from chat_messages where id = ?', [
      id,
    ]);
  return row!;
}

/**
 * The answer's row once `done(row)`, polled with vitest's `waitFor` for at most 30 s (the row is
 * the signal: no event tells a test when another instance wrote it); the last row read if never.
 */
async function until(id: string, done: (row: Answer) => boolean): Promise<Answer> {
  let row = await answer(id);
  await vi
    .waitFor(
      async () => {
        row = await answer(id);
        if (!done(row)) throw new Error('not yet');
      },
      { timeout: 30_000, interval: 50 },
    )
    .catch(() => {});
  return row;
}

const ended = (id: string) => until(id, (row) => row.status !== 'streaming');

async function used(userId: string): Promise<number> {
  const [row] = await orm.em
    .fork()
    .execute<{ tokens: string }[]>('select tokens from cubey_usage where user_id = ?', [userId]);
  return Number(row?.tokens ?? 0);
}

const LIMIT_MESSAGE = /^You have used today's 2,000 Cubey tokens\. They reset at 00:00 UTC/;

describe('Cubey’s daily tokens, reserved before each model request', () => {
  it('ends two answers run at once, one per instance, at most one request past the limit', async () => {
    const [a, b] = bases as [string, string];
    const member = await register(a);
    const ids = await Promise.all([
      start(a, member.cookie, 'rounds one'),
      start(b, member.cookie, 'rounds two'),
    ]);
    const answers = await Promise.all(ids.map((id) => (id ? ended(id) : null)));
    const spent = await used(member.id);
    // Without holds: 2 answers × 6 requests × 300 = 3,600.
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(LIMIT + PER_REQUEST);
    expect(asked.filter((q) => q.startsWith('rounds')).length).toBe(spent / PER_REQUEST);
    // Each ran to an end: an answer with what it found, or the limit's message for one that had none.
    for (const row of answers) {
      if (!row) continue;
      expect(row.reserved_tokens).toBe(0);
      if (row.status === 'failed') expect(row.error).toMatch(LIMIT_MESSAGE);
      else
        expect(row).toMatchObject({
          status: 'done',
          content: expect.stringContaining('Here is what I found.'),
        });
    }
    expect(answers.some((row) => row?.status === 'done')).toBe(true);
  }, 90_000);

  it('lets only one request go on the day’s last 10 tokens, whatever the instances', async () => {
    const [a, b] = bases as [string, string];
    const member = await register(a);
    const first = await start(a, member.cookie, `spend ${LIMIT - 10}`);
    expect((await ended(first!)).status).toBe('done');
    expect(await used(member.id)).toBe(LIMIT - 10);
    const before = asked.length;
    const ids = await Promise.all([start(a, member.cookie, 'last one'), start(b, member.cookie, 'last two')]);
    const answers = await Promise.all(ids.map((id) => (id ? ended(id) : null)));
    // Without holds: 1,990 + 2 × 6 × 300 = 5,590.
    expect(await used(member.id)).toBe(LIMIT - 10 + PER_REQUEST);
    expect(asked.length - before).toBe(1);
    const statuses = answers.map((row) => row?.status ?? 'refused at the start').sort();
    expect(statuses.filter((s) => s === 'done')).toHaveLength(1);
    for (const row of answers) {
      if (row?.status === 'failed') expect(row.error).toMatch(LIMIT_MESSAGE);
    }
    // The day is spent: the next answer is refused at its start.
    expect((await trpc(b, member.cookie, 'cubey.send', { message: 'more' })).status).toBe(429);
  }, 90_000);

  it('releases a request’s hold when it is stopped or fails, on any instance', async () => {
    const [a, b] = bases as [string, string];
    const member = await register(a);
    const held = await start(a, member.cookie, 'hold on');
    // Its request in flight holds its estimate.
    const holding = await until(held!, (row) => row.reserved_tokens > 0);
    expect(holding.reserved_tokens).toBeGreaterThan(0);
    expect(holding.status).toBe('streaming');
    const stop = await fetch(`${b}/trpc/cubey.stop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: member.cookie },
      body: JSON.stringify({ json: { messageId: held } }),
    });
    expect(stop.status).toBe(200);
    const stopped = await ended(held!);
    expect(stopped).toMatchObject({ status: 'stopped', reserved_tokens: 0 });
    // The stopped request is counted at its estimate, not left free.
    expect(await used(member.id)).toBeGreaterThan(0);
    for (const release of holds.splice(0)) release();

    const failed = await start(b, member.cookie, 'fail now');
    expect(await ended(failed!)).toMatchObject({ status: 'failed', reserved_tokens: 0 });
    // Nothing is held: a fresh answer's rounds go ahead on what is left.
    const next = await start(a, member.cookie, 'rounds again');
    const row = await ended(next!);
    expect(row.status).toBe('done');
    const [sum] = await orm.em.fork().execute<{ held: string }[]>(
      `select coalesce(sum(m.reserved_tokens), 0) as held from chat_messages m
        join chat_sessions s on s.id = m.session_id where s.owner_id = ?`,
      [member.id],
    );
    expect(Number(sum!.held)).toBe(0);
  }, 90_000);
});
