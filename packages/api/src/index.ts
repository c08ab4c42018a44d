export type { AuthedContext, Context, CurrentSession, ResponseControl, SessionUser } from './context.js';
export { createInnerContext } from './context.js';
export {
  createConsoleMailer,
  createRecordingMailer,
  createSmtpMailer,
  DEFAULT_MAIL_FROM,
  type Mailer,
  type RecordingMailer,
} from './mail/index.js';
export {
  hashToken,
  type ResolvedSession,
  resolveSession,
  resolveSessionFromCache,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from './modules/auth/session.service.js';
export type { CommentDto, CommentPage } from './modules/comments/comment.service.js';
export { type DemoAccount, formatDemoAccounts, seedDemoCommunity } from './modules/demo/demo.seed.js';
export type { FollowResult } from './modules/follows/follow.service.js';
export type { NotificationDto } from './modules/notifications/notification.service.js';
export { reencodeImage } from './modules/objects/objects.image.js';
export {
  findPublicObject,
  INVALID_IMAGE,
  ORPHAN_AGE_MS,
  objectPathOf,
  sweepOrphanUploads,
  UPLOAD_NOT_FOUND,
} from './modules/objects/objects.service.js';
export type { PostDto, PostPage } from './modules/posts/post.serializer.js';
export type { LikeResult } from './modules/posts/post.service.js';
export type { SettingsDto } from './modules/settings/settings.service.js';
export type { UserDto } from './modules/users/user.serializer.js';
export type { UserProfile, UserStats } from './modules/users/user.service.js';
export { type RateLimitBucket, type RateLimiter, type RateLimitResult, rateLimits } from './rate-limits.js';
export { type AppRouter, appRouter, createCaller, type RouterInputs, type RouterOutputs } from './root.js';
export { sharedJson } from './shared-json.js';
export { describeError, type ErrorDescription, type ErrorIssue, RateLimitedError } from './trpc.js';
