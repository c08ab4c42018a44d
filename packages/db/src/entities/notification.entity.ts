import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Comment } from './comment.entity.js';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

export const NOTIFICATION_TYPES = ['like', 'comment', 'follow', 'removal'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * Something another user did to the recipient: liked or commented on their post, followed them,
 * or (a moderator) removed their content.
 * Partial unique indexes keep one 'like' per (actor, post) and one 'follow' per (actor, recipient).
 */
export const Notification = defineEntity({
  name: 'Notification',
  tableName: 'notifications',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    recipient: () => p.manyToOne(User).deleteRule('cascade'),
    actor: () => p.manyToOne(User).deleteRule('cascade'),
    type: p.string().length(16).$type<NotificationType>(),
    post: () => p.manyToOne(Post).nullable().deleteRule('cascade'),
    /** the comment a 'comment' notification is about: deleting the comment takes it back */
    comment: () => p.manyToOne(Comment).nullable().deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
    readAt: p.datetime().nullable(),
    /** 'removal' only: what was removed and why (the actor is the moderator, never shown). */
    note: p.text().nullable(),
  },
});
export type INotification = InferEntity<typeof Notification>;
