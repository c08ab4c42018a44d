/**
 * The health REST rows: each maps a method and path under /api to one of this module's procedures
 * (health.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const healthRest = [
  {
    method: 'GET',
    path: '/api/health',
    procedure: 'health.check',
    summary: 'Liveness: the process answers (nothing is looked up)',
  },
  {
    method: 'GET',
    path: '/api/ready',
    procedure: 'health.ready',
    summary:
      'Readiness: the database answers, the event bus listens, migrations are done and the server is not shutting down (503 with the failed checks when not)',
    unavailableUnless: 'ready',
  },
] as const satisfies readonly RestRowOf<'health'>[];
