/**
 * What the job runner runs for the app, in one place: the export build (a queued job with
 * retries) and the scheduled jobs, each once per period across every instance: the sweep of
 * uploads that never became public, the expiry of old data exports, the release of held
 * usernames, and Cubey's sweep of answers whose instance died; web push (push.jobs.ts); and link
 * cards (link-card.jobs.ts).
 */
import type { StorageDriver } from '@cubes/storage';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventBus } from '../events/event-bus.js';
import { buildExport, EXPORT_HEARTBEAT_MS } from '../modules/account/account.export.js';
import { releaseHeldUsernames, sweepExpiredExports } from '../modules/account/account.service.js';
import { type CubeyRuntime, sweepStaleAnswers } from '../modules/cubey/cubey.runtime.js';
import { purgeDeletedChats } from '../modules/cubey/cubey-chats.service.js';
import type { LinkPreviewSettings } from '../modules/link-cards/link-card.settings.js';
import { sweepOrphanUploads } from '../modules/objects/objects.service.js';
import { announcePollEnd, sweepEndedPolls } from '../modules/polls/poll.service.js';
import type { PushSettings } from '../modules/push/push.keys.js';
import { type ExportBuildJob, JOBS, type PollEndJob } from './jobs.names.js';
import type { JobRunner } from './jobs.queue.js';
import { registerLinkCardJobs } from './link-card.jobs.js';
import { type PushJobSettings, registerPushJobs } from './push.jobs.js';

/** The period of the upload sweep, the export expiry and the username release. */
export const SWEEP_SECONDS = 60 * 60;

/** The period of the sweep for ended polls whose end job was lost. */
export const POLL_SWEEP_SECONDS = 5 * 60;

export interface ExportJobSettings {
  /** A build running longer than this counts as dead and is retried (it is taken over only once its row is silent). Default 60. */
  expireInSeconds?: number;
  /** Default 5 (each retry starts from the beginning). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A running build's heartbeat; a row silent for 4 of them is taken over. Default 5 s. */
  heartbeatMs?: number;
  /** A pause after each section of the archive (tests). */
  stepDelayMs?: number;
}

export interface AppJobDeps {
  fork: () => EntityManager;
  storage: StorageDriver;
  bus: EventBus;
  cubey: CubeyRuntime;
  logError: (message: string, error: unknown) => void;
  logInfo: (fields: Record<string, unknown>, message: string) => void;
  logWarn: (fields: Record<string, unknown>, message: string) => void;
  /** Default SWEEP_SECONDS. */
  sweepSeconds?: number;
  /** The period of the sweep for ended polls whose job was lost. Default POLL_SWEEP_SECONDS. */
  pollSweepSeconds?: number;
  exports?: ExportJobSettings;
  /** Web push (VAPID keys and endpoint rules); without it no push jobs are registered. */
  push?: PushSettings & { jobs?: PushJobSettings };
  /** Link cards' fetch rules and the host's cache scope; without them no link card jobs are registered. */
  linkCards?: { settings: LinkPreviewSettings; cacheScope: object };
}

export function registerAppJobs(runner: JobRunner, deps: AppJobDeps): void {
  const { fork, storage, logError, logInfo, logWarn } = deps;
  const settings = deps.exports ?? {};
  const heartbeatMs = settings.heartbeatMs ?? EXPORT_HEARTBEAT_MS;
  const takeOverAfterMs = heartbeatMs * 4;

  runner.define<ExportBuildJob>({
    name: JOBS.exportBuild,
    retryLimit: settings.retryLimit ?? 5,
    retryDelaySeconds: settings.retryDelaySeconds ?? 5,
    expireInSeconds: settings.expireInSeconds ?? 60,
    async run({ exportId }, attempt) {
      const outcome = await buildExport(
        {
          em: fork(),
          storage,
          now: () => new Date(),
          logError,
          heartbeatMs,
          ...(settings.stepDelayMs ? { stepDelayMs: settings.stepDelayMs } : {}),
        },
        exportId,
        {
          takeOverAfterMs,
          lastAttempt: attempt.last,
          onStart: () =>
            logInfo(
              { component: 'jobs', job: JOBS.exportBuild, exportId, retry: attempt.retryCount },
              'export build started',
            ),
        },
      );
      // Another build holds it and is alive: look again once it could have gone silent.
      if (outcome === 'busy') {
        await runner.send(
          JOBS.exportBuild,
          { exportId },
          { startAfterSeconds: Math.ceil(takeOverAfterMs / 1000) },
        );
      }
    },
  });

  const sweepSeconds = deps.sweepSeconds ?? SWEEP_SECONDS;
  runner.every(JOBS.uploadSweep, sweepSeconds, async () => {
    const n = await sweepOrphanUploads(fork(), storage, new Date());
    if (n > 0) logInfo({ component: 'objects' }, `swept ${n} orphan upload(s)`);
  });
  runner.every(JOBS.exportExpiry, sweepSeconds, async () => {
    const n = await sweepExpiredExports(fork(), storage, new Date(), logError);
    if (n > 0) logInfo({ component: 'account' }, `deleted ${n} expired data export(s)`);
  });
  runner.every(JOBS.usernameRelease, sweepSeconds, async () => {
    const n = await releaseHeldUsernames(fork(), new Date());
    if (n > 0) logInfo({ component: 'account' }, `released ${n} held username(s)`);
  });
  runner.every(JOBS.cubeySweep, Math.max(1, Math.round(deps.cubey.sweepMs / 1000)), async () => {
    await sweepStaleAnswers({ fork, bus: deps.bus, logError }, deps.cubey.staleMs, deps.cubey.sweepClock?.());
    // Chats deleted longer ago than Undo reaches go for good.
    await purgeDeletedChats(fork());
  });
  if (deps.linkCards) {
    registerLinkCardJobs(runner, {
      fork,
      storage,
      bus: deps.bus,
      cacheScope: deps.linkCards.cacheScope,
      settings: deps.linkCards.settings,
      logError,
    });
  }
  // A poll's end: the job queued for it, and the sweep for one whose job was lost. Either may run
  // on any instance, twice even: announcePollEnd writes its notifications once.
  runner.define<PollEndJob>({
    name: JOBS.pollEnd,
    async run({ postId }) {
      await announcePollEnd({ fork, bus: deps.bus }, postId);
    },
  });
  runner.every(JOBS.pollSweep, deps.pollSweepSeconds ?? POLL_SWEEP_SECONDS, async () => {
    const n = await sweepEndedPolls({ fork, bus: deps.bus });
    if (n > 0) logInfo({ component: 'polls' }, `announced the end of ${n} poll(s) the sweep found`);
  });
  if (deps.push) {
    const { jobs, ...settings } = deps.push;
    registerPushJobs(runner, { fork, settings, logError, logWarn }, sweepSeconds, jobs);
  }
}
