/**
 * The push jobs: the fan-out of a notifications or messages event (claims what is due, queues a
 * send per browser), the send itself (retried with growing delays while the push service is
 * unreachable, busy or failing; a 404 or 410 deletes the subscription), and the hourly sweep of
 * old claims. The bus listener that queues the fan-out is push.dispatch.ts's followBusForPush.
 */

import {
  deliver,
  fanOut,
  type PushDeps,
  type PushFanOutJob,
  type PushSendJob,
} from '../modules/push/push.dispatch.js';
import { sweepDeliveries } from '../modules/push/push.repository.js';
import { JOBS } from './jobs.names.js';
import type { JobRunner } from './jobs.queue.js';

export interface PushJobSettings {
  /** Default 5 retries, 10 s apart. */
  retryLimit?: number;
  retryDelaySeconds?: number;
}

/** Claims are kept a day: far beyond the push window, so nothing is claimed twice. */
export const PUSH_CLAIM_KEEP_MS = 24 * 60 * 60 * 1000;

export function registerPushJobs(
  runner: JobRunner,
  deps: Omit<PushDeps, 'queue'>,
  sweepSeconds: number,
  settings: PushJobSettings = {},
): void {
  const withQueue: PushDeps = { ...deps, queue: runner };
  runner.define<PushFanOutJob>({
    name: JOBS.pushFanOut,
    retryLimit: 3,
    retryDelaySeconds: 2,
    expireInSeconds: 60,
    run: async (job) => {
      await fanOut(withQueue, job);
    },
  });
  runner.define<PushSendJob>({
    name: JOBS.pushSend,
    retryLimit: settings.retryLimit ?? 5,
    retryDelaySeconds: settings.retryDelaySeconds ?? 10,
    expireInSeconds: 60,
    run: async (job) => {
      await deliver(withQueue, job);
    },
  });
  runner.every(JOBS.pushSweep, sweepSeconds, async () => {
    await sweepDeliveries(deps.fork(), new Date(Date.now() - PUSH_CLAIM_KEEP_MS));
  });
}
