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
  indexes: [{ name: 'blocks_blocked_index', properties: ['blocked', 'blocker'] }],
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [{ name: 'blocks_not_self_check', expression: 'blocker_id <> blocked_id' }],
  properties: {
    blocker: () => p.manyToOne(User).primary().deleteRule('cascade'),
    blocked: () => p.manyToOne(User).primary().deleteRule('cascade'),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IBlock = InferEntity<typeof Block>;
