import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

/**
 * A member passes a post on to their followers, at most once: the pair is the primary key. The
 * (user, created_at desc, post) index serves a member's reposts newest first (their profile, and
 * each followee's in the Following feed); the (created_at desc, post) one the Following feed's
 * walk over everyone's; the post's own look-ups (which followees reposted it) the primary key's
 * reverse, (post, user).
 */
export const Repost = defineEntity({
  name: 'Repost',
  tableName: 'reposts',
  indexes: [
    {
      name: 'reposts_post_user_index',
      expression: 'create index "reposts_post_user_index" on "reposts" ("post_id", "user_id")',
    },
    {
      name: 'reposts_user_created_at_index',
      expression:
        'create index "reposts_user_created_at_index" on "reposts" ("user_id", "created_at" desc, "post_id" desc)',
    },
    {
      name: 'reposts_created_at_index',
      expression:
        'create index "reposts_created_at_index" on "reposts" ("created_at" desc, "post_id" desc) include ("user_id")',
    },
  ],
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IRepost = InferEntity<typeof Repost>;
