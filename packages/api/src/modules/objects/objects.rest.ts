/**
 * The objects REST rows: each maps a method and path under /api to one of this module's procedures
 * (objects.router.ts) and says where its input comes from; the answer is the procedure's
 * `.output()`. src/rest.ts collects them for the server's REST adapter and OpenAPI document;
 * docs/api.md has the conventions.
 */
import type { RestRowOf } from '../../rest-rows.js';

export const objectsRest = [
  {
    method: 'POST',
    path: '/api/objects/upload',
    procedure: 'objects.createUploadUrl',
    summary: 'A signed URL to PUT one image to, valid 15 minutes',
    auth: true,
  },
  {
    method: 'PUT',
    path: '/api/objects/set-acl',
    procedure: 'objects.setAcl',
    summary: 'Publish an upload: checked to be a PNG, JPEG, GIF or WebP of at most 5 MB, then re-encoded',
    auth: true,
    body: true,
    errors: [404, 409],
  },
] as const satisfies readonly RestRowOf<'objects'>[];
