/**
 * A local push service for tests: the npm `web-push-testing` server (what a browser's push
 * service does: hands out subscriptions, takes encrypted pushes, decrypts and keeps them, answers
 * 410 for an expired subscription) on a free port of 127.0.0.1, driven through its HTTP API.
 */

import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { freePorts } from './ops-instances.js';

const require = createRequire(import.meta.url);

export interface TestSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

export interface PushService {
  url: string;
  subscribe(applicationServerKey: string): Promise<TestSubscription>;
  /** The decrypted payloads the subscription received, oldest first. */
  received(clientHash: string): Promise<string[]>;
  /** The subscription answers 410 from now on. */
  expire(clientHash: string): Promise<void>;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const { PushApiModel } = require('web-push-testing/src/PushApiModel.js');
  const WebPushTestingServer = require('web-push-testing/src/server.js');
  const port = await freePorts(1);
  const model = new PushApiModel();
  const server = new WebPushTestingServer(model, port);
  const log = console.log;
  console.log = () => {};
  try {
    server.startServer();
  } finally {
    console.log = log;
  }
  const http = (server as { _server: Server })._server;
  await new Promise<void>((resolve) =>
    http.listening ? resolve() : http.once('listening', () => resolve()),
  );
  const url = `http://localhost:${port}`;
  const call = async (path: string, body: object = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return text ? (JSON.parse(text) as { data: unknown }) : { data: null };
  };
  return {
    url,
    async subscribe(applicationServerKey) {
      return (await call('/subscribe', { userVisibleOnly: 'true', applicationServerKey }))
        .data as TestSubscription;
    },
    async received(clientHash) {
      return ((await call('/get-notifications', { clientHash })).data as { messages: string[] }).messages;
    },
    async expire(clientHash) {
      await fetch(`${url}/expire-subscription/${clientHash}`, { method: 'POST' });
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
