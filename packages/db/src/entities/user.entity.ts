import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { MessagesFrom } from './direct-message.entity.js';

export const USER_ROLES = ['member', 'moderator'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Whether a member with this role may use /moderation (the one place that says which role does). */
export function isModeratorRole(role: string | null | undefined): boolean {
  return role === 'moderator';
}

/** A member. Username and email are unique regardless of case (functional indexes in the migration). */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    username: p.string().length(30),
    displayName: p.string().length(50),
    email: p.string().length(254),
    passwordHash: p.string().length(255).hidden(),
    bio: p.text().nullable(),
    avatarUrl: p.text().nullable(),
    headerUrl: p.text().nullable(),
    emailVisible: p.boolean().default(false),
    messagesFrom: p.string().length(16).$type<MessagesFrom>().default('everyone'),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** Set when the member deleted their account; the row is then a nameless tombstone. */
    deletedAt: p.datetime().nullable(),
    /** 'moderator' is granted only by the operator command (`npm run admin -- make-moderator`). */
    role: p.string().length(16).$type<UserRole>().default('member'),
    /** Suspended since then; until `suspendedUntil`, or for ever when that is null. */
    suspendedAt: p.datetime().nullable(),
    suspendedUntil: p.datetime().nullable(),
  },
});
export type IUser = InferEntity<typeof User>;
