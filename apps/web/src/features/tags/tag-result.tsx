/**
 * Search's tags (tags.search): the tags starting with the query, `#` or not, most people first,
 * each a link to its page with how many posts and people. Asked only when the query could start
 * a tag; nothing is shown when no tag matches.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { tagPrefixOf } from '@cubes/api/text-links';
import { keepPreviousData } from '@tanstack/react-query';
import { Hash } from 'lucide-react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { countLabel } from './trending-tags';

export type TagMatch = RouterOutputs['tags']['search'][number];

/** The tags matching `q`: [] while none are known, or when `q` could start no tag. */
export function useTagMatches(q: string): TagMatch[] {
  const prefix = tagPrefixOf(q);
  const found = trpc.tags.search.useQuery(
    { q: prefix ?? '' },
    { enabled: prefix !== null, placeholderData: keepPreviousData, retry: false, staleTime: 30_000 },
  );
  return prefix === null ? [] : (found.data ?? []);
}

/** The found tags as a list of links; the part of each name the query matched is marked. */
export function TagMatches({ tags, q }: { tags: TagMatch[]; q: string }) {
  const prefix = tagPrefixOf(q) ?? '';
  return (
    <ul className="grid gap-2 sm:grid-cols-2">
      {tags.map((t) => (
        <li key={t.tag}>
          <Link
            to={`/tags/${encodeURIComponent(t.tag)}`}
            className="flex items-center gap-3 rounded-lg border bg-card p-3 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
          >
            <span
              aria-hidden="true"
              className="flex size-9 shrink-0 items-center justify-center rounded-md bg-accent text-accent-foreground"
            >
              <Hash className="size-4" />
            </span>
            <span className="grid min-w-0">
              <span className="user-text truncate font-medium">
                #
                {t.tag.startsWith(prefix) && prefix ? (
                  <>
                    <mark className="rounded-sm bg-primary/20 text-inherit dark:bg-primary/35">{prefix}</mark>
                    {t.tag.slice(prefix.length)}
                  </>
                ) : (
                  t.tag
                )}
                <span className="sr-only">, </span>
              </span>
              <span className="text-xs text-muted-foreground">
                {countLabel(t.postsCount, 'post', 'posts')} · {countLabel(t.peopleCount, 'person', 'people')}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
