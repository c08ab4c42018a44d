/**
 * Suggestions' queries: the members to follow, kept a minute (they change slowly), not retried
 * (the side column simply leaves them out).
 */
import { trpc } from '../../lib/trpc';

export function useSuggestionsQuery(limit: number) {
  return trpc.users.suggestions.useQuery({ limit }, { staleTime: 60_000, retry: false });
}
