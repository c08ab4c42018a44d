/**
 * Compression of what the app answers itself: API answers (REST and tRPC over HTTP) and the
 * per-request index.html, in Brotli or gzip by the request's Accept-Encoding, when their text is
 * at least `threshold` bytes. A kept page's JSON (shared-json.ts) is compressed once and its
 * copies kept beside it. Left alone: built assets (the build wrote `.br`/`.gz` copies, which
 * @fastify/static sends as they are), streams (uploads in /objects, exports, tRPC's streamed
 * batches), types that are compressed already (images, zip) and every WebSocket.
 * A compressed answer says `vary: accept-encoding`; its ETag, if any, becomes weak, since the
 * bytes differ from the identity answer's. Levels: bench/README.md#compression.
 */

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { sharedEncoded } from '@cubes/api';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface CompressionOptions {
  /** Answers shorter than this (bytes) go as they are. Default 1024. */
  threshold?: number;
  /** Brotli quality for answers (0–11). Default 4. */
  brotliQuality?: number;
  /** gzip level (1–9). Default 6. */
  gzipLevel?: number;
}

type Coding = 'br' | 'gzip';

const COMPRESSIBLE =
  /^(?:text\/|application\/(?:json|javascript|xml|manifest\+json|[\w.-]+\+(?:json|xml))|image\/svg\+xml)/i;

/** Whether a content type is text worth compressing. */
export function compressible(type: unknown): boolean {
  return typeof type === 'string' && COMPRESSIBLE.test(type) && !type.startsWith('text/event-stream');
}

export function registerCompression(app: FastifyInstance, options: CompressionOptions = {}): void {
  const threshold = options.threshold ?? 1024;
  const brotliQuality = options.brotliQuality ?? 4;
  const gzipLevel = options.gzipLevel ?? 6;
  // Preference order when the client accepts both equally: Brotli is smaller at the same cost.
  const negotiator = new Negotiator<Coding>({ supportedValues: ['br', 'gzip'] });
  const encoders: Record<Coding, (bytes: Buffer) => Buffer> = {
    br: (bytes) =>
      brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    gzip: (bytes) => gzipSync(bytes, { level: gzipLevel }),
  };

  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode === 204 || reply.statusCode === 304 || reply.hasHeader('content-encoding')) {
      return payload;
    }
    let body: string | Buffer;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      if (!compressible(reply.getHeader('content-type'))) return payload;
      body = payload;
    } else if (payload instanceof Response) {
      // tRPC over HTTP answers with a fetch Response. Its JSON is read here and sent as bytes;
      // streamed batches (application/jsonl asked for) and anything but JSON stay as they are.
      const type = payload.headers.get('content-type');
      if (!type?.startsWith('application/json') || payload.body === null) return payload;
      if (streamed(req.headers['trpc-accept'], req.headers.accept)) return payload;
      if (!req.headers['accept-encoding']) {
        payload.headers.append('vary', 'accept-encoding');
        return payload;
      }
      reply.code(payload.status);
      payload.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      body = Buffer.from(await payload.arrayBuffer());
    } else {
      return payload; // a stream (a file, an upload, an export) or nothing
    }
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    if (size < threshold) return body;
    varyOnEncoding(reply);
    const accepted = req.headers['accept-encoding'];
    const coding = accepted ? negotiator.negotiate(accepted) : null;
    if (coding === null) return body;
    const encode = encoders[coding];
    const bytes =
      typeof body === 'string'
        ? encode(Buffer.from(body))
        : (sharedEncoded(body, coding, encode) ?? encode(body));
    reply.header('content-encoding', coding);
    reply.removeHeader('content-length');
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string' && !etag.startsWith('W/')) reply.header('etag', `W/${etag}`);
    return bytes;
  });
}

/** Whether a tRPC request asked for a streamed (JSON Lines) answer. */
function streamed(trpcAccept: string | string[] | undefined, accept: string | undefined): boolean {
  if (trpcAccept !== undefined) return String(trpcAccept) === 'application/jsonl';
  return accept?.split(',').some((t) => t.trim() === 'application/jsonl') ?? false;
}

/** Adds accept-encoding to the answer's Vary, once. */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) {
    reply.header('vary', 'accept-encoding');
    return;
  }
  const value = Array.isArray(vary) ? vary.join(', ') : String(vary);
  if (value.split(',').some((t) => ['accept-encoding', '*'].includes(t.trim().toLowerCase()))) return;
  reply.header('vary', `${value}, accept-encoding`);
}
