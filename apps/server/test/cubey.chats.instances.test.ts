/**
 * Managing chats across two real server processes (main.ts) on one database: a tab on instance B
 * (cubey.onSessions over a WebSocket) hears at once of each change made through instance A: the
 * title proposed after the first answer, a rename, a delete (`deleted`), its Undo, and the answer
 * an edit-and-resend starts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionEvent } from '@cubes/api';
import { createTestDatabase } from '@cubes/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive, Events, type LiveClient, waitFor } from './live-client.js';
import { listeningAt, type ServerProcess, START_BOUND_MS, startServer, stopServer } from './ops-instances.js';
import { api, registerOver } from './over-http.js';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
const servers: ServerProcess[] = [];
const bases: string[] = [];
const clients: LiveClient[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'cubes-chats-'));
  // One after the other: the first applies the migrations.
  for (let i = 0; i < 2; i += 1) {
    const server = startServer({
      PORT: '0',
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      CUBEY_OFFLINE_DELAY_MS: '20',
    });
    servers.push(server);
    bases.push(await listeningAt(server));
  }
}, 2 * START_BOUND_MS);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const server of servers) await stopServer(server);
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('chats managed on one instance, live on the other', () => {
  it('sends every change to the tabs on the other instance', async () => {
    const [a, b] = bases as [string, string];
    const member = await registerOver(a, `chats${Math.random().toString(36).slice(2, 7)}`);
    const tab = connectLive(b, { cookie: member.cookie });
    clients.push(tab);
    const events = new Events<SessionEvent>();
    tab.client.cubey.onSessions.subscribe(
      {},
      { onData: (e) => events.push((e as { data: SessionEvent }).data), onError: events.fail },
    );
    const seen = (check: (e: SessionEvent) => boolean, what: string) =>
      waitFor(() => events.items.some(check), 8000, what);

    const started = await api(a, 'POST', '/api/cubey/chat', member.cookie, {
      message: 'What is trending today in the cube world?',
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const sessionId = started.body.sessionId as string;
    await seen(
      (e) => e.sessionId === sessionId && e.title === 'Trending today cube world',
      'the proposed title',
    );

    expect(
      (await api(a, 'PATCH', `/api/cubey/sessions/${sessionId}`, member.cookie, { title: 'Renamed on A' }))
        .status,
    ).toBe(200);
    await seen((e) => e.title === 'Renamed on A' && !e.deleted, 'the rename');

    expect((await api(a, 'DELETE', `/api/cubey/sessions/${sessionId}`, member.cookie)).status).toBe(200);
    await seen((e) => e.sessionId === sessionId && e.deleted, 'the delete');
    expect((await api(b, 'GET', '/api/cubey/sessions', member.cookie)).body).toEqual([]);

    const count = events.items.length;
    expect((await api(a, 'POST', `/api/cubey/sessions/${sessionId}/restore`, member.cookie)).status).toBe(
      200,
    );
    await waitFor(
      () => events.items.slice(count).some((e) => e.sessionId === sessionId && !e.deleted),
      8000,
      'the undo',
    );
    const messages = await api(b, 'GET', `/api/cubey/sessions/${sessionId}/messages`, member.cookie);
    expect(messages.body.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);

    const edited = await api(a, 'PUT', `/api/cubey/messages/${messages.body[0].id}`, member.cookie, {
      message: 'How do I post?',
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await seen((e) => e.streamingId === edited.body.reply.id, 'the answer of the edit');
  }, 60_000);
});
