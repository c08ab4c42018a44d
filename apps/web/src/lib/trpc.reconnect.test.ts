/**
 * The live socket's reconnect policy against a real WebSocket server: after the server closes
 * with 1012 (Service Restart) and refuses the next upgrade, as an instance going away behind a
 * proxy may, the client is connected again within a few hundred milliseconds, where its usual
 * back-off would wait a second or more.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { CLOSE_SERVICE_RESTART, createTrpcClient, liveRetryDelayMs } from './trpc';

describe('liveRetryDelayMs', () => {
  it('reconnects at once, then backs off; after a restart close it keeps retrying fast', () => {
    expect([0, 1, 2, 3, 6].map((a) => liveRetryDelayMs(a))).toEqual([0, 1000, 2000, 4000, 30_000]);
    expect([0, 1, 2, 10].map((a) => liveRetryDelayMs(a, true))).toEqual([0, 100, 100, 100]);
    expect(liveRetryDelayMs(11, true)).toBe(30_000);
  });
});

// The test setup puts a fake socket in place; these tests open real ones (the `ws` client).
const fake = globalThis.WebSocket;
beforeAll(() => {
  globalThis.WebSocket = WebSocket as unknown as typeof globalThis.WebSocket;
});
afterAll(() => {
  globalThis.WebSocket = fake;
});

let server: Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = null;
});

async function reconnectAfter(closeCode: number): Promise<number> {
  const wss = new WebSocketServer({ noServer: true });
  const connected: number[] = [];
  let upgrades = 0;
  let closedAt = 0;
  server = createServer();
  server.on('upgrade', (req, socket, head) => {
    upgrades += 1;
    // The second upgrade lands on the instance going away: refused.
    if (upgrades === 2) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      connected.push(Date.now());
      if (connected.length === 1) {
        setTimeout(() => {
          closedAt = Date.now();
          ws.close(closeCode, 'bye');
        }, 50);
      }
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = createTrpcClient(`http://127.0.0.1:${port}/trpc`);
  // A pending subscription keeps the lazy socket open and makes it reconnect.
  const sub = client.notifications.onChange.subscribe({}, { onError: () => {} });
  const deadline = Date.now() + 8_000;
  while (connected.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  sub.unsubscribe();
  for (const ws of wss.clients) ws.terminate();
  wss.close();
  expect(connected.length, 'reconnected').toBe(2);
  return connected[1]! - closedAt;
}

describe('the live socket', () => {
  it('is back in under 900 ms (its back-off alone would wait 1 s) after a 1012 close, past a refused attempt', async () => {
    expect(await reconnectAfter(CLOSE_SERVICE_RESTART)).toBeLessThan(900);
  });

  it('backs off a second past a refused attempt after any other close', async () => {
    expect(await reconnectAfter(1011)).toBeGreaterThanOrEqual(950);
  });
});
