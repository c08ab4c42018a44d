/**
 * The suite's servers: one per Playwright worker, each on its own port and in its own data
 * directory (its own PostgreSQL, demo community and mailbox), so two workers never share a feed, a
 * rate limit or a reset code. The runner starts them all (playwright.config.ts, `webServer`); a
 * worker talks to the one of its slot, `TEST_PARALLEL_INDEX`, which Playwright sets in each worker
 * before that worker loads the config or a spec. A slot is kept by whichever worker takes over
 * after one stops, so a worker started after a failure finds the same server.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * One by default. On CI's two cores, two workers ran the suite in 17.6 min instead of 26.8, but
 * each of two runs lost a test to the load, failures one worker sees far more rarely: a page given
 * no frames for minutes (not understood), and an axe check that read the old theme's text colour
 * (since fixed in `withEverythingDrawn`). bench/README.md, "The e2e suite on two workers".
 * E2E_WORKERS=2 (or more) on a machine with cores to spare.
 */
export const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1) || 1);

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
