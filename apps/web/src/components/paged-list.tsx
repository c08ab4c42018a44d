/**
 * A list paged with "Show more" inside a dialog or a card (a profile's Followers and Following,
 * Settings' Blocked and Muted users), from a tRPC infinite query whose pages have `items`:
 * loading (announced as a status), failed (with Retry), empty, then the rows and, while the
 * server has more, Show more. `align="center"` for a dialog, `start` (the default) in a card.
 * Lists of cards (feeds, the gallery) use list-state.tsx instead.
 */
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { Button } from './ui/button';
import { Spinner } from './ui/spinner';

/** What PagedList reads of an infinite query's result. */
export interface PagedQuery<T> {
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
  data?: { pages: ReadonlyArray<{ items: readonly T[] }> };
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

export function PagedList<T>({
  query,
  loading,
  empty,
  label,
  listClassName,
  align = 'start',
  renderItem,
}: {
  query: PagedQuery<T>;
  /** "Loading followers...". */
  loading: ReactNode;
  empty: ReactNode;
  /** The list's accessible name, if it needs one beside its heading. */
  label?: string;
  listClassName?: string;
  align?: 'start' | 'center';
  /** One row: an `<li>` with its key. */
  renderItem: (item: T) => ReactNode;
}) {
  const center = align === 'center';
  const state = cn('flex items-center text-sm', center && 'justify-center py-10 text-center');
  if (query.isPending) {
    return (
      <p role="status" className={cn(state, 'gap-2 text-muted-foreground')}>
        <Spinner /> {loading}
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className={cn(state, 'gap-3', center ? 'flex-col' : 'flex-wrap')}>
        <p className="text-muted-foreground">
          <Trans>Could not load this list.</Trans>
        </p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          <Trans>Retry</Trans>
        </Button>
      </div>
    );
  }
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  if (items.length === 0) return <>{empty}</>;
  return (
    <>
      <ul aria-label={label} className={cn('divide-y', listClassName)}>
        {items.map(renderItem)}
      </ul>
      {query.hasNextPage ? (
        <div className={cn('flex pt-3', center && 'justify-center')}>
          <Button
            variant="outline"
            size="sm"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {query.isFetchingNextPage ? <Spinner /> : null}
            <Trans>Show more</Trans>
          </Button>
        </div>
      ) : null}
    </>
  );
}
