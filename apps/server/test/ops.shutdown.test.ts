/**
 * Graceful shutdown under traffic, on two real instances sharing one database: SIGTERM reaches
 * A while a client sends direct messages through whichever instance a load balancer (here, a
 * readiness poller) considers ready, a Cubey chat is in flight on A, and the receiver's socket
 * is on A. A's readiness goes 503 before A refuses connections; no request fails; the chat in
 * flight completes; the socket is closed with 1012 and reconnects to B; every message arrives,
 * once; A exits 0.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectLive, Events, type LiveClient, waitFor } from './live-client.js';
import { listeningAt, type ServerProcess, startServer, stopServer, waitFor200 } from './ops-instances.js';
import { api, registerOver } from './over-http.js';

// Long enough for a readiness poll to come back on a loaded machine: one took 3.7 s at a load
// average of 24 on two cores.
const GRACE_MS = 10_000;
// The chat in flight outlasts the grace: it is still running when A stops accepting connections.
const THINK_MS = GRACE_MS + 1_500;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let serverA: ServerProcess;
let serverB: ServerProcess;
let a: string;
let b: string;
let portA: number;
let live: LiveClient | null = null;

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-ops-shutdown-'));
  const common = {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    RATE_LIMIT_SCALE: '100',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
    CUBEY_OFFLINE_THINK_MS: String(THINK_MS),
    CUBEY_OFFLINE_DELAY_MS: '0',
    // Each listens where the system gives it room: a port probed free beforehand can be taken by
    // another test's process in the seconds a start takes (EADDRINUSE seen in CI).
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'info',
  };
  // Instances as the supervisor starts them, but each on its own: stopping A leaves B running.
  serverA = startServer({ ...common, CUBES_INSTANCE: '1' });
  serverB = startServer({ ...common, CUBES_INSTANCE: '2' });
  [a, b] = await Promise.all([listeningAt(serverA), listeningAt(serverB)]);
  portA = Number(new URL(a).port);
  await Promise.all([
    waitFor200(`${a}/api/ready`, 150_000, serverA.output),
    waitFor200(`${b}/api/ready`, 150_000, serverB.output),
  ]);
}, 180_000);

afterAll(async () => {
  await live?.close();
  await Promise.all([stopServer(serverA), stopServer(serverB)]);
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** Sends a GET on an open socket; resolves with everything the server wrote back until it closed. */
function getOver(socket: net.Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
}

type LiveEvent = { id: string; data: { type: string; message?: { id: string } } };

describe('SIGTERM to one of two instances under traffic', () => {
  it('drains A: readiness first, no failed request, the chat in flight completes, no message lost', async () => {
    const sender = await registerOver(b, `down${Date.now().toString(36)}`);
    const receiver = await registerOver(b, `dwnr${Date.now().toString(36)}`);

    // The receiver's socket: on A first, on B when it reconnects.
    live = connectLive([a, b], { cookie: receiver.cookie });
    const events = new Events<LiveEvent>();
    live.client.messages.live.subscribe({}, { onData: events.push, onError: events.fail });
    expect((await events.next(10_000)).data.type).toBe('unread');

    // The load balancer: polls readiness every 25 ms; sends only to instances that answered 200.
    const ready = new Map([
      [a, true],
      [b, true],
    ]);
    let readyOffAt = 0;
    let refusedAt = 0;
    // A proxy's connection that A accepted just before it stopped accepting, whose request comes
    // after: it is served, not reset (Node's close() would close it as "idle").
    const early = net.connect(portA, '127.0.0.1');
    await once(early, 'connect');
    let lateAnswer: Promise<string> | null = null;
    let slowestPoll = 0;
    let polling = true;
    const poll = async (base: string) => {
      while (polling) {
        const asked = Date.now();
        try {
          const res = await fetch(`${base}/api/ready`);
          if (base === a) slowestPoll = Math.max(slowestPoll, Date.now() - asked);
          if (res.status !== 200 && base === a && !readyOffAt) {
            readyOffAt = Date.now();
            expect(await res.json()).toMatchObject({ ready: false, failed: ['running'] });
          }
          ready.set(base, res.status === 200);
        } catch {
          if (base === a && !refusedAt) {
            refusedAt = Date.now();
            lateAnswer = getOver(early, '/api/health');
          }
          ready.set(base, false);
        }
        // The load balancer's own period (what is simulated), not a wait for something.
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const poller = Promise.all([poll(a), poll(b)]);

    // The traffic: a message every 40 ms, round-robin over the ready instances.
    const sentIds: string[] = [];
    const failures: string[] = [];
    let sending = true;
    let turn = 0;
    const traffic = (async () => {
      const inFlight: Promise<void>[] = [];
      while (sending) {
        const targets = [a, b].filter((base) => ready.get(base));
        const base = targets[turn++ % targets.length]!;
        const n = turn;
        inFlight.push(
          api(base, 'POST', '/api/messages', sender.cookie, {
            receiverId: receiver.id,
            content: `m${n}`,
          }).then(
            (res) => {
              if (res.status === 201) sentIds.push(res.body.id as string);
              else failures.push(`${base} ${res.status} ${JSON.stringify(res.body)}`);
            },
            (error: unknown) => {
              failures.push(`${base} ${String(error)}`);
            },
          ),
        );
        // The client's own pace (what is simulated), not a wait for something.
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      await Promise.all(inFlight);
    })();

    const patience = { timeout: 30_000, interval: 20 };
    await vi.waitFor(() => expect(sentIds.length).toBeGreaterThanOrEqual(5), patience);
    // A request in flight across the signal: Cubey thinks for THINK_MS before it answers. It is
    // in flight once A has saved its chat.
    const chat = api(a, 'POST', '/api/cubey/chat', sender.cookie, { message: 'Still there?' });
    await vi.waitFor(
      async () => expect((await api(b, 'GET', '/api/cubey/sessions', sender.cookie)).body).toHaveLength(1),
      patience,
    );
    const signalledAt = Date.now();
    serverA.child.kill('SIGTERM');

    const code = await serverA.exited;
    const exitedAt = Date.now();
    // B goes on taking the traffic for a while.
    const atExit = sentIds.length;
    await vi.waitFor(() => expect(sentIds.length).toBeGreaterThan(Math.max(20, atExit + 5)), patience);
    sending = false;
    await traffic;
    polling = false;
    await poller;

    console.info(
      `SIGTERM +0 ms: ready 503 +${readyOffAt - signalledAt} ms, refused +${refusedAt - signalledAt} ms, ` +
        `exited +${exitedAt - signalledAt} ms; slowest readiness poll of A ${slowestPoll} ms; ` +
        `${sentIds.length} messages sent, ${failures.length} failed`,
    );
    expect(code, serverA.output.join('')).toBe(0);
    // Readiness went 503, and before A refused connections (after its grace); then A exited (0,
    // above). The order, not the times: those are logged above.
    expect(readyOffAt).toBeGreaterThan(0);
    expect(refusedAt).toBeGreaterThan(readyOffAt);
    expect(exitedAt).toBeGreaterThanOrEqual(refusedAt);
    // Nothing failed, and the chat that was in flight got its whole answer.
    expect(failures).toEqual([]);
    const answered = await chat;
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.reply.content.length).toBeGreaterThan(0);
    expect(sentIds.length).toBeGreaterThan(20);

    expect(lateAnswer).not.toBeNull();
    expect(await lateAnswer).toMatch(/^HTTP\/1\.1 200 /);

    // The socket was told 1012 and came back, on B.
    expect(live.closes).toContain(1012);
    await waitFor(() => live!.opens() >= 2, 5_000, 'the socket reconnected');

    // Every message reached the receiver, once.
    const received = () =>
      events.items.filter((e) => e.data.type === 'message').map((e) => e.data.message!.id);
    await waitFor(() => sentIds.every((id) => received().includes(id)), 10_000, 'every message arrived');
    const ids = received();
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...sentIds].sort());
  }, 120_000);
});
