/**
 * What the server (apps/server) imports from the API package: the router, the context, the
 * session and cache plumbing, the event bus and the schemas' types. The web app imports types
 * only (`import type`), mostly through client.ts.
 */
export type {
  AuthedContext,
  Context,
  ContextInnerOptions,
  CurrentSession,
  ReadinessProbe,
  ResponseControl,
  SessionUser,
  Transport,
} from './context.js';
export { createContextInner, publishEvent, readEm, readEmUnlessOwn } from './context.js';
export { ERROR_REASONS, type ErrorReason, reasonOf } from './error-reasons.js';
export { badRequest, isGone, TOO_MANY_REQUESTS } from './errors.js';
export {
  type BusEvent,
  createMemoryEventBus,
  type EventBus,
  type EventTopics,
  type Topic,
} from './events/event-bus.js';
export { createPgEventBus, EVENT_CHANNEL, type PgEventBusOptions } from './events/pg-event-bus.js';
export {
  type AppJobDeps,
  type ExportJobSettings,
  registerAppJobs,
  SWEEP_SECONDS,
} from './jobs/jobs.handlers.js';
export { type ExportBuildJob, JOBS } from './jobs/jobs.names.js';
export {
  createJobRunner,
  DEFAULT_STOP_TIMEOUT_MS,
  type JobQueue,
  type JobRunner,
  type JobRunnerOptions,
} from './jobs/jobs.queue.js';
export {
  cachesHear,
  cacheTopics,
  type Dependencies,
  forgetEverything,
  keptRead,
  keptReads,
  type Loading,
  track,
} from './kept-reads.js';
export {
  createConsoleMailer,
  createRecordingMailer,
  createSmtpMailer,
  DEFAULT_MAIL_FROM,
  type Mailer,
  type RecordingMailer,
} from './mail/index.js';
export {
  type AccountExportDto,
  EXPORT_KEEP_MS,
  exportDownloadPath,
  findExportDownload,
  sweepExpiredExports,
} from './modules/account/account.service.js';
export type { CommentDto, CommentPage } from './modules/comments/comment.schema.js';
export { watchCubeyUsage } from './modules/cubey/cubey.fair-use.js';
export {
  type CubeyRuntime,
  type CubeyRuntimeOptions,
  createCubeyRuntime,
  sweepStaleAnswers,
} from './modules/cubey/cubey.runtime.js';
export type {
  ChatMessage as ChatMessageDto,
  ChatSession as ChatSessionDto,
} from './modules/cubey/cubey.schema.js';
export type { AnswerEvent, SessionEvent } from './modules/cubey/cubey.service.js';
export { purgeDeletedChats } from './modules/cubey/cubey-chats.service.js';
export { createOfflineProvider, OFFLINE_TOKEN_DELAY_MS } from './modules/cubey/providers/offline.provider.js';
export {
  createOpenAiProvider,
  type OpenAiProviderOptions,
} from './modules/cubey/providers/openai.provider.js';
export type { CubeyProvider } from './modules/cubey/providers/provider.js';
export { type DemoAccount, formatDemoAccounts, seedDemoCommunity } from './modules/demo/demo.seed.js';
export type { FollowResult } from './modules/follows/follow.schema.js';
export { READY_DB_TIMEOUT_MS } from './modules/health/health.service.js';
export {
  buildLinkCard,
  type LinkCardDeps,
  type LinkCardOutcome,
} from './modules/link-cards/link-card.service.js';
export {
  DEFAULT_LINK_PREVIEW_SETTINGS,
  type LinkPreviewSettings,
} from './modules/link-cards/link-card.settings.js';
export { setRole } from './modules/moderation/moderation.access.js';
export type {
  ContextEntry,
  ModerationLogEntry,
  OpenReport as OpenReportDto,
} from './modules/moderation/moderation.schema.js';
export { BELL_WINDOW_MS, followLikesForBells } from './modules/notifications/notification.bells.js';
export type { NotificationDto } from './modules/notifications/notification.schema.js';
export { reencodeImage, thumbContentType } from './modules/objects/objects.image.js';
export { objectPathOf } from './modules/objects/objects.schema.js';
export {
  findPublicObject,
  INVALID_IMAGE,
  type IncomingUpload,
  ORPHAN_AGE_MS,
  receiveUpload,
  sweepOrphanUploads,
  UPLOAD_NOT_FOUND,
  type UploadOutcome,
  uploadKeyOfIncoming,
} from './modules/objects/objects.service.js';
// The benchmark's one-query route (bench/src/server.ts) reads a post as the app does.
export { findPostById } from './modules/posts/post.repository.js';
export type { LikeResult, PostDto, PostPage } from './modules/posts/post.schema.js';
export { followBusForPush, type PushDeps } from './modules/push/push.dispatch.js';
export {
  generateVapidKeys,
  loadOrCreateVapidKeys,
  type PushSettings,
  type VapidKeys,
} from './modules/push/push.keys.js';
export { PUSH_ENDPOINT_TAKEN } from './modules/push/push.service.js';
export { type EndedSessions, sessionEnded } from './modules/sessions/sessions.cache.js';
export {
  hashToken,
  type ResolvedSession,
  resolveSession,
  resolveSessionFromCache,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from './modules/sessions/sessions.service.js';
export type { SettingsDto } from './modules/settings/settings.service.js';
export {
  SITEMAP_POSTS_MAX,
  SITEMAP_URLS_MAX,
  type SitemapKind,
  type SitemapPage,
  type SitemapRow,
  sitemapPage,
  storedImages,
} from './modules/syndication/syndication.service.js';
export type { UserDto, UserProfile, UserStats } from './modules/users/user.schema.js';
export { type OutputParser, output, outputSchemaOf } from './output.js';
export { type RateLimitBucket, type RateLimiter, type RateLimitResult, rateLimits } from './rate-limits.js';
export { restRows } from './rest.js';
export type { ProcedureErrorStatus, ProcedurePath, RestRow, RestRowOf } from './rest-rows.js';
export { type AppRouter, appRouter, createCaller, type RouterInputs, type RouterOutputs } from './root.js';
export { sharedEncoded, sharedJson, withoutCursor } from './shared-json.js';
export {
  DATABASE_UNAVAILABLE_MESSAGE,
  describeError,
  type ErrorDescription,
  type ErrorIssue,
  MAX_SUBSCRIPTIONS_PER_SOCKET,
  type ProcedureMeta,
  RateLimitedError,
  TOO_MANY_SUBSCRIPTIONS,
  withReason,
} from './trpc.js';
