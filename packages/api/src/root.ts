/**
 * The app router: every domain's router under its name (`posts.feed`, `auth.login`), and the
 * input and output types the web app imports through `AppRouter`.
 */
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { accountRouter } from './modules/account/account.router.js';
import { authRouter } from './modules/auth/auth.router.js';
import { bookmarksRouter } from './modules/bookmarks/bookmark.router.js';
import { commentsRouter } from './modules/comments/comment.router.js';
import { cubeyRouter } from './modules/cubey/cubey.router.js';
import { followsRouter } from './modules/follows/follow.router.js';
import { galleryRouter } from './modules/gallery/gallery.router.js';
import { healthRouter } from './modules/health/health.router.js';
import { linkCardsRouter } from './modules/link-cards/link-card.router.js';
import { mentionsRouter } from './modules/mentions/mention.router.js';
import { messagesRouter } from './modules/messages/message.router.js';
import { moderationRouter } from './modules/moderation/moderation.router.js';
import { notificationsRouter } from './modules/notifications/notification.router.js';
import { objectsRouter } from './modules/objects/objects.router.js';
import { pollsRouter } from './modules/polls/poll.router.js';
import { postsRouter } from './modules/posts/post.router.js';
import { pushRouter } from './modules/push/push.router.js';
import { reportsRouter } from './modules/reports/report.router.js';
import { repostsRouter } from './modules/reposts/repost.router.js';
import { safetyRouter } from './modules/safety/safety.router.js';
import { searchRouter } from './modules/search/search.router.js';
import { sessionsRouter } from './modules/sessions/sessions.router.js';
import { settingsRouter } from './modules/settings/settings.router.js';
import { tagsRouter } from './modules/tags/tag.router.js';
import { usersRouter } from './modules/users/user.router.js';
import { createCallerFactory, createTRPCRouter } from './trpc.js';

export const appRouter = createTRPCRouter({
  account: accountRouter,
  auth: authRouter,
  bookmarks: bookmarksRouter,
  polls: pollsRouter,
  comments: commentsRouter,
  cubey: cubeyRouter,
  follows: followsRouter,
  gallery: galleryRouter,
  health: healthRouter,
  linkCards: linkCardsRouter,
  mentions: mentionsRouter,
  messages: messagesRouter,
  moderation: moderationRouter,
  notifications: notificationsRouter,
  objects: objectsRouter,
  posts: postsRouter,
  reposts: repostsRouter,
  push: pushRouter,
  safety: safetyRouter,
  reports: reportsRouter,
  search: searchRouter,
  sessions: sessionsRouter,
  settings: settingsRouter,
  tags: tagsRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export const createCaller = createCallerFactory(appRouter);
