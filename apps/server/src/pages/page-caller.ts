/**
 * The app's procedures called on the server for a page outside /api (the feeds, and the pages
 * rendered on the server), as the request's reader: a visitor, or the member whose session came
 * with it. The same rules, kept reads and errors as the app: a block hides a profile's feed
 * from the pair as it hides the profile. What a visitor is answered is the same for everyone and
 * may be kept by a shared cache; a member's answer is theirs (`pageCacheControl`).
 */
import { createCaller } from '@cubes/api';
import type { FastifyRequest } from 'fastify';
import { type ContextDeps, createHttpContext } from '../context.js';

export type PageCaller = ReturnType<typeof createCaller>;

export function pageCaller(deps: ContextDeps, req: FastifyRequest): PageCaller {
  return createCaller(createHttpContext(deps, req, null));
}

/** `publicly` for a visitor's answer; a member's is private and never stored. */
export function pageCacheControl(req: FastifyRequest, publicly: string): string {
  return req.session ? 'private, no-store' : publicly;
}
