/**
 * Direct messages across instances: two real server processes (the supervisor of main.ts, as
 * `INSTANCES=2 npm start` runs them) on one PostgreSQL; a message sent through A reaches a live
 * client of B through the LISTEN/NOTIFY bus, and a receipt travels back.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive, Events, type LiveClient } from './live-client.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function freePortPair(): Promise<number> {
  const free = (p: number) =>
    new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(p, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await free(port)) && (await free(port + 1))) return port;
  }
  throw new Error('no two free ports');
}

let supervisor: ChildProcess;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let a: string;
let b: string;
const output: string[] = [];
const clients: LiveClient[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-messages-'));
  const port = await freePortPair();
  a = `http://127.0.0.1:${port}`;
  b = `http://127.0.0.1:${port + 1}`;
  supervisor = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      INSTANCES: '2',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  supervisor.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  supervisor.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const deadline = Date.now() + 60_000;
  for (const url of [a, b]) {
    for (;;) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {}
      if (Date.now() > deadline) throw new Error(`${url} not healthy\n${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}, 90_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  if (supervisor.exitCode === null) {
    const exited = new Promise((resolve) => supervisor.once('exit', resolve));
    supervisor.kill('SIGTERM');
    await exited;
  }
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

async function api(base: string, method: string, url: string, cookie?: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      origin: base,
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, cookie: res.headers.get('set-cookie') };
}

async function register(base: string, name: string) {
  const username = `${name}${Math.random().toString(36).slice(2, 6)}`;
  const res = await api(base, 'POST', '/api/auth/register', undefined, {
    username,
    email: `${username}@example.com`,
    password: 'secret12',
    displayName: name,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.user.id as string, cookie: res.cookie!.split(';')[0]! };
}

type LiveEvent = { id: string; data: { type: string; message?: { id: string }; peerId?: string } };

describe('direct messages on two instances', () => {
  it('a message sent through A reaches a client of B, and the receipt made on B reaches A', async () => {
    const sender = await register(a, 'sender');
    const receiver = await register(b, 'receiver');
    const onB = connectLive(b, { cookie: receiver.cookie });
    const onA = connectLive(a, { cookie: sender.cookie });
    clients.push(onA, onB);
    const atB = new Events<LiveEvent>();
    const atA = new Events<LiveEvent>();
    onB.client.messages.live.subscribe({}, { onData: atB.push, onError: atB.fail });
    onA.client.messages.live.subscribe({}, { onData: atA.push, onError: atA.fail });
    expect((await atB.next(5_000)).data.type).toBe('unread');
    expect((await atA.next(5_000)).data.type).toBe('unread');

    const started = Date.now();
    const sent = await api(a, 'POST', '/api/messages', sender.cookie, {
      receiverId: receiver.id,
      content: 'across',
    });
    expect(sent.status).toBe(201);
    const got = await atB.next(1_000);
    expect(got.data).toMatchObject({ type: 'message', message: { id: sent.body.id } });
    expect(Date.now() - started).toBeLessThan(1_000);

    expect((await api(b, 'GET', `/api/messages/${sender.id}`, receiver.cookie)).status).toBe(200);
    expect((await atA.next(1_000)).data.type).toBe('message'); // its own send
    expect((await atA.next(1_000)).data).toMatchObject({ type: 'read', peerId: receiver.id });
  });
});
