/**
 * The right-hand column of wide screens (1024 px and up) on Home, Search and profiles: Who to
 * follow and Trending tags. Below 1024 px it is not drawn; Search shows its content in
 * "Suggested for you" instead (`NarrowSideColumn`). The page's own content keeps its place in
 * the tree either way, so crossing the width never remounts it.
 */
import { useLingui } from '@lingui/react/macro';
import { lazy, type ReactNode, Suspense } from 'react';
import { useMediaQuery } from '../../lib/use-media-query';

// Loaded when first drawn (side-column-content.tsx), not with the first page.
const LazySideColumnContent = lazy(() => import('./side-column-content'));

/** Tailwind's `lg`: where the column appears. */
export const SIDE_COLUMN_QUERY = '(min-width: 1024px)';

/** What the column holds, wide or (in Search) narrow. */
export function SideColumnContent() {
  return (
    <Suspense fallback={null}>
      <LazySideColumnContent />
    </Suspense>
  );
}

export function SideColumn() {
  const { t } = useLingui();
  return (
    <aside aria-label={t`Suggestions`} className="sticky top-20 self-start">
      <SideColumnContent />
    </aside>
  );
}

/** A page with the side column beside it on wide screens. */
export function WithSideColumn({ children }: { children: ReactNode }) {
  const wide = useMediaQuery(SIDE_COLUMN_QUERY);
  return (
    <div className="lg:grid lg:grid-cols-[minmax(0,1fr)_18rem] lg:items-start lg:gap-8 xl:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0">{children}</div>
      {wide ? <SideColumn /> : null}
    </div>
  );
}

/** The column's content where the column is not drawn (Search's "Suggested for you"). */
export function NarrowSideColumn() {
  const wide = useMediaQuery(SIDE_COLUMN_QUERY);
  return wide ? null : <SideColumnContent />;
}
