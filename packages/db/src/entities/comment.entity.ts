import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

/** A comment under a post; the post's commentsCount counts these. */
export const Comment = defineEntity({
  name: 'Comment',
  tableName: 'comments',
  indexes: [
    { name: 'comments_post_id_created_at_index', properties: ['post', 'createdAt', 'id'] },
    { name: 'comments_author_id_index', properties: ['author'] },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    post: () => p.manyToOne(Post).deleteRule('cascade'),
    author: () => p.manyToOne(User).deleteRule('cascade'),
    content: p.text(),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    /** Set when a moderator removed it: hidden from every read, kept for the audit. */
    removedAt: p.datetime().nullable(),
  },
});
export type IComment = InferEntity<typeof Comment>;
