/**
 * Trending tags (tags.trending: the tags the most distinct people used in the last 24 hours), as
 * a list of links to their pages with how many people and posts. Reusable: Search's empty state
 * shows it, and so can a side column. Renders nothing while loading, on error or when empty,
 * unless `showEmpty`.
 */
import { Hash } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { cn } from '../../lib/cn';
import { trpc } from '../../lib/trpc';

/** "1 person" / "3 people"; "1 post" / "4 posts". */
export function countLabel(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

export function TrendingTags({ className, showEmpty = false }: { className?: string; showEmpty?: boolean }) {
  const headingId = useId();
  const trending = trpc.tags.trending.useQuery(undefined, { staleTime: 30_000, retry: false });
  const tags = trending.data ?? [];
  if (tags.length === 0 && !showEmpty) return null;
  return (
    <section aria-labelledby={headingId} className={cn('grid gap-2', className)}>
      <h2 id={headingId} className="text-lg font-semibold">
        Trending tags
      </h2>
      {tags.length === 0 ? (
        <p className="text-sm text-muted-foreground">No tags in the last 24 hours.</p>
      ) : (
        <ol className="grid gap-1">
          {tags.map((t) => (
            <li key={t.tag}>
              <Link
                to={`/tags/${encodeURIComponent(t.tag)}`}
                className="flex items-center gap-3 rounded-md px-2 py-1.5 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
              >
                <span
                  aria-hidden="true"
                  className="flex size-8 shrink-0 items-center justify-center rounded-md bg-accent text-accent-foreground"
                >
                  <Hash className="size-4" />
                </span>
                <span className="grid min-w-0">
                  <span className="user-text font-medium">
                    #{t.tag}
                    <span className="sr-only">, </span>
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {countLabel(t.peopleCount, 'person', 'people')} ·{' '}
                    {countLabel(t.postsCount, 'post', 'posts')}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
