/**
 * Object routes outside the JSON API:
 * - PUT /api/objects/put/<key>?expires&sig — the local driver's signed upload URL. The body is
 *   streamed to disk (never buffered, never through the JSON parser) and refused past 5 MB.
 * - GET /objects/<key> (and /objects/<key>/thumb or ?thumb=1) — public objects, cached for a
 *   year: keys are never reused and public objects never change. Private, unknown and malformed
 *   keys are all 404 alike.
 */
import { findPublicObject } from '@cubes/api';
import { UploadedObject } from '@cubes/db';
import {
  isLocalStorage,
  isValidKey,
  LOCAL_UPLOAD_PATH,
  MAX_OBJECT_BYTES,
  type StorageDriver,
  UploadTooLargeError,
} from '@cubes/storage';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../errors.js';

export const UPLOAD_URL_INVALID = 'Upload URL is invalid or expired';
export const UPLOAD_TOO_LARGE = 'File is larger than 5 MB';
const OBJECT_NOT_FOUND = 'Object not found';

function wildcard(req: FastifyRequest): string {
  return (req.params as Record<string, string | undefined>)['*'] ?? '';
}

function tooLarge(reply: FastifyReply): FastifyReply {
  // The rest of the body is not read: close the connection after answering.
  reply.header('connection', 'close');
  return sendError(reply, 413, { message: UPLOAD_TOO_LARGE, code: 'PAYLOAD_TOO_LARGE' });
}

export function registerObjects(app: FastifyInstance, storage: StorageDriver): void {
  if (isLocalStorage(storage)) {
    const local = storage;
    // Not awaited: awaiting would load plugins now, before buildApp sets its error handler.
    void app.register(async (scope) => {
      // The body stays a stream (request.raw) for the handler: no parser reads it.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req, _payload, done) => done(null));

      scope.put(`${LOCAL_UPLOAD_PATH}*`, async (req, reply) => {
        const key = wildcard(req);
        const { expires, sig } = req.query as Record<string, string | undefined>;
        if (!local.verifyUploadUrl(key, expires, sig)) {
          return sendError(reply, 403, { message: UPLOAD_URL_INVALID, code: 'FORBIDDEN' });
        }
        // Only keys handed out with an upload URL, and only until set-acl made them public.
        const row = await req.em.findOne(UploadedObject, { key });
        if (row?.visibility !== 'private') {
          return sendError(reply, 403, { message: UPLOAD_URL_INVALID, code: 'FORBIDDEN' });
        }
        const declared = Number(req.headers['content-length'] ?? 0);
        if (declared > MAX_OBJECT_BYTES) return tooLarge(reply);
        let size: number;
        try {
          size = await local.receive(key, req.raw, MAX_OBJECT_BYTES);
        } catch (error) {
          if (error instanceof UploadTooLargeError) return tooLarge(reply);
          throw error;
        }
        const type = req.headers['content-type'];
        row.size = size;
        row.contentType = typeof type === 'string' ? type.slice(0, 100) : null;
        await req.em.flush();
        return reply.status(200).send({ key, size });
      });
    });
  }

  app.get('/objects/*', async (req, reply) => {
    let key = wildcard(req);
    let thumb = (req.query as Record<string, unknown>).thumb === '1';
    if (key.endsWith('/thumb')) {
      key = key.slice(0, -'/thumb'.length);
      thumb = true;
    }
    const row = isValidKey(key) ? await findPublicObject(req.em, key) : null;
    const objectKey = row ? (thumb ? row.thumbKey : row.key) : null;
    const stat = objectKey ? await storage.stat(objectKey) : null;
    if (!row || !objectKey || !stat) {
      return sendError(reply, 404, { message: OBJECT_NOT_FOUND, code: 'NOT_FOUND' });
    }
    reply
      .header('etag', stat.etag)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-type', row.contentType ?? 'application/octet-stream');
    const match = req.headers['if-none-match'];
    if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === stat.etag)) {
      return reply.status(304).send();
    }
    reply.header('content-length', String(stat.size));
    return reply.send(await storage.createReadStream(objectKey));
  });
}
