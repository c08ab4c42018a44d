/**
 * The Gallery page: stat tiles, a text filter on item type, a type selector, and a masonry grid
 * laid out from the stored image sizes (nothing shifts while lazy images load) that pages on
 * the cursor as the reader scrolls. Each item has a favourite heart with its count; a click on
 * an image opens a lightbox (arrow keys move, Escape closes and the page is where it was).
 * Polled every 30 s. An item's card: gallery-card.tsx; the lightbox: gallery-lightbox.tsx.
 */

import { galleryCount, galleryTypes } from '@cubes/api/rules';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { DrawnAfterMount } from '../../components/drawn-after-mount';
import { ListFailed, ListLoading } from '../../components/list-state';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { useHydrated } from '../../lib/server-rendered';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useMediaQuery } from '../../lib/use-media-query';
import { GalleryCard } from './gallery-card';
import { masonryColumns } from './masonry';
import { type GalleryItem, useFavoriteMutation, useGalleryQuery } from './queries';

// The lightbox (Radix's dialog and focus scope with it, about 10 KB Brotli) loads when an item is
// first opened: the gallery paints and starts without it (bench/README.md, "Dialogs on demand").
const GalleryLightbox = lazy(() =>
  import('./gallery-lightbox').then((m) => ({ default: m.GalleryLightbox })),
);

const TYPE_CHOICES = [
  { value: 'all', label: msg`All Types` },
  { value: 'art', label: msg`Art` },
  { value: 'music', label: msg`Music` },
  { value: 'fun', label: msg`Fun` },
  { value: 'video', label: msg`Video` },
] as const;
type TypeChoice = (typeof TYPE_CHOICES)[number]['value'];

/** The grid for each width, shown by CSS, for a page the server rendered (GalleryView). */
const BY_WIDTH = [
  { columns: 2, className: 'sm:hidden' },
  { columns: 3, className: 'hidden sm:block lg:hidden' },
  { columns: 4, className: 'hidden lg:block' },
];

/** 2 columns on phones, 3 on tablets, 4 on wide screens; 3 until `hydrated`, as on the server. */
function useColumnCount(hydrated: boolean): number {
  const wide = useMediaQuery('(min-width: 1024px)', false, hydrated);
  const tablet = useMediaQuery('(min-width: 640px)', true, hydrated);
  return wide ? 4 : tablet ? 3 : 2;
}
function StatTile({
  label,
  value,
  className,
}: {
  label: string;
  value: number | undefined;
  className?: string;
}) {
  const { i18n } = useLingui();
  return (
    <Card className={cn('p-4', className)}>
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums">{value === undefined ? '–' : i18n.number(value)}</p>
    </Card>
  );
}

const FILTER_DEBOUNCE_MS = 250;

/** The masonry columns, and what loads the next page: when its end scrolls near, or on Load more. */
function GalleryGrid({
  items,
  layout,
  onOpen,
  onToggle,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  stale,
}: {
  items: GalleryItem[];
  /** each column's item indexes (masonry.ts) */
  layout: number[][];
  onOpen: (index: number, opener: HTMLElement) => void;
  onToggle: (item: GalleryItem) => void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
  /** The previous choice's items, shown while the new choice's answer is on its way. */
  stale: boolean;
}) {
  const { t } = useLingui();
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '800px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <>
      <ul
        aria-label={t`Gallery items`}
        aria-busy={stale || undefined}
        className={cn('flex items-start gap-3 transition-opacity', stale && 'opacity-60')}
      >
        {layout.map((column, c) => (
          // Columns are positions, not data: their index is their identity.
          <li key={c} className="flex min-w-0 flex-1 flex-col gap-3">
            {column.map((index, row) => {
              const item = items[index]!;
              return (
                <GalleryCard
                  key={item.id}
                  item={item}
                  first={row === 0}
                  onOpen={(button) => onOpen(index, button)}
                  onToggle={onToggle}
                />
              );
            })}
          </li>
        ))}
      </ul>
      <div ref={sentinel} aria-hidden="true" />
      {hasNextPage && (
        <div className="flex justify-center">
          <Button variant="outline" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? <Spinner /> : null}
            <Trans>Load more</Trans>
          </Button>
        </div>
      )}
    </>
  );
}

export function GalleryView() {
  const { i18n, t } = useLingui();
  const [type, setType] = useState<TypeChoice>('all');
  const [filter, setFilter] = useState('');
  // The filter is the server's (it pages through the whole gallery), asked once typing pauses;
  // the grid keeps the previous answer meanwhile.
  const q = useDebouncedValue(filter.trim(), FILTER_DEBOUNCE_MS);
  const gallery = useGalleryQuery(type, q);
  const { toggle } = useFavoriteMutation();
  // The server knows no screen's width: a page it rendered holds the grid for each (one shown by
  // CSS at the breakpoints useColumnCount reads) until hydrated, so nothing moves when the one for
  // this screen takes over. Until then the columns are the server's too: a different count while
  // hydrating made React render the page again at once, hydrating all three grids in one task.
  const hydrated = useHydrated();
  const columns = useColumnCount(hydrated);
  const [open, setOpen] = useState<number | null>(null);
  const opener = useRef<HTMLElement | null>(null);

  const stats = gallery.data?.pages[0]?.stats;
  const items = useMemo(() => {
    const seen = new Set<string>();
    return (gallery.data?.pages ?? [])
      .flatMap((p) => p.items)
      .filter((i) => !seen.has(i.id) && seen.add(i.id));
  }, [gallery.data]);
  const layout = useMemo(() => masonryColumns(items, columns), [items, columns]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = gallery;

  return (
    <div className="space-y-5">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        <StatTile label={t`Total Media`} value={stats?.total} className="col-span-2 sm:col-span-1" />
        <StatTile label={t`Art`} value={stats?.art} />
        <StatTile label={t`Music`} value={stats?.music} />
        <StatTile label={t`Fun`} value={stats?.fun} />
        <StatTile label={t`Video`} value={stats?.video} />
      </div>

      <div className="flex flex-col gap-3 sm:flex-row">
        <Input
          type="search"
          aria-label={t`Filter by type`}
          placeholder={t`Filter by type...`}
          value={filter}
          maxLength={50}
          onChange={(e) => setFilter(e.target.value)}
          className="sm:flex-1"
        />
        <select
          aria-label={t`Type`}
          // On a page the server rendered, a choice made before the app has hydrated would be
          // undone by it: the type waits for it (the filter box, an Input, does so itself).
          disabled={!hydrated}
          value={type}
          onChange={(e) => {
            setType(e.target.value as TypeChoice);
            setOpen(null);
          }}
          className="h-10 rounded-md border bg-background px-3 text-sm shadow-sm focus-visible:outline-2 focus-visible:outline-ring sm:w-44"
        >
          {TYPE_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {i18n._(choice.label)}
            </option>
          ))}
        </select>
      </div>

      {gallery.isPending ? (
        <ListLoading>
          <Trans>Loading gallery...</Trans>
        </ListLoading>
      ) : gallery.isError ? (
        <ListFailed onRetry={() => void gallery.refetch()}>
          <Trans>Could not load the gallery.</Trans>
        </ListFailed>
      ) : items.length === 0 ? (
        <Card className="px-6 py-12 text-center text-sm text-muted-foreground">
          <Trans>No items found</Trans>
        </Card>
      ) : (
        // Drawn in a background render, not in the query store's update that brought the answer
        // (use-drawn-after-mount.ts).
        <DrawnAfterMount
          fallback={
            <ListLoading>
              <Trans>Loading gallery...</Trans>
            </ListLoading>
          }
        >
          {(hydrated ? [{ columns, className: undefined }] : BY_WIDTH).map((variant) => (
            <div key={variant.columns} className={variant.className}>
              {/* A boundary each: hydrating the page does not hydrate the three grids in one task.
                  The first render after hydration keeps this screen's grid only, so the other two
                  are dropped as the server sent them, never hydrated (bench/README, #48). */}
              <Suspense fallback={null}>
                <GalleryGrid
                  items={items}
                  layout={variant.className ? masonryColumns(items, variant.columns) : layout}
                  onOpen={(index, button) => {
                    opener.current = button;
                    setOpen(index);
                  }}
                  onToggle={toggle}
                  hasNextPage={hasNextPage}
                  isFetchingNextPage={isFetchingNextPage}
                  fetchNextPage={fetchNextPage}
                  stale={gallery.isPlaceholderData}
                />
              </Suspense>
            </div>
          ))}
        </DrawnAfterMount>
      )}
      {open !== null ? (
        <Suspense fallback={null}>
          <GalleryLightbox
            items={items}
            total={stats ? galleryCount(stats, galleryTypes({ type, q })) : items.length}
            hasNextPage={hasNextPage}
            fetchNextPage={fetchNextPage}
            index={open}
            onIndex={setOpen}
            onClose={() => setOpen(null)}
            onToggle={toggle}
            returnFocus={() => opener.current}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
