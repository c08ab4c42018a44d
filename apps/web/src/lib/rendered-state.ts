/**
 * What a page rendered on the server (entry-server.tsx) hands the browser's first render
 * (main.tsx): the query cache it was rendered from, dehydrated, and the time it was rendered
 * (relative times hydrate as the server wrote them). Written by the server into a
 * `<script type="application/json">` with this id, as superjson (dates stay dates), every `<`
 * escaped and under the page's nonce.
 */
import type { DehydratedState } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import type { AnyTRPCRouter } from '@trpc/server';
import SuperJSON from 'superjson';

export const RENDERED_STATE_ID = 'cubes-rendered-state';

export interface RenderedState {
  /** The path and query it was rendered for (a page with another's HTML is rendered afresh). */
  url: string;
  queries: DehydratedState;
  renderedAt: number;
  /** The shell alone, with no data (a member's page other than home and Chat: lib/server-rendered.tsx). */
  shell: boolean;
  /** The lazy parts the page drew, loaded before it hydrates (lib/lazy-part.ts). */
  parts: string[];
}

/**
 * superjson, and a request's error as the server's render met it (a post that is gone is a
 * NOT_FOUND the page shows as such): the browser gets it back as the same TRPCClientError, with its
 * code, so it hydrates the same state.
 */
export const renderedJson = new SuperJSON();
renderedJson.registerCustom<TRPCClientError<AnyTRPCRouter>, { message: string; shape: string }>(
  {
    isApplicable: (value): value is TRPCClientError<AnyTRPCRouter> => value instanceof TRPCClientError,
    serialize: (error) => ({ message: error.message, shape: JSON.stringify(error.shape ?? null) }),
    deserialize: ({ message, shape }) =>
      new TRPCClientError(message, { result: { error: JSON.parse(shape) } } as ConstructorParameters<
        typeof TRPCClientError
      >[1]),
  },
  'TRPCClientError',
);
