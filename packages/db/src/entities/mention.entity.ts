import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Comment } from './comment.entity.js';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

/**
 * A member an existing post mentions (`@username`, matched case-insensitively), at most
 * MENTIONS_MAX per post: the links post answers carry, and what an edit compares against so only
 * the newly mentioned are notified.
 */
export const PostMention = defineEntity({
  name: 'PostMention',
  tableName: 'post_mentions',
  indexes: [{ name: 'post_mentions_user_id_index', properties: ['user'] }],
  properties: {
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
  },
});
export type IPostMention = InferEntity<typeof PostMention>;

/** A member a comment mentions; as PostMention. */
export const CommentMention = defineEntity({
  name: 'CommentMention',
  tableName: 'comment_mentions',
  indexes: [{ name: 'comment_mentions_user_id_index', properties: ['user'] }],
  properties: {
    comment: () => p.manyToOne(Comment).primary().deleteRule('cascade'),
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
  },
});
export type ICommentMention = InferEntity<typeof CommentMention>;
