/**
 * The reports REST rows: each maps a method and path under /api to one of this module's procedures
 * (report.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const reportsRest = [
  {
    method: 'POST',
    path: '/api/reports',
    procedure: 'reports.create',
    summary: 'Report a post, comment, message (one you received) or member to the moderators',
    auth: true,
    body: true,
    status: 201,
    errors: [404, 409],
  },
] as const satisfies readonly RestRowOf<'reports'>[];
