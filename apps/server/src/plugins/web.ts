/**
 * Production: the built web app on the same port. Hashed assets are cached for a year;
 * index.html is always revalidated and answers every client route.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export async function registerWeb(app: FastifyInstance, dist: string): Promise<boolean> {
  if (!existsSync(path.join(dist, 'index.html'))) {
    app.log.warn(`no built web app in ${dist}; serving the API only (run: pnpm build)`);
    return false;
  }
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    setHeaders: (res, file) => {
      const immutable =
        file.includes(`${path.sep}assets${path.sep}`) || file.includes(`${path.sep}fonts${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return true;
}

export function sendIndex(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  void req;
  return reply.header('cache-control', 'no-cache').sendFile('index.html');
}
