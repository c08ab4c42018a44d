/** Zod schemas shared with the web forms. No Node built-ins: safe for the browser bundle. */
export * from './modules/account/account.schema.js';
export * from './modules/auth/auth.schema.js';
export * from './modules/comments/comment.schema.js';
export * from './modules/cubey/cubey.schema.js';
export * from './modules/follows/follow.schema.js';
export * from './modules/gallery/gallery.schema.js';
export * from './modules/health/health.schema.js';
export * from './modules/messages/message.schema.js';
export * from './modules/moderation/moderation.schema.js';
export * from './modules/notifications/notification.schema.js';
export * from './modules/objects/objects.schema.js';
export * from './modules/polls/poll.schema.js';
export * from './modules/posts/post.schema.js';
export * from './modules/push/push.schema.js';
export * from './modules/reports/report.schema.js';
export * from './modules/safety/safety.schema.js';
export * from './modules/search/search.schema.js';
export * from './modules/sessions/sessions.schema.js';
export * from './modules/settings/settings.schema.js';
export * from './modules/users/user.schema.js';
export {
  cursorSchema,
  INVALID_CURSOR,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  type PageInput,
  pageInput,
  pageInputWith,
  pageLimitSchema,
} from './paging.js';
export * from './text.js';
