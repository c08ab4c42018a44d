/**
 * GET /exports/<id> — a member's "Download my data" zip, for its owner's session only (anyone
 * else's export, an unfinished one and an unknown id are 404 alike). Outside /api: it answers a
 * file, not JSON. Never cached.
 */
import { findExportDownload } from '@cubes/api';
import { ERROR_REASONS } from '@cubes/api/error-reasons';
import type { StorageDriver } from '@cubes/storage';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../errors.js';

export const EXPORTS_PATH = '/exports/';
const EXPORT_NOT_FOUND = ERROR_REASONS.EXPORT_NOT_FOUND;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerExports(app: FastifyInstance, storage: StorageDriver): void {
  app.get(`${EXPORTS_PATH}:id`, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    if (!req.session) {
      return sendError(reply, 401, { message: ERROR_REASONS.LOGIN_REQUIRED, code: 'UNAUTHORIZED' });
    }
    const { id } = req.params as { id: string };
    const found = UUID.test(id)
      ? await findExportDownload(req.em, req.session.user.id, id.toLowerCase())
      : null;
    const stat = found ? await storage.stat(found.objectKey) : null;
    if (!found || !stat) return sendError(reply, 404, { message: EXPORT_NOT_FOUND, code: 'NOT_FOUND' });
    const day = found.finishedAt.toISOString().slice(0, 10);
    return reply
      .type('application/zip')
      .header('content-length', stat.size)
      .header('content-disposition', `attachment; filename="cubes-data-${found.username}-${day}.zip"`)
      .send(await storage.createReadStream(found.objectKey));
  });
}
