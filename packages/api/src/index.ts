export type { Context, CurrentSession, ResponseControl, SessionUser } from './context.js';
export { createInnerContext } from './context.js';
export {
  hashToken,
  type ResolvedSession,
  resolveSession,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from './modules/auth/session.service.js';
export type { UserDto } from './modules/users/user.serializer.js';
export { type RateLimitBucket, type RateLimiter, type RateLimitResult, rateLimits } from './rate-limits.js';
export { type AppRouter, appRouter, createCaller, type RouterInputs, type RouterOutputs } from './root.js';
export { describeError, type ErrorDescription, type ErrorIssue, RateLimitedError } from './trpc.js';
