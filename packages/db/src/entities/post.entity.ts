import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * A post in the feed. likesCount and commentsCount are denormalised counters, changed in the same
 * transaction as the Like or Comment row they count.
 */
export const Post = defineEntity({
  name: 'Post',
  tableName: 'posts',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    author: () => p.manyToOne(User).deleteRule('cascade'),
    content: p.text(),
    imageUrl: p.text().nullable(),
    likesCount: p.integer().default(0),
    commentsCount: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** when the author last edited it; null if never */
    editedAt: p.datetime().nullable(),
    /** Set when a moderator removed it: hidden from every read, kept for the audit. */
    removedAt: p.datetime().nullable(),
  },
});
export type IPost = InferEntity<typeof Post>;
