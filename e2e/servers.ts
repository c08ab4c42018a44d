/**
 * The suite's servers: one per Playwright worker, each on its own port and in its own data
 * directory (its own PostgreSQL, demo community and mailbox), so two workers never share a feed, a
 * rate limit or a reset code. The runner starts them all (playwright.config.ts, `webServer`); a
 * worker talks to the one of its slot, `TEST_PARALLEL_INDEX`, which Playwright sets in each worker
 * before that worker loads the config or a spec. A slot is kept by whichever worker takes over
 * after one stops, so a worker started after a failure finds the same server.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Two, on a machine with two cores or more (CI's has two): 16.6 min for the suite against 22.5 on
 * one worker (bench/README.md, "The e2e suite on two workers"). One worker leaves a core idle: a
 * test mostly waits for the page, the server or the database in turn. E2E_WORKERS sets another
 * number; E2E_WORKERS=1 is the way to rule the load out when a test fails.
 */
export const WORKERS = Math.max(
  1,
  Number(process.env.E2E_WORKERS ?? Math.min(2, availableParallelism())) || 1,
);

const firstPort = Number(process.env.E2E_PORT ?? 3210);
const here = path.dirname(fileURLToPath(import.meta.url));

/** Slot i's server: port E2E_PORT + i, data in e2e/.data (slot 0) or e2e/.data-i. */
export function suiteServer(slot: number) {
  const port = firstPort + slot;
  const dataDir = slot === 0 ? '.data' : `.data-${slot}`;
  return { port, url: `http://localhost:${port}`, dataDir, dataPath: path.join(here, dataDir) };
}

/** This process's server: the worker's slot's (the runner, which has none, gets slot 0's). */
export const server = suiteServer(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const baseURL = server.url;
