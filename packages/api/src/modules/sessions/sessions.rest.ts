/**
 * The sessions REST rows: each maps a method and path under /api to one of this module's procedures
 * (sessions.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const sessionsRest = [
  {
    method: 'GET',
    path: '/api/sessions',
    procedure: 'sessions.list',
    summary: 'Your active sessions: device, when it began and was last seen, and which one is this',
    auth: true,
  },
  {
    method: 'DELETE',
    path: '/api/sessions/:id',
    procedure: 'sessions.end',
    summary: 'End one of your sessions (its sockets close on every instance); ending this one logs you out',
    auth: true,
    params: { id: 'sessionId' },
  },
  {
    method: 'POST',
    path: '/api/sessions/end-others',
    procedure: 'sessions.endOthers',
    summary: 'Log out everywhere else: end every session but this one',
    auth: true,
  },
] as const satisfies readonly RestRowOf<'sessions'>[];
