/**
 * Search's answer to a `#tag` query: the tag itself, with its counts, linking to its page (the
 * posts below are the tag's newest). Nothing for other queries or a tag with no posts.
 */
import { isTag } from '@cubes/api/text-links';
import { Hash } from 'lucide-react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { countLabel } from './trending-tags';

/** The folded tag of a `#tag` query, or null. */
export function tagOfQuery(q: string): string | null {
  const m = /^#(\S+)$/u.exec(q.trim());
  const tag = m?.[1]?.normalize('NFKC').toLowerCase();
  return tag && isTag(tag) ? tag : null;
}

export function TagResult({ q }: { q: string }) {
  const tag = tagOfQuery(q);
  const summary = trpc.tags.summary.useQuery({ tag: tag ?? '' }, { enabled: tag !== null, retry: false });
  if (!tag || !summary.data || summary.data.postsCount === 0) return null;
  return (
    <section aria-label="Tags" className="space-y-3">
      <h3 className="text-sm font-semibold text-muted-foreground">Tags</h3>
      <Link
        to={`/tags/${encodeURIComponent(tag)}`}
        className="flex items-center gap-3 rounded-lg border bg-card p-3 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
      >
        <span
          aria-hidden="true"
          className="flex size-9 shrink-0 items-center justify-center rounded-md bg-accent text-accent-foreground"
        >
          <Hash className="size-4" />
        </span>
        <span className="grid min-w-0">
          <span className="user-text font-medium">#{tag}</span>
          <span className="text-xs text-muted-foreground">
            {countLabel(summary.data.postsCount, 'post', 'posts')} ·{' '}
            {countLabel(summary.data.peopleCount, 'person', 'people')}
          </span>
        </span>
      </Link>
    </section>
  );
}
