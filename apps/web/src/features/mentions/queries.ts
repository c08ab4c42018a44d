/**
 * The mention list's query: the members whose username starts with what follows the `@`, the ones
 * the writer follows first (mentions.suggest), kept 30 s.
 */
import { trpc } from '../../lib/trpc';

/** Members for `@q`; asked only while `enabled`, the previous answer kept while the next loads. */
export function useMentionSuggestionsQuery(q: string, enabled: boolean) {
  return trpc.mentions.suggest.useQuery(
    { q },
    { enabled, staleTime: 30_000, placeholderData: (previous) => previous },
  );
}
