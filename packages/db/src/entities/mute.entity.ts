import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * muter mutes muted: the muted member's posts leave the muter's feeds and their notifications
 * stop. Only the muter's reads change, so the muted member cannot tell.
 */
export const Mute = defineEntity({
  name: 'Mute',
  tableName: 'mutes',
  properties: {
    muter: () => p.manyToOne(User).primary().deleteRule('cascade'),
    muted: () => p.manyToOne(User).primary().deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IMute = InferEntity<typeof Mute>;
