/**
 * The set-up the server's REST and socket tests share, as vitest fixtures (`test.extend`): one
 * real app per file on a database of its own, listening on a port, and the live clients its tests
 * open, all closed when the file ends (the app last, after its clients). A fixture is made the
 * first time a test of the file asks for it:
 *
 *   import { it } from './fixtures.js';
 *   it('…', async ({ t, base, live }) => { … });
 *
 * Files that need an app of another configuration (a rate limit) make it themselves.
 */
import { test } from 'vitest';
import { createTestApp, listen } from './harness.js';
import { connectLive, type LiveClient } from './live-client.js';

/** Opens a live client (tRPC over the WebSocket) of the file's app, or of the app at `at`. */
export type Live = (options?: { cookie?: string; origin?: string }, at?: string) => LiveClient;

export const it = test
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none).
  .extend('t', { scope: 'file' }, async ({}, { onCleanup }) => {
    const t = await createTestApp();
    onCleanup(() => t.close());
    return t;
  })
  .extend('base', { scope: 'file' }, ({ t }) => listen(t.app))
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  .extend('clients', { scope: 'file' }, ({}, { onCleanup }) => {
    const clients: LiveClient[] = [];
    onCleanup(async () => {
      await Promise.all(clients.map((c) => c.close()));
    });
    return clients;
  })
  // Each client is closed with the file.
  .extend('live', { scope: 'file' }, ({ base, clients }): Live => {
    return (options = {}, at = base) => {
      const client = connectLive(at, options);
      clients.push(client);
      return client;
    };
  });
