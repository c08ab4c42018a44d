/**
 * The push REST rows: each maps a method and path under /api to one of this module's procedures
 * (push.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const pushRest = [
  {
    method: 'GET',
    path: '/api/push/key',
    procedure: 'push.key',
    summary: 'The server’s VAPID public key (base64url): the applicationServerKey for pushManager.subscribe',
  },
  {
    method: 'POST',
    path: '/api/push/subscriptions',
    procedure: 'push.subscribe',
    summary:
      'Save this browser’s push subscription (PushSubscription.toJSON()): https endpoints whose host resolves to public addresses only; 409 if another member registered the endpoint',
    auth: true,
    body: true,
    status: 201,
    errors: [409],
  },
  {
    method: 'DELETE',
    path: '/api/push/subscriptions',
    procedure: 'push.unsubscribe',
    summary: 'Remove this browser’s push subscription by its endpoint (idempotent)',
    auth: true,
    body: true,
  },
  {
    method: 'GET',
    path: '/api/push/preferences',
    procedure: 'push.preferences',
    summary: 'Which kinds reach you by push: likes, comments, follows, mentions, messages',
    auth: true,
  },
  {
    method: 'PATCH',
    path: '/api/push/preferences',
    procedure: 'push.updatePreferences',
    summary: 'Turn push on or off per kind; a kind left out is left unchanged',
    auth: true,
    body: true,
  },
] as const satisfies readonly RestRowOf<'push'>[];
