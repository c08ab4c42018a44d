/**
 * The WebSocket endpoint for tRPC subscriptions (and any call a client sends over it).
 *
 * - Upgrade: refused (403, in the error contract) when the page's Origin is not the app's own;
 *   the session is read from the cookie by the session hook, as for any request.
 * - Context: one per connection, from the upgrade request (createWsContext).
 * - Sessions: a socket lives only as long as its session. When the bus says sessions ended
 *   (logout, password change, reset, on any instance) the matching sockets close at once, and
 *   every SESSION_RECHECK_MS each socket's session is looked up again (expiry, missed events).
 * - Rate limits: every message counts against the "anything else" row like an HTTP request, once
 *   per call it holds (a message may be an array of calls, tRPC's batch); a socket over it is
 *   closed (the client reconnects after its back-off). A message of more than
 *   MAX_SOCKET_MESSAGE_CALLS calls runs none of them (they still count): each gets a BAD_REQUEST
 *   error. Messages reach tRPC only once they
 *   passed, in the order they came. Named buckets apply inside procedures as over HTTP.
 * - Shutdown: every socket closes with CLOSE_SERVICE_RESTART, which the web app answers by
 *   reconnecting at once (to another instance, behind a proxy).
 */
import type { IncomingMessage } from 'node:http';
import {
  appRouter,
  badRequest,
  type EndedSessions,
  MAX_SUBSCRIPTIONS_PER_SOCKET,
  resolveSession,
  SESSION_COOKIE,
  sessionEnded,
} from '@cubes/api';
import { ERROR_REASONS } from '@cubes/api/error-reasons';
import type { TRPCError } from '@trpc/server';
import { getWSConnectionHandler } from '@trpc/server/adapters/ws';
import { getErrorShape, transformTRPCResponse } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { type ContextDeps, createWsContext } from '../context.js';
import { sendError } from '../errors.js';
import { openSockets } from '../metrics/metrics.registry.js';
import type { RateLimits } from './rate-limit.js';
import { originAllowed } from './security.js';
import { SOCKET_PATH } from './session.js';

export const SESSION_RECHECK_MS = 60_000;

/**
 * The most calls one socket message may hold. Higher than an HTTP batch's MAX_BATCH_CALLS: tRPC's
 * wsLink sends whatever was queued in one tick as one message, and a reconnect resends every
 * live subscription at once, so the cap follows the subscriptions a socket may hold. Each call
 * still counts against the limits on its own, so a large message multiplies nothing.
 */
export const MAX_SOCKET_MESSAGE_CALLS = MAX_SUBSCRIPTIONS_PER_SOCKET;
export const SOCKET_MESSAGE_TOO_LARGE = ERROR_REASONS.SOCKET_MESSAGE_TOO_LARGE;
export const KEEP_ALIVE = { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 } as const;

/** Close codes the web client understands (4000-4999 are the application's). */
export const CLOSE_SESSION_ENDED = 4401;
export const CLOSE_RATE_LIMITED = 4429;
/**
 * The server is shutting down (SIGTERM): WebSocket's own 1012 "Service Restart". The web client
 * reconnects at once, without back-off, and reaches whichever instance the proxy picks.
 */
export const CLOSE_SERVICE_RESTART = 1012;

/**
 * @fastify/websocket's preClose (app.close() runs it before the HTTP server stops): every socket
 * is told CLOSE_SERVICE_RESTART, and the close completes once they have all closed.
 */
export function closeSocketsForRestart(this: FastifyInstance, done: () => void): void {
  const wss = this.websocketServer;
  for (const client of wss.clients) client.close(CLOSE_SERVICE_RESTART, 'Service restart');
  wss.close(() => done());
}

interface OpenSocket {
  upgrade: FastifyRequest;
  token: string | undefined;
}

export interface SocketOptions {
  allowedOrigins: readonly string[];
  general: RateLimits['general'];
  recheckMs?: number;
}

export function registerSocket(app: FastifyInstance, deps: ContextDeps, options: SocketOptions): void {
  const allowed = new Set(options.allowedOrigins);
  const open = new Map<WebSocket, OpenSocket>();
  const upgrades = new WeakMap<IncomingMessage, FastifyRequest>();

  const onConnection = getWSConnectionHandler({
    router: appRouter,
    wss: app.websocketServer,
    keepAlive: KEEP_ALIVE,
    createContext: ({ req }) => {
      const upgrade = upgrades.get(req);
      if (!upgrade) throw new Error('socket without its upgrade request');
      return createWsContext(deps, upgrade);
    },
    onError: ({ error, req }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        (upgrades.get(req)?.log ?? app.log).error({ err: error.cause ?? error }, 'procedure failed');
    },
  });

  app.route({
    method: 'GET',
    url: SOCKET_PATH,
    onRequest: (req, reply, done) => {
      if (originAllowed(req, allowed)) return done();
      sendError(reply, 403, { message: ERROR_REASONS.CROSS_ORIGIN_REFUSED, code: 'FORBIDDEN' });
    },
    // A plain GET (no upgrade) gets told what the address is for.
    handler: (_req, reply) =>
      sendError(reply, 400, {
        message: ERROR_REASONS.WEBSOCKET_ONLY,
        code: 'BAD_REQUEST',
      }),
    wsHandler: (socket, req) => {
      upgrades.set(req.raw, req);
      open.set(socket, { upgrade: req, token: req.cookies[SESSION_COOKIE] });
      openSockets.inc();
      socket.on('close', () => {
        open.delete(socket);
        openSockets.dec();
      });
      gateMessages(socket, req, options.general, () => onConnection(socket, req.raw));
    },
  });

  const closeEnded = (which: EndedSessions) => {
    for (const [socket, { upgrade }] of open) {
      const session = upgrade.session;
      if (session && sessionEnded({ id: session.id, userId: session.user.id }, which)) {
        socket.close(CLOSE_SESSION_ENDED, 'Session ended');
      }
    }
  };
  const stopListening = deps.bus.on('sessions', (event) => closeEnded(event.payload));

  // The safety net: a session that expired, or whose end this instance did not hear about.
  const recheck = setInterval(() => {
    const now = new Date();
    for (const [socket, { upgrade, token }] of open) {
      if (!upgrade.session) continue;
      resolveSession(deps.orm.em, token, now).then(
        (session) => {
          if (session?.id !== upgrade.session?.id) socket.close(CLOSE_SESSION_ENDED, 'Session ended');
        },
        (error: unknown) => upgrade.log.error({ err: error }, 'socket session check failed'),
      );
    }
  }, options.recheckMs ?? SESSION_RECHECK_MS);
  recheck.unref();

  app.addHook('onClose', async () => {
    clearInterval(recheck);
    stopListening();
    // Normally closed already by closeSocketsForRestart; a socket left here closes the same way.
    for (const socket of open.keys()) socket.close(CLOSE_SERVICE_RESTART, 'Service restart');
  });
}

/** The calls of one socket message: its ids when it is an array of calls, or null for one message. */
function batchIds(data: RawData, isBinary: boolean): unknown[] | null {
  if (isBinary) return null;
  const text = data.toString();
  if (!text.trimStart().startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed)
      ? parsed.map((call) =>
          call !== null && typeof call === 'object' ? (call as { id?: unknown }).id : null,
        )
      : null;
  } catch {
    return null; // tRPC answers a message that is not JSON itself
  }
}

/** tRPC's error answer (as the socket sends it) to the call `id`. */
function errorAnswer(id: unknown, error: TRPCError): string {
  const config = appRouter._def._config;
  const shape = getErrorShape({
    config,
    error,
    type: 'unknown',
    path: undefined,
    input: undefined,
    ctx: undefined,
  });
  const usable = typeof id === 'string' || typeof id === 'number' ? id : null;
  return JSON.stringify(transformTRPCResponse(config, { id: usable, error: shape }));
}

/**
 * Puts the socket's limits in front of tRPC: `connect` (tRPC's connection handler) adds its
 * message listeners, which are kept aside and called with a message only once it has passed: at
 * most MAX_SOCKET_MESSAGE_CALLS calls, and within the "anything else" row, counted once per call.
 */
function gateMessages(
  socket: WebSocket,
  req: FastifyRequest,
  general: RateLimits['general'],
  connect: () => void,
): void {
  type Listener = (data: RawData, isBinary: boolean) => void;
  type On = (this: WebSocket, event: string | symbol, listener: Listener) => WebSocket;
  const listeners: Listener[] = [];
  const emitter = socket as unknown as { on: On };
  const on = emitter.on;
  emitter.on = function (event, listener) {
    if (event !== 'message') return on.call(this, event, listener);
    listeners.push(listener);
    return this;
  };
  try {
    connect();
  } finally {
    emitter.on = on;
  }

  let queue = Promise.resolve();
  on.call(socket, 'message', (data: RawData, isBinary: boolean) => {
    const ids = batchIds(data, isBinary);
    queue = queue
      .then(async () => {
        if (socket.readyState !== socket.OPEN) return;
        // Every call counts, also those of a message refused as too large: each gets an answer.
        const result = await general(req, ids?.length || 1);
        if (!result.allowed) return socket.close(CLOSE_RATE_LIMITED, 'Too many requests');
        if (ids && ids.length > MAX_SOCKET_MESSAGE_CALLS) {
          const error = badRequest(SOCKET_MESSAGE_TOO_LARGE);
          for (const id of ids) socket.send(errorAnswer(id, error));
          return;
        }
        for (const listener of listeners) listener(data, isBinary);
      })
      .catch((error: unknown) => req.log.error({ err: error }, 'socket message failed'));
  });
}
