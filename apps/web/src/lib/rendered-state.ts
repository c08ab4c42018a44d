/**
 * What a page rendered on the server (entry-server.tsx) hands the browser's first render
 * (main.tsx): the query cache it was rendered from, dehydrated, and the time it was rendered
 * (relative times hydrate as the server wrote them). Written by the server into a
 * `<script type="application/json">` with this id, as superjson (dates stay dates), every `<`
 * escaped and under the page's nonce.
 */
import type { DehydratedState } from '@tanstack/react-query';

export const RENDERED_STATE_ID = 'cubes-rendered-state';

export interface RenderedState {
  /** The path and query it was rendered for (a page with another's HTML is rendered afresh). */
  url: string;
  queries: DehydratedState;
  renderedAt: number;
  /** Rendered for a member: the shell, with no data (a member's device expects them back). */
  member: boolean;
}
