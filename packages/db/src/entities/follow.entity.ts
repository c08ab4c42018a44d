import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/** follower follows followee; the pair is the primary key and a check forbids following oneself. */
export const Follow = defineEntity({
  name: 'Follow',
  tableName: 'follows',
  properties: {
    follower: () => p.manyToOne(User).primary().deleteRule('cascade'),
    followee: () => p.manyToOne(User).primary().deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IFollow = InferEntity<typeof Follow>;
