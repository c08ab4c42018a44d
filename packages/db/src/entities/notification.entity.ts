import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Comment } from './comment.entity.js';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

export const NOTIFICATION_TYPES = [
  'like',
  'comment',
  'follow',
  'removal',
  'mention',
  'repost',
  'quote',
  'poll_ended',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * Something another user did to the recipient: liked, reposted or commented on their post, mentioned
 * or followed them, or (a moderator) removed their content. Partial unique indexes keep one 'like'
 * and one 'repost' per (actor, post) and one 'follow' per (actor, recipient).
 */
export const Notification = defineEntity({
  name: 'Notification',
  tableName: 'notifications',
  uniques: [
    {
      name: 'notifications_like_unique',
      expression:
        'create unique index "notifications_like_unique" on "notifications" ("actor_id", "post_id") where "type" = \'like\'',
    },
    {
      name: 'notifications_repost_unique',
      expression:
        'create unique index "notifications_repost_unique" on "notifications" ("actor_id", "post_id") where "type" = \'repost\'',
    },
    {
      name: 'notifications_follow_unique',
      expression:
        'create unique index "notifications_follow_unique" on "notifications" ("actor_id", "recipient_id") where "type" = \'follow\'',
    },
    {
      name: 'notifications_post_mention_unique',
      expression:
        'create unique index "notifications_post_mention_unique" on "notifications" ("actor_id", "recipient_id", "post_id") where "type" = \'mention\' and "comment_id" is null',
    },
    {
      name: 'notifications_poll_ended_unique',
      expression:
        'create unique index "notifications_poll_ended_unique" on "notifications" ("recipient_id", "post_id") where "type" = \'poll_ended\'',
    },
    {
      name: 'notifications_comment_mention_unique',
      expression:
        'create unique index "notifications_comment_mention_unique" on "notifications" ("recipient_id", "comment_id") where "type" = \'mention\' and "comment_id" is not null',
    },
  ],
  indexes: [
    {
      name: 'notifications_recipient_created_at_id_index',
      expression:
        'create index "notifications_recipient_created_at_id_index" on "notifications" ("recipient_id", "created_at" desc, "id" desc)',
    },
    {
      name: 'notifications_recipient_unread_index',
      expression:
        'create index "notifications_recipient_unread_index" on "notifications" ("recipient_id") where "read_at" is null',
    },
    {
      name: 'notifications_recipient_group_index',
      expression:
        'create index "notifications_recipient_group_index" on "notifications" ("recipient_id", "group_key", "created_at" desc, "id" desc) where "group_key" is not null',
    },
    { name: 'notifications_post_id_index', properties: ['post'] },
    { name: 'notifications_actor_id_index', properties: ['actor'] },
    {
      name: 'notifications_comment_id_index',
      expression:
        'create index "notifications_comment_id_index" on "notifications" ("comment_id") where "comment_id" is not null',
    },
  ],
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [
    {
      // The author hears of their own poll's end from themself.
      name: 'notifications_not_self_check',
      expression: "(recipient_id <> actor_id) OR ((type)::text = 'poll_ended'::text)",
    },
    {
      name: 'notifications_post_check',
      expression: "type = 'removal' or ((type = 'follow') = (post_id is null))",
    },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    recipient: () => p.manyToOne(User).deleteRule('cascade'),
    actor: () => p.manyToOne(User).deleteRule('cascade'),
    type: p.enum([...NOTIFICATION_TYPES]).columnType('varchar(16)'),
    post: () => p.manyToOne(Post).nullable().deleteRule('cascade'),
    /** the comment a 'comment' notification is about: deleting the comment takes it back */
    comment: () => p.manyToOne(Comment).nullable().deleteRule('cascade'),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    readAt: p.datetime().nullable(),
    /** 'removal' only: what was removed and why (the actor is the moderator, never shown). */
    note: p.text().nullable(),
    /**
     * Likes and reposts of one post, and follows, on the same UTC day share a key and show as one
     * item (`like:<postId>:<yyyy-mm-dd>`, `follow:<yyyy-mm-dd>`); null for the kinds shown one each.
     */
    groupKey: p.string().length(80).nullable(),
  },
});
export type INotification = InferEntity<typeof Notification>;
