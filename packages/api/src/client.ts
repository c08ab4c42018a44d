/** Types and helpers for clients (the web app). Type-only imports of the server side. */

export type { CommentDto } from './modules/comments/comment.schema.js';
export type { FollowResult } from './modules/follows/follow.schema.js';
export type { NotificationDto } from './modules/notifications/notification.schema.js';
export type { LikeResult, PostDto, PostPage } from './modules/posts/post.schema.js';
export type { UserDto, UserProfile, UserStats } from './modules/users/user.schema.js';
export type { AppRouter, RouterInputs, RouterOutputs } from './root.js';
