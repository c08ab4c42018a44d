import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * A member's one pending e-mail change (a new request replaces it): the new address and the hash
 * of the code mailed to it. users.email changes only when the code is entered.
 */
export const EmailChange = defineEntity({
  name: 'EmailChange',
  tableName: 'email_changes',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade').unique(),
    newEmail: p.string().length(254),
    codeHash: p.string().length(64),
    expiresAt: p.datetime(),
    attempts: p.integer().default(0),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IEmailChange = InferEntity<typeof EmailChange>;
