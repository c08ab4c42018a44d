import { AccountExport } from './account-export.entity.js';
import { AiMedia } from './ai-media.entity.js';
import { Block } from './block.entity.js';
import { Bookmark } from './bookmark.entity.js';
import { ChatMessage } from './chat-message.entity.js';
import { ChatSession } from './chat-session.entity.js';
import { Comment } from './comment.entity.js';
import { CubeyUsage } from './cubey-usage.entity.js';
import { DirectMessage } from './direct-message.entity.js';
import { EmailChange } from './email-change.entity.js';
import { Favorite } from './favorite.entity.js';
import { Follow } from './follow.entity.js';
import { HeldUsername } from './held-username.entity.js';
import { Like } from './like.entity.js';
import { LinkPreview, PostLink } from './link-card.entity.js';
import { CommentMention, PostMention } from './mention.entity.js';
import { ModerationAction } from './moderation-action.entity.js';
import { Mute } from './mute.entity.js';
import { Notification } from './notification.entity.js';
import { PasswordReset } from './password-reset.entity.js';
import { Poll, PollVote } from './poll.entity.js';
import { Post } from './post.entity.js';
import { PostRevision } from './post-revision.entity.js';
import { PostTag } from './post-tag.entity.js';
import { PushDelivery, PushPreference, PushSubscription } from './push.entity.js';
import { Report } from './report.entity.js';
import { Repost } from './repost.entity.js';
import { Session } from './session.entity.js';
import { UploadedObject } from './uploaded-object.entity.js';
import { User } from './user.entity.js';

export * from './account-export.entity.js';
export * from './ai-media.entity.js';
export * from './block.entity.js';
export * from './bookmark.entity.js';
export * from './chat-message.entity.js';
export * from './chat-session.entity.js';
export * from './comment.entity.js';
export * from './cubey-usage.entity.js';
export * from './direct-message.entity.js';
export * from './email-change.entity.js';
export * from './favorite.entity.js';
export * from './follow.entity.js';
export * from './held-username.entity.js';
export * from './like.entity.js';
export * from './link-card.entity.js';
export * from './mention.entity.js';
export * from './moderation-action.entity.js';
export * from './mute.entity.js';
export * from './notification.entity.js';
export * from './password-reset.entity.js';
export * from './poll.entity.js';
export * from './post.entity.js';
export * from './post-revision.entity.js';
export * from './post-tag.entity.js';
export * from './push.entity.js';
export * from './report.entity.js';
export * from './repost.entity.js';
export * from './session.entity.js';
export * from './uploaded-object.entity.js';
export * from './user.entity.js';

/** Every entity, listed explicitly (no folder scanning at start-up). */
export const entities = [
  User,
  Session,
  PasswordReset,
  EmailChange,
  Post,
  Like,
  Comment,
  Follow,
  Notification,
  UploadedObject,
  AiMedia,
  Favorite,
  ChatSession,
  ChatMessage,
  CubeyUsage,
  DirectMessage,
  PostRevision,
  Block,
  Mute,
  Report,
  ModerationAction,
  AccountExport,
  HeldUsername,
  PushSubscription,
  PushPreference,
  PushDelivery,
  PostTag,
  PostMention,
  CommentMention,
  Bookmark,
  Repost,
  LinkPreview,
  PostLink,
  Poll,
  PollVote,
];
