/**
 * The settings REST rows: each maps a method and path under /api to one of this module's procedures
 * (settings.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const settingsRest = [
  {
    method: 'GET',
    path: '/api/settings',
    procedure: 'settings.get',
    summary: 'The caller’s own settings',
    auth: true,
  },
  {
    method: 'PUT',
    path: '/api/settings',
    procedure: 'settings.update',
    summary: 'Change profile settings; a field left out is left unchanged',
    auth: true,
    body: true,
  },
  {
    method: 'POST',
    path: '/api/settings/password',
    procedure: 'settings.changePassword',
    summary: 'Change the password; other sessions are logged out',
    auth: true,
    body: true,
  },
  {
    method: 'POST',
    path: '/api/settings/email',
    procedure: 'settings.changeEmail',
    summary:
      'Ask to change the e-mail address (needs the password): mails a 6-digit code to the new address, which changes nothing until confirmed; the same answer whether or not the address is free',
    auth: true,
    body: true,
    status: 202,
  },
  {
    method: 'POST',
    path: '/api/settings/email/confirm',
    procedure: 'settings.confirmEmailChange',
    summary:
      'Confirm an e-mail change with the code mailed to the new address; other sessions are logged out (409 if another account took the address meanwhile)',
    auth: true,
    body: true,
    errors: [409],
  },
] as const satisfies readonly RestRowOf<'settings'>[];
