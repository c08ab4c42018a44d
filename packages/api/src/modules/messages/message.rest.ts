/**
 * The messages REST rows: each maps a method and path under /api to one of this module's procedures
 * (message.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const messagesRest = [
  {
    method: 'GET',
    path: '/api/messages/conversations',
    procedure: 'messages.conversations',
    summary: 'The caller’s conversations, newest first, with unread counts',
    auth: true,
  },
  {
    method: 'GET',
    path: '/api/messages/unread-count',
    procedure: 'messages.unreadCount',
    summary: 'How many direct messages to the caller are unread',
    auth: true,
  },
  {
    method: 'GET',
    path: '/api/messages/:userId',
    procedure: 'messages.thread',
    summary:
      'The thread with a user, oldest first; only reads (POST /api/messages/{userId}/read marks it read)',
    auth: true,
    params: { userId: 'userId' },
    query: ['cursor', 'limit'],
    paged: true,
    errors: [404],
  },
  {
    method: 'POST',
    path: '/api/messages',
    procedure: 'messages.send',
    summary: 'Send a direct message; a repeated clientId returns the first message',
    auth: true,
    body: true,
    status: 201,
    errors: [404, 409],
  },
  {
    method: 'POST',
    path: '/api/messages/:userId/read',
    procedure: 'messages.markRead',
    summary: 'Mark everything a user sent the caller read (their read receipt)',
    auth: true,
    params: { userId: 'userId' },
    errors: [404],
  },
] as const satisfies readonly RestRowOf<'messages'>[];
