/** Cubey's rows as answers: a chat session and a message with its look-ups. */
import type { MessageRow, SessionRow } from './cubey.repository.js';
import type { ChatMessage, ChatSession, CubeyLookup } from './cubey.schema.js';

const iso = (text: string) => new Date(text).toISOString();

export const toSession = (r: SessionRow): ChatSession => ({
  id: r.id,
  title: r.title,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export const lookupsOf = (row: MessageRow): CubeyLookup[] =>
  Array.isArray(row.lookups) ? (row.lookups as CubeyLookup[]) : [];

export const toMessage = (r: MessageRow): ChatMessage => ({
  id: r.id,
  role: r.role,
  content: r.content,
  status: r.status,
  error: r.error,
  createdAt: iso(r.created_at),
  lookups: lookupsOf(r),
});
