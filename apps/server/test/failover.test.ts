/**
 * One of two instances killed: two real server processes (main.ts) on one PostgreSQL, a client's
 * live socket on the one that dies. Killed with SIGKILL (no goodbye to anyone), the client
 * reconnects to the other instance with the id of the last event it had, and gets what it missed
 * from the database: every message once, none twice. A send retried on the survivor with the same
 * clientId is the message already stored, not a second one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive, Events, type LiveClient, waitFor } from './live-client.js';
import { api, registerOver as register } from './over-http.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
const processes: ChildProcess[] = [];
const output: string[] = [];
const clients: LiveClient[] = [];

/** A real instance (main.ts) on the test database; resolves with its base URL once it listens. */
function startInstance(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      SEED_DEMO: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  processes.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no listening line:\n${output.join('')}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      seen += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: `http://127.0.0.1:${match[1]}` });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
}

let doomed: ChildProcess;
let doomedBase: string;
let survivorBase: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-failover-'));
  // One after the other: the first creates the upload-signing secret in DATA_DIR, the second reads it.
  ({ child: doomed, base: doomedBase } = await startInstance());
  ({ base: survivorBase } = await startInstance());
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const child of processes) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  }
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

type LiveEvent = { id: string; data: { type: string; message?: { id: string; content: string } } };

describe('an instance killed under its clients', () => {
  it('its client reconnects to the other instance and catches up: nothing lost, nothing twice', async () => {
    const sender = await register(survivorBase, 'failsender');
    const receiver = await register(survivorBase, 'failreceiver');
    // The client knows both instances and starts on the doomed one.
    const socket = connectLive([doomedBase, survivorBase], { cookie: receiver.cookie });
    clients.push(socket);
    const live = new Events<LiveEvent>();
    socket.client.messages.live.subscribe({}, { onData: live.push, onError: live.fail });
    expect((await live.next(10_000)).data.type).toBe('unread');
    const received = () => live.items.filter((e) => e.data.type === 'message').map((e) => e.data.message!);

    const send = async (base: string, content: string, clientId?: string) => {
      const res = await api(base, 'POST', '/api/messages', sender.cookie, {
        receiverId: receiver.id,
        content,
        ...(clientId ? { clientId } : {}),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string };
    };
    const before = await send(survivorBase, 'before the kill');
    const retried = await send(doomedBase, 'sent once, retried', 'retry-1');
    await waitFor(() => received().length === 2, 5_000, 'the live messages');

    // Frozen, then killed: what is sent meanwhile cannot reach the client live from the doomed
    // instance, and the survivor only hears of it before the client is there, so only the
    // catch-up from the database can bring it.
    doomed.kill('SIGSTOP');
    const missed = [await send(survivorBase, 'missed 1'), await send(survivorBase, 'missed 2')];
    doomed.kill('SIGKILL');
    // The sender's retry of a send whose answer it never had (its instance died): same clientId.
    const again = await send(survivorBase, 'sent once, retried', 'retry-1');
    expect(again.id).toBe(retried.id);

    await waitFor(() => received().length >= 4, 10_000, 'the catch-up');
    const after = await send(survivorBase, 'after the reconnect');
    await waitFor(() => received().some((m) => m.id === after.id), 5_000, 'a live message on the survivor');
    // Whatever else would come (a message twice) comes before one sent last.
    const last = await send(survivorBase, 'the last');
    await waitFor(() => received().some((m) => m.id === last.id), 5_000, 'the last message');

    expect(socket.opens()).toBe(2);
    expect(socket.closes).toHaveLength(1);
    const ids = received().map((m) => m.id);
    expect(ids).toEqual([before.id, retried.id, missed[0]!.id, missed[1]!.id, after.id, last.id]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(live.errors).toEqual([]);
  }, 60_000);
});
