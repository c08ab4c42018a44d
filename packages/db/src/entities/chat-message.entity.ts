import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { ChatSession } from './chat-session.entity.js';

export const CHAT_ROLES = ['user', 'assistant'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/**
 * How far an assistant answer got: `streaming` while the server generates it (its content is the
 * part saved so far), then `done`, `stopped` (someone pressed Stop; the partial answer stays) or
 * `failed` (the provider failed; `error` says why). A user's message is always `done`.
 */
export const CHAT_MESSAGE_STATUSES = ['streaming', 'done', 'stopped', 'failed'] as const;
export type ChatMessageStatus = (typeof CHAT_MESSAGE_STATUSES)[number];

/** One message of a Cubey conversation. */
export const ChatMessage = defineEntity({
  name: 'ChatMessage',
  tableName: 'chat_messages',
  indexes: [
    { name: 'chat_messages_session_created_at_index', properties: ['session', 'createdAt', 'id'] },
    {
      name: 'chat_messages_streaming_updated_at_index',
      expression:
        'create index "chat_messages_streaming_updated_at_index" on "chat_messages" ("updated_at") where "status" = \'streaming\'',
    },
    {
      name: 'chat_messages_content_search_index',
      expression:
        'create index "chat_messages_content_search_index" on "chat_messages" using gin (to_tsvector(\'cubes_search\'::regconfig, "content")) where "status" <> \'streaming\'',
    },
    {
      name: 'chat_messages_version_of_index',
      expression:
        'create index "chat_messages_version_of_index" on "chat_messages" ("version_of") where "version_of" is not null',
    },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    session: () => p.manyToOne(ChatSession).deleteRule('cascade'),
    role: p.enum([...CHAT_ROLES]).columnType('varchar(16)'),
    content: p.text(),
    status: p
      .enum([...CHAT_MESSAGE_STATUSES])
      .columnType('varchar(16)')
      .default('done'),
    error: p.text().nullable(),
    /** An answer's look-ups (Cubey's tools): what it searched and the sources it used, as JSON. */
    lookups: p.json<unknown[]>().columnType('jsonb').default('[]'),
    /**
     * A streaming answer's hold on its member's daily Cubey tokens: the estimate of its model
     * request in flight, until the provider's count replaces it (0 between requests). Counts only
     * while the answer streams, so an answer that ends or dies takes its hold with it.
     */
    reservedTokens: p.integer().default(0),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    /** An edited question: the id of its first version (the versions are switched between). */
    versionOf: p.uuid().nullable(),
    /** An answer: the question it answers. */
    replyTo: p.uuid().nullable(),
    /** A version (question and its answer) not shown now: kept to switch back to. */
    hidden: p.boolean().default(false),
    /** Touched while an answer streams (its heartbeat): a stale one was left by a dead instance. */
    updatedAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IChatMessage = InferEntity<typeof ChatMessage>;
