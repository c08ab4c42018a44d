/**
 * The cubey REST rows: each maps a method and path under /api to one of this module's procedures
 * (cubey.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const cubeyRest = [
  {
    method: 'GET',
    path: '/api/cubey/sessions',
    procedure: 'cubey.sessions',
    summary: 'The caller’s chats with Cubey, most recently active first',
    auth: true,
  },
  {
    method: 'GET',
    path: '/api/cubey/sessions/:id/messages',
    procedure: 'cubey.messages',
    summary: 'A chat’s messages, oldest first; an answer still streaming holds the part saved so far',
    auth: true,
    params: { id: 'sessionId' },
  },
  {
    method: 'POST',
    path: '/api/cubey/chat',
    procedure: 'cubey.chat',
    summary: 'Ask Cubey (in a new chat unless sessionId is given); answers once the whole reply is there',
    auth: true,
    body: true,
    errors: [404, 409, 502],
  },
  {
    method: 'GET',
    path: '/api/cubey/setup',
    procedure: 'cubey.setup',
    summary:
      'What the Cubes page’s tools have here: Cubey on a model or as the offline assistant, and whether media generation is set up',
  },
  {
    method: 'GET',
    path: '/api/cubey/usage',
    procedure: 'cubey.usage',
    summary: 'The caller’s Cubey tokens today, the daily limit (null: none), what is left and when it resets',
    auth: true,
  },
  {
    method: 'GET',
    path: '/api/cubey/search',
    procedure: 'cubey.search',
    summary: 'Your chats whose title or messages hold the words of `query`, most recently active first',
    auth: true,
    query: ['query'],
  },
  {
    method: 'PATCH',
    path: '/api/cubey/sessions/:id',
    procedure: 'cubey.rename',
    summary: 'Rename one of your chats',
    auth: true,
    params: { id: 'sessionId' },
    body: true,
    errors: [404],
  },
  {
    method: 'DELETE',
    path: '/api/cubey/sessions/:id',
    procedure: 'cubey.delete',
    summary: 'Delete one of your chats; POST …/restore brings it back within an hour',
    auth: true,
    params: { id: 'sessionId' },
    errors: [404],
  },
  {
    method: 'POST',
    path: '/api/cubey/sessions/:id/restore',
    procedure: 'cubey.restore',
    summary: 'Undo the delete of one of your chats',
    auth: true,
    params: { id: 'sessionId' },
    errors: [404],
  },
  {
    method: 'PUT',
    path: '/api/cubey/messages/:id',
    procedure: 'cubey.edit',
    summary:
      'Edit your last message of a chat and resend it: a new answer replaces the one after it, the earlier version is kept',
    auth: true,
    params: { id: 'messageId' },
    body: true,
    errors: [404, 409],
  },
  {
    method: 'POST',
    path: '/api/cubey/messages/:id/show',
    procedure: 'cubey.switchVersion',
    summary: 'Show this version of your edited last message, with its answer; the chat’s messages after',
    auth: true,
    params: { id: 'messageId' },
    errors: [404, 409],
  },
] as const satisfies readonly RestRowOf<'cubey'>[];
