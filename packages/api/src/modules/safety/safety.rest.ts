/**
 * The safety REST rows: each maps a method and path under /api to one of this module's procedures
 * (safety.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const safetyRest = [
  {
    method: 'POST',
    path: '/api/users/:id/block',
    procedure: 'safety.block',
    summary: 'Block a user (idempotent): neither sees the other, and follows between them end',
    auth: true,
    params: { id: 'userId' },
  },
  {
    method: 'DELETE',
    path: '/api/users/:id/block',
    procedure: 'safety.unblock',
    summary: 'Unblock a user (idempotent)',
    auth: true,
    params: { id: 'userId' },
  },
  {
    method: 'POST',
    path: '/api/users/:id/mute',
    procedure: 'safety.mute',
    summary: 'Mute a user (idempotent): their posts leave your feeds and their notifications stop',
    auth: true,
    params: { id: 'userId' },
  },
  {
    method: 'DELETE',
    path: '/api/users/:id/mute',
    procedure: 'safety.unmute',
    summary: 'Unmute a user (idempotent)',
    auth: true,
    params: { id: 'userId' },
  },
] as const satisfies readonly RestRowOf<'safety'>[];
