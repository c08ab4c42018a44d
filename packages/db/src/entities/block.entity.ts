import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * blocker blocks blocked: neither sees the other's posts, comments or profile details, and the
 * blocked member cannot follow, message, like or comment on the blocker's posts. The pair is the
 * primary key; a check forbids blocking oneself.
 */
export const Block = defineEntity({
  name: 'Block',
  tableName: 'blocks',
  properties: {
    blocker: () => p.manyToOne(User).primary().deleteRule('cascade'),
    blocked: () => p.manyToOne(User).primary().deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IBlock = InferEntity<typeof Block>;
