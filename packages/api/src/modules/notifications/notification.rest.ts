/**
 * The notifications REST rows: each maps a method and path under /api to one of this module's procedures
 * (notification.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const notificationsRest = [
  {
    method: 'GET',
    path: '/api/notifications',
    procedure: 'notifications.list',
    summary: 'The caller’s notifications, newest first',
    auth: true,
  },
  {
    method: 'GET',
    path: '/api/notifications/unread-count',
    procedure: 'notifications.unreadCount',
    summary: 'How many of the caller’s notifications are unread',
    auth: true,
  },
  {
    method: 'POST',
    path: '/api/notifications/mark-all-read',
    procedure: 'notifications.markAllRead',
    summary: 'Mark every notification read',
    auth: true,
  },
  {
    method: 'GET',
    path: '/api/notifications/page',
    procedure: 'notifications.page',
    summary:
      'The caller’s notifications, newest first, keyset-paged like the feed; filter=mentions shows mentions only',
    auth: true,
    query: ['cursor', 'limit', 'filter'],
    paged: true,
  },
  {
    method: 'POST',
    path: '/api/notifications/:id/read',
    procedure: 'notifications.markRead',
    summary:
      'Mark one notification read (it was opened), with every notification of its group; updated is 0 when all were read already',
    auth: true,
    params: { id: 'id' },
    errors: [404],
  },
  {
    method: 'GET',
    path: '/api/notifications/:id/actors',
    procedure: 'notifications.groupActors',
    summary: 'Everyone in the group of one of the caller’s notifications, newest first, keyset-paged',
    auth: true,
    params: { id: 'id' },
    query: ['cursor', 'limit'],
    paged: true,
    errors: [404],
  },
] as const satisfies readonly RestRowOf<'notifications'>[];
