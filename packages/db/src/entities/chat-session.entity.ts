import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/** A conversation with Cubey, the AI assistant; only its owner ever sees it. */
export const ChatSession = defineEntity({
  name: 'ChatSession',
  tableName: 'chat_sessions',
  indexes: [
    {
      name: 'chat_sessions_owner_updated_at_index',
      expression:
        'create index "chat_sessions_owner_updated_at_index" on "chat_sessions" ("owner_id", "updated_at" desc, "id" desc)',
    },
    {
      name: 'chat_sessions_title_search_index',
      expression:
        'create index "chat_sessions_title_search_index" on "chat_sessions" using gin (to_tsvector(\'cubes_search\'::regconfig, "title"))',
    },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    title: p.string().length(120),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    /** Set when its owner deletes it: hidden everywhere, restorable (Undo) until it is purged. */
    deletedAt: p.datetime().nullable(),
  },
});
export type IChatSession = InferEntity<typeof ChatSession>;
