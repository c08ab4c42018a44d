import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * muter mutes muted: the muted member's posts leave the muter's feeds and their notifications
 * stop. Only the muter's reads change, so the muted member cannot tell.
 */
export const Mute = defineEntity({
  name: 'Mute',
  tableName: 'mutes',
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [{ name: 'mutes_not_self_check', expression: 'muter_id <> muted_id' }],
  properties: {
    muter: () => p.manyToOne(User).primary().deleteRule('cascade'),
    muted: () => p.manyToOne(User).primary().deleteRule('cascade'),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IMute = InferEntity<typeof Mute>;
