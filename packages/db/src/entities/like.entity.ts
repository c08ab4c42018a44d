import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

/** A user likes a post at most once: the pair is the primary key. */
export const Like = defineEntity({
  name: 'Like',
  tableName: 'likes',
  indexes: [{ name: 'likes_post_id_index', properties: ['post'] }],
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type ILike = InferEntity<typeof Like>;
