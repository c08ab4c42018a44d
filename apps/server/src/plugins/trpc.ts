import { type AppRouter, appRouter, RateLimitedError } from '@cubes/api';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type ContextDeps, createHttpContext } from '../context.js';
import { MAX_BATCH_CALLS } from './rate-limit.js';

export async function registerTrpc(app: FastifyInstance, deps: ContextDeps): Promise<void> {
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    // The WebSocket side is plugins/socket.ts: it checks the upgrade's Origin and ends sockets
    // whose session ends, which the adapter's own useWSS cannot.
    trpcOptions: {
      router: appRouter,
      // The rate-limit hook refuses larger batches first, in the error contract's shape; this is
      // tRPC's own count of the same thing, should the two ever read a URL differently.
      maxBatchSize: MAX_BATCH_CALLS,
      createContext: ({ req, res }) =>
        createHttpContext(deps, req, 'setCookie' in res ? (res as FastifyReply) : null),
      onError: ({ error, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          req.log.error({ err: error.cause ?? error }, 'procedure failed');
      },
      responseMeta: ({ errors }) => {
        const limited = errors.find((e) => e.cause instanceof RateLimitedError)?.cause as
          | RateLimitedError
          | undefined;
        return limited ? { headers: { 'retry-after': String(limited.retryAfterSeconds) } } : {};
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });
}
