/**
 * Search's queries: the answer for a query, the suggestions shown before one is typed (the keys,
 * the hooks and the page's loader, routes/search.tsx).
 */
import { keepPreviousData } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';
import type { QueryUtils } from '../../routes/loader';
import { prefetchTagMatches } from '../tags/queries';

/** The answer for `q` as the URL has it (?q=); nothing is asked for a blank query. */
export function useSearchQuery(q: string) {
  return trpc.search.query.useQuery(
    { q },
    { enabled: q.trim() !== '', placeholderData: keepPreviousData, retry: false },
  );
}

/** What to look at before typing: asked only while the query is blank. */
export function useSearchSuggestionsQuery(enabled: boolean) {
  return trpc.search.suggestions.useQuery(undefined, { enabled, retry: false });
}

/** The search page's first data: the answer for ?q= and its tags, or the suggestions when there is none. */
export async function prefetchSearch(utils: QueryUtils, q: string): Promise<void> {
  if (q.trim() === '') await utils.search.suggestions.prefetch();
  else await Promise.all([utils.search.query.prefetch({ q }), prefetchTagMatches(utils, q)]);
}
