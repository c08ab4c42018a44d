/**
 * Object routes outside the JSON API:
 * - PUT /api/objects/put/incoming/<id>?expires&sig — the local driver's signed upload URL. The
 *   body is streamed to disk (never buffered, never through the JSON parser) and refused past
 *   5 MB. It lands under `incoming/`, which is never served. The URL takes one completed PUT,
 *   one at a time, and none once set-acl has claimed the upload: the row's upload state, which
 *   objects.service.ts#receiveUpload moves; this route only hands it the body and answers its
 *   outcome with a status. The client's Content-Type is never recorded.
 * - GET /objects/<key> (and /objects/<key>/thumb or ?thumb=1) — public objects, which set-acl
 *   re-encoded and wrote itself, cached for a year: keys are never reused and public objects
 *   never change. Private, unknown and malformed keys are all 404 alike. Everything under
 *   /objects/ goes out with nosniff and a sandboxing CSP of its own; the type is one of the four
 *   image types set-acl writes (shown inline) or else application/octet-stream, as an attachment.
 */
import { findPublicObject, receiveUpload, thumbContentType, type UploadOutcome } from '@cubes/api';
import { ERROR_REASONS } from '@cubes/api/error-reasons';
import {
  isImageType,
  isLocalStorage,
  isValidKey,
  LOCAL_UPLOAD_PATH,
  type StorageDriver,
} from '@cubes/storage';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorBody, sendError } from '../errors.js';

export const UPLOAD_URL_INVALID = ERROR_REASONS.UPLOAD_URL_INVALID;
export const UPLOAD_URL_USED = ERROR_REASONS.UPLOAD_URL_USED;
export const UPLOAD_BUSY = ERROR_REASONS.UPLOAD_BUSY;
export const UPLOAD_INTERRUPTED = ERROR_REASONS.UPLOAD_INTERRUPTED;
export const UPLOAD_TOO_LARGE = ERROR_REASONS.UPLOAD_TOO_LARGE;
const OBJECT_NOT_FOUND = ERROR_REASONS.OBJECT_NOT_FOUND;

/** The headers of every answer under /objects/, whatever the page's own policy says. */
export const OBJECT_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
} as const;
const OBJECTS_PREFIX = '/objects/';

function wildcard(req: FastifyRequest): string {
  return (req.params as Record<string, string | undefined>)['*'] ?? '';
}

/** An answer sent before the body was read: the connection closes after it. */
function refuse(reply: FastifyReply, status: number, message: string, code: ErrorBody['code']): FastifyReply {
  reply.header('connection', 'close');
  return sendError(reply, status, { message, code });
}

/** The status of each upload outcome (objects.service.ts#receiveUpload). */
function answerUpload(reply: FastifyReply, received: UploadOutcome): FastifyReply {
  switch (received.outcome) {
    case 'received':
      return reply.status(200).send({ key: received.key, size: received.size });
    case 'invalid':
      return refuse(reply, 403, UPLOAD_URL_INVALID, 'FORBIDDEN');
    case 'used':
      return refuse(reply, 403, UPLOAD_URL_USED, 'FORBIDDEN');
    case 'busy':
      return refuse(reply, 409, UPLOAD_BUSY, 'CONFLICT');
    case 'tooLarge':
      return refuse(reply, 413, UPLOAD_TOO_LARGE, 'PAYLOAD_TOO_LARGE');
    // The body was read (or its sender left): the connection may stay.
    case 'interrupted':
      return sendError(reply, 400, { message: UPLOAD_INTERRUPTED, code: 'BAD_REQUEST' });
    case 'gone':
      return sendError(reply, 403, { message: UPLOAD_URL_INVALID, code: 'FORBIDDEN' });
  }
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
        const { expires, sig } = req.query as Record<string, string | undefined>;
        const received = await receiveUpload(req.em, local, {
          incoming: wildcard(req),
          expires,
          sig,
          declaredBytes: Number(req.headers['content-length'] ?? 0),
          body: req.raw,
        });
        return answerUpload(reply, received);
      });
    });
  }

  // Every answer under /objects/ (404s and 304s too) carries these, over helmet's page policy.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.url.startsWith(OBJECTS_PREFIX)) reply.headers(OBJECT_HEADERS);
    done();
  });

  app.get(`${OBJECTS_PREFIX}*`, async (req, reply) => {
    reply.headers(OBJECT_HEADERS);
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
    // The type set-acl re-encoded to, never one a client sent; anything else is a download.
    // A thumbnail is WebP, or the image's type when made before thumbnails were (objects.image.ts).
    const image = !isImageType(row.contentType)
      ? null
      : thumb
        ? thumbContentType(objectKey, row.contentType)
        : row.contentType;
    reply
      .header('etag', stat.etag)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-type', image ?? 'application/octet-stream')
      .header('content-disposition', image ? 'inline' : 'attachment');
    const match = req.headers['if-none-match'];
    if (match?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === stat.etag)) {
      return reply.status(304).send();
    }
    reply.header('content-length', String(stat.size));
    return reply.send(await storage.createReadStream(objectKey));
  });
}
