import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/** A login. Only the SHA-256 of the cookie token is stored, so a database leak yields no sessions. */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  indexes: [{ name: 'sessions_expires_at_index', properties: ['expiresAt'] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    tokenHash: p.string().length(64).unique(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    expiresAt: p.datetime(),
    lastSeenAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    userAgent: p.string().length(512).nullable(),
  },
});
export type ISession = InferEntity<typeof Session>;
