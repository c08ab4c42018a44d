/** The app's job names and queued jobs' payloads, shared by the services that queue them and the handlers. */
export const JOBS = {
  exportBuild: 'export-build',
  uploadSweep: 'uploads-sweep',
  exportExpiry: 'exports-expire',
  usernameRelease: 'usernames-release',
  cubeySweep: 'cubey-stale-sweep',
  pushFanOut: 'push-fan-out',
  pushSend: 'push-send',
  pushSweep: 'push-deliveries-sweep',
  linkCard: 'link-card',
  pollEnd: 'poll-end',
  pollSweep: 'polls-ended-sweep',
} as const;

export interface ExportBuildJob {
  exportId: string;
}

/** The post whose link card is to be built (link-cards/link-card.service.ts). */
export interface LinkCardJob {
  postId: string;
}

/** A poll's end, queued with the post to start when it ends (poll.service.ts). */
export interface PollEndJob {
  postId: string;
}
