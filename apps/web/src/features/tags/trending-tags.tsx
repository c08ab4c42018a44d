/**
 * Trending tags (tags.trending: the tags the most distinct people used in the last 24 hours), as
 * a list of links to their pages with how many posts and people. Reusable: Search's empty state
 * shows it, and so can a side column. Renders nothing while loading, on error or when empty,
 * unless `showEmpty`.
 */
import { TRENDING_WINDOW_LABEL } from '@cubes/api/rules';
import { useId } from 'react';
import { cn } from '../../lib/cn';
import { useTrendingTagsQuery } from './queries';
import { TagLink } from './tag-link';

export function TrendingTags({ className, showEmpty = false }: { className?: string; showEmpty?: boolean }) {
  const headingId = useId();
  const trending = useTrendingTagsQuery();
  const tags = trending.data ?? [];
  if (tags.length === 0 && !showEmpty) return null;
  return (
    <section aria-labelledby={headingId} className={cn('grid gap-2', className)}>
      <h2 id={headingId} className="text-lg font-semibold">
        Trending tags
      </h2>
      {tags.length === 0 ? (
        <p className="text-sm text-muted-foreground">No tags {TRENDING_WINDOW_LABEL}.</p>
      ) : (
        <ol className="grid gap-1">
          {tags.map((t) => (
            <li key={t.tag}>
              {/* Counted in the window only: the tag page counts all time. */}
              <TagLink {...t} window={TRENDING_WINDOW_LABEL} className="px-2 py-1.5" />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
