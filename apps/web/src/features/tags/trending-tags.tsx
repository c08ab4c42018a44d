/**
 * Trending tags (tags.trending: the tags the most distinct people used in the last 24 hours), as
 * a list of links to their pages with how many posts and people. Reusable: Search's empty state
 * shows it, and so can a side column. Renders nothing while loading, on error or when empty,
 * unless `showEmpty`.
 */
import { TRENDING_WINDOW_MS } from '@cubes/api/rules';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { cn } from '../../lib/cn';
import { useTrendingTagsQuery } from './queries';
import { TagLink } from './tag-link';

/** The window trending counts cover, in hours (24): TRENDING_WINDOW_LABEL's, in words of ours. */
const hours = TRENDING_WINDOW_MS / 3_600_000;

export function TrendingTags({ className, showEmpty = false }: { className?: string; showEmpty?: boolean }) {
  const headingId = useId();
  const { t } = useLingui();
  const trending = useTrendingTagsQuery();
  const tags = trending.data ?? [];
  const window = t({
    message: `in the last ${hours} h`,
    comment: 'After a tag\'s counts: "4 posts · 3 people in the last 24 h"',
  });
  if (tags.length === 0 && !showEmpty) return null;
  return (
    <section aria-labelledby={headingId} className={cn('grid gap-2', className)}>
      <h2 id={headingId} className="text-lg font-semibold">
        <Trans>Trending tags</Trans>
      </h2>
      {tags.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <Trans>No tags in the last {hours} h.</Trans>
        </p>
      ) : (
        <ol className="grid gap-1">
          {tags.map((tag) => (
            <li key={tag.tag}>
              {/* Counted in the window only: the tag page counts all time. */}
              <TagLink {...tag} window={window} className="px-2 py-1.5" />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
