/** Types and helpers for clients (the web app). Type-only imports of the server side. */

export type { CommentDto } from './modules/comments/comment.service.js';
export type { FollowResult } from './modules/follows/follow.service.js';
export type { NotificationDto } from './modules/notifications/notification.schema.js';
export type { PostDto, PostPage } from './modules/posts/post.serializer.js';
export type { LikeResult } from './modules/posts/post.service.js';
export type { UserDto } from './modules/users/user.serializer.js';
export type { UserProfile, UserStats } from './modules/users/user.service.js';
export type { AppRouter, RouterInputs, RouterOutputs } from './root.js';
