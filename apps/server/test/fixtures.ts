/**
 * The set-up the server's REST and socket tests share, as vitest fixtures (`test.extend`): one
 * real app per file on a database of its own, listening on a port, and the live clients its tests
 * open, all closed when the file ends (the apps last, after their clients). A fixture is made the
 * first time a test of the file (or an `it.beforeAll`) asks for it:
 *
 *   import { it } from './fixtures.js';
 *   it.beforeAll(async ({ t }) => { … });            // set-up on the app: members, rows
 *   it('…', async ({ t, base, live }) => { … });
 *   it.for(cases)('%s …', async (c, { t }) => { … }); // a table of cases (it.each gets no fixtures)
 *
 * - `t`: the file's app (harness.ts's TestApp); `base`: its URL, listening on a loopback port;
 *   `live(options?, at?)`: a live client (tRPC over the WebSocket) of that app, or of the app at `at`;
 *   `clients`: the live clients the file opened (a client made otherwise and pushed here is closed too).
 * - `appOptions`: how `t` is built (the app's config, a logger, a mailer, a storage driver, a read
 *   replica). A file whose app is configured otherwise says so once, at its top level:
 *
 *     const it = itWith({ config: { rateLimitScale: 1 } });
 *
 *   or, when the option needs a fixture of the file's own (a model server, a built web app):
 *
 *     import { it as withApp } from './fixtures.js';
 *     const it = withApp.extend('modelUrl', { scope: 'file' }, async ({}, { onCleanup }) => { … });
 *     it.override('appOptions', ({ modelUrl }) => ({ config: { cubey: { baseUrl: modelUrl } } }));
 *
 *   Never `override` the `it` exported here: the files share a worker's modules (isolate: false in
 *   vitest.config.ts), and an `override` at a file's top level changes the `it` it is called on for
 *   good, so the next file's app would be built with this file's options.
 *
 * - `appWith(options)`: another app beside `t` (a rate limit, another model), closed with the
 *   file. A file whose tests share one names it as a fixture of its own, which a describe's tests
 *   may take under the name they use (`async ({ limited: t }) => …`):
 *
 *     const it = withApp.extend('limited', { scope: 'file' }, ({ appWith }) =>
 *       appWith({ config: { rateLimitScale: 1 } }),
 *     );
 *
 * - `withSmtpInbox()` and `withS3(bucket)` (below): `it` with an SMTP server of the file's own as
 *   `inbox` (the app's mailer), or an S3 server as `s3` (the app's storage, `t.storage`).
 *
 * Files whose set-up is of another kind (several instances on one database, restarts, a bus of
 * their own) make it themselves.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mailer } from '@cubes/api';
import { createS3Storage, type StorageDriver } from '@cubes/storage';
import type { FastifyBaseLogger } from 'fastify';
import { test } from 'vitest';
import type { AppConfig } from '../src/env.js';
import { createTestApp, listen, type TestApp } from './harness.js';
import { connectLive, type LiveClient } from './live-client.js';

/** How a test app is built: createTestApp's arguments, by name. */
export interface AppOptions {
  config?: Partial<AppConfig>;
  logger?: FastifyBaseLogger;
  mailer?: Mailer;
  storage?: StorageDriver;
  /** A read replica: a second database of its own (TestApp.readOrm). */
  replica?: boolean;
}

/** Builds another app of the file, closed with it. */
export type AppWith = (options?: AppOptions) => Promise<TestApp>;

/** Opens a live client (tRPC over the WebSocket) of the file's app, or of the app at `at`. */
export type Live = (options?: { cookie?: string; origin?: string }, at?: string) => LiveClient;

const noOptions: AppOptions = {};

const shared = test
  .extend('appOptions', { scope: 'file' }, noOptions)
  // What the file opened, closed with it: the live clients first, then the apps (each close fails
  // when one of the app's answers did not match the OpenAPI document).
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern (none).
  .extend('opened', { scope: 'file' }, ({}, { onCleanup }) => {
    const opened = { apps: [] as TestApp[], clients: [] as LiveClient[] };
    onCleanup(async () => {
      await Promise.all(opened.clients.map((c) => c.close()));
      const closed = await Promise.allSettled(opened.apps.map((a) => a.close()));
      const failed = closed.flatMap((c) => (c.status === 'rejected' ? [c.reason] : []));
      if (failed.length === 1) throw failed[0];
      if (failed.length > 1) throw new AggregateError(failed, 'several test apps failed to close');
    });
    return opened;
  })
  .extend('appWith', { scope: 'file' }, ({ opened }): AppWith => {
    return async ({ config, logger, mailer, storage, replica } = {}) => {
      const app = await createTestApp(config, logger, mailer, storage, { replica: replica ?? false });
      opened.apps.push(app);
      return app;
    };
  })
  .extend('t', { scope: 'file' }, ({ appOptions, appWith }) => appWith(appOptions))
  .extend('base', { scope: 'file' }, ({ t }) => listen(t.app))
  // The live clients the file opened: a client pushed here is closed with the file, before the apps.
  .extend('clients', { scope: 'file' }, ({ opened }) => opened.clients)
  .extend('live', { scope: 'file' }, ({ base, opened }): Live => {
    return (options = {}, at = base) => {
      const client = connectLive(at, options);
      opened.clients.push(client);
      return client;
    };
  });

/** The `it` of a file whose app is built as by default. */
export const it = shared;
// The rule above, kept: an override of the shared `it` fails at once instead of reaching the next
// file's app (a copy made by `extend` or `itWith` has an `override` of its own).
it.override = (() => {
  throw new Error('override a copy of it (itWith(options), or it.extend(…)), never the shared one');
}) as typeof it.override;

/** `it` for a file whose app is built with `options`: a copy of `it` of the file's own (above). */
export function itWith(options: AppOptions) {
  const own = it.extend({});
  own.override('appOptions', options);
  return own;
}

/**
 * `it` for a file whose app mails through a real SMTP server: `inbox` (smtp-inbox.ts), started
 * before the app and stopped after it. Another app of the file can mail there too:
 * `appWith({ mailer: inbox.mailer })`.
 */
export function withSmtpInbox(options: { greetAfterMs?: number } = {}) {
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  const extended = it.extend('inbox', { scope: 'file' }, async ({}, { onCleanup }) => {
    const { startSmtpInbox } = await import('./smtp-inbox.js'); // only the files that mail load it
    const inbox = await startSmtpInbox(options);
    onCleanup(() => inbox.close());
    return inbox;
  });
  extended.override('appOptions', ({ inbox }) => ({ mailer: inbox.mailer }));
  return extended;
}

/**
 * `it` for a file whose app stores objects in S3: a real S3-protocol server (s3rver on 127.0.0.1,
 * in a temporary directory) as `s3`, and the app's storage driver on it (`t.storage`, which
 * buildApp's start-up gives its bucket), stopped after the app.
 */
export function withS3(bucket: string) {
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  const extended = it.extend('s3', { scope: 'file' }, async ({}, { onCleanup }) => {
    const { default: S3rver } = await import('s3rver'); // only the files on S3 load it
    const directory = await mkdtemp(path.join(tmpdir(), 'cubes-s3rver-'));
    const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
    const { port } = await server.run();
    onCleanup(async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    });
    const endpoint = `http://127.0.0.1:${port}`;
    const credentials = { accessKey: 'S3RVER', secretKey: 'S3RVER' };
    const storage = createS3Storage({ endpoint, bucket, region: 'us-east-1', ...credentials });
    return { endpoint, bucket, credentials, storage };
  });
  extended.override('appOptions', ({ s3 }) => ({ storage: s3.storage }));
  return extended;
}
