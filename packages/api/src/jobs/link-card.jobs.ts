/**
 * The link card job: one per new post with a link whose preview is not fresh
 * (link-cards/link-card.service.ts). A fetch that fails is a card without a title, not a failed
 * job; a job that throws (the database is away) is retried.
 */
import { buildLinkCard, type LinkCardDeps } from '../modules/link-cards/link-card.service.js';
import { JOBS, type LinkCardJob } from './jobs.names.js';
import type { JobRunner } from './jobs.queue.js';

export function registerLinkCardJobs(runner: JobRunner, deps: LinkCardDeps): void {
  runner.define<LinkCardJob>({
    name: JOBS.linkCard,
    retryLimit: 2,
    retryDelaySeconds: 5,
    // A fetch takes 5 s at most, its image 5 s more, then sharp.
    expireInSeconds: 60,
    run: async (job) => {
      await buildLinkCard(deps, job);
    },
  });
}
