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
} as const;

export interface ExportBuildJob {
  exportId: string;
}

/** The post whose link card is to be built (link-cards/link-card.service.ts). */
export interface LinkCardJob {
  postId: string;
}
