import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/** follower follows followee; the pair is the primary key and a check forbids following oneself. */
export const Follow = defineEntity({
  name: 'Follow',
  tableName: 'follows',
  // Each side's list, most recent first (Migration20261128163000FollowListsByTime).
  indexes: [
    {
      name: 'follows_followee_created_at_index',
      expression:
        'create index "follows_followee_created_at_index" on "follows" ("followee_id", "created_at" desc, "follower_id" desc)',
    },
    {
      name: 'follows_follower_created_at_index',
      expression:
        'create index "follows_follower_created_at_index" on "follows" ("follower_id", "created_at" desc, "followee_id" desc)',
    },
  ],
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [{ name: 'follows_not_self_check', expression: 'follower_id <> followee_id' }],
  properties: {
    follower: () => p.manyToOne(User).primary().deleteRule('cascade'),
    followee: () => p.manyToOne(User).primary().deleteRule('cascade'),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IFollow = InferEntity<typeof Follow>;
