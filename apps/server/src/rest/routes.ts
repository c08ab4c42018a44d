/** DESIGN.md's REST contract: one row per path, each naming the procedure it calls. */
import type { RestRoute } from './adapter.js';

export const restRoutes = [
  { method: 'POST', path: '/api/auth/register', procedure: 'auth.register', status: 201 },
  { method: 'POST', path: '/api/auth/login', procedure: 'auth.login' },
  { method: 'GET', path: '/api/auth/me', procedure: 'auth.me' },
  { method: 'POST', path: '/api/auth/logout', procedure: 'auth.logout' },
  {
    method: 'GET',
    path: '/api/health',
    procedure: 'health.check',
    output: (result: { ok: boolean; db: boolean }, reply) => {
      if (!result.ok) reply.status(503);
      return result;
    },
  },
] as const satisfies readonly RestRoute[];
