import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/** Who may start a conversation with a member (their `messagesFrom` setting). */
export const MESSAGES_FROM = ['everyone', 'following', 'nobody'] as const;
export type MessagesFrom = (typeof MESSAGES_FROM)[number];

/**
 * A direct message from one member to another. `clientId` is the sender's own id for a send, so
 * a retried send is stored once (unique per sender); `readAt` is set when the receiver opens the
 * thread. The indexes (in the migration) serve the thread in both directions, the conversations
 * list and the unread counts.
 */
export const DirectMessage = defineEntity({
  name: 'DirectMessage',
  tableName: 'direct_messages',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    sender: () => p.manyToOne(User).deleteRule('cascade'),
    receiver: () => p.manyToOne(User).deleteRule('cascade'),
    content: p.text(),
    clientId: p.string().length(64).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    readAt: p.datetime().nullable(),
    /** Set when a moderator removed it: hidden from every read, kept for the audit. */
    removedAt: p.datetime().nullable(),
  },
});
export type IDirectMessage = InferEntity<typeof DirectMessage>;
