/**
 * The account REST rows: each maps a method and path under /api to one of this module's procedures
 * (account.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const accountRest = [
  {
    method: 'GET',
    path: '/api/account/export',
    procedure: 'account.export',
    summary: 'The newest "Download my data" export and its progress (null before the first)',
    auth: true,
  },
  {
    method: 'POST',
    path: '/api/account/export',
    procedure: 'account.requestExport',
    summary:
      'Start building a zip of all your data in the background; download it from downloadUrl once done',
    auth: true,
    status: 202,
  },
  {
    method: 'POST',
    path: '/api/account/delete',
    procedure: 'account.delete',
    summary: 'Delete your account (needs the password); every session ends',
    auth: true,
    body: true,
  },
] as const satisfies readonly RestRowOf<'account'>[];
