import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * A direct message from one member to another. `clientId` is the sender's own id for a send, so
 * a retried send is stored once (unique per sender); `readAt` is set when the receiver opens the
 * thread. The indexes serve the thread in both directions, the conversations list and the
 * unread counts.
 */
export const DirectMessage = defineEntity({
  name: 'DirectMessage',
  tableName: 'direct_messages',
  uniques: [
    {
      name: 'direct_messages_client_id_unique',
      expression:
        'create unique index "direct_messages_client_id_unique" on "direct_messages" ("sender_id", "client_id") where "client_id" is not null',
    },
  ],
  indexes: [
    {
      name: 'direct_messages_pair_index',
      expression:
        'create index "direct_messages_pair_index" on "direct_messages" ("sender_id", "receiver_id", "created_at" desc, "id" desc)',
    },
    { name: 'direct_messages_sender_index', properties: ['sender', 'createdAt', 'id'] },
    { name: 'direct_messages_receiver_index', properties: ['receiver', 'createdAt', 'id'] },
    {
      name: 'direct_messages_unread_index',
      expression:
        'create index "direct_messages_unread_index" on "direct_messages" ("receiver_id", "sender_id") where "read_at" is null',
    },
    {
      name: 'direct_messages_read_index',
      expression:
        'create index "direct_messages_read_index" on "direct_messages" ("sender_id", "read_at") where "read_at" is not null',
    },
  ],
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [{ name: 'direct_messages_not_self_check', expression: 'sender_id <> receiver_id' }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    sender: () => p.manyToOne(User).deleteRule('cascade'),
    receiver: () => p.manyToOne(User).deleteRule('cascade'),
    content: p.text(),
    clientId: p.string().length(64).nullable(),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    readAt: p.datetime().nullable(),
    /** Set when a moderator removed it: hidden from every read, kept for the audit. */
    removedAt: p.datetime().nullable(),
  },
});
export type IDirectMessage = InferEntity<typeof DirectMessage>;
