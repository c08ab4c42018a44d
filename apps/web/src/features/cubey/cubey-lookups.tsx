/**
 * The look-ups a model's answer made with Cubey's tools, above the answer: what it did in words
 * ("Searched posts for 'pixel art'") and, folded under it, links to the posts, members and
 * gallery items and tags it used. Saved with the answer, so a reload shows the same.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Hash, Image, Search, TrendingUp, User } from 'lucide-react';
import { Link } from 'react-router-dom';
import { postPath } from '../posts/post-path';

type Lookup = RouterOutputs['cubey']['messages'][number]['lookups'][number];
type Source = Lookup['sources'][number];

const ICONS: Record<string, typeof Search> = {
  search_posts: Search,
  member_profile: User,
  trending_posts: TrendingUp,
  trending_tags: Hash,
  gallery_items: Image,
};

function href(source: Source): string {
  if (source.kind === 'post') return postPath(source.id);
  if (source.kind === 'member') return `/profile/${encodeURIComponent(source.username)}`;
  if (source.kind === 'tag') return `/tags/${encodeURIComponent(source.tag)}`;
  return '/gallery';
}

function sourceKey(source: Source): string {
  if (source.kind === 'tag') return source.tag;
  return source.kind === 'member' ? source.username : source.id;
}

function sourceText(source: Source): string {
  if (source.kind === 'member') return `${source.label} (@${source.username})`;
  if (source.kind === 'post') return `@${source.username}: ${source.label}`;
  return source.label;
}

export function CubeyLookups({ lookups }: { lookups: readonly Lookup[] }) {
  const { t } = useLingui();
  if (lookups.length === 0) return null;
  return (
    <ul aria-label={t`Look-ups Cubey made`} className="mb-2 grid gap-1">
      {lookups.map((lookup, index) => {
        const Icon = ICONS[lookup.tool] ?? Search;
        const count = lookup.sources.length;
        return (
          <li key={index} className="min-w-0 text-xs text-muted-foreground">
            <details className="group">
              <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded-sm outline-offset-2 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring">
                <Icon aria-hidden="true" className="size-3.5 shrink-0" />
                <span className="user-text min-w-0">{lookup.label}</span>
                <span className="shrink-0">
                  ·{' '}
                  {count === 0
                    ? t`nothing found`
                    : t`${plural(count, { one: '# source', other: '# sources' })}`}
                </span>
              </summary>
              {count > 0 ? (
                <ul className="mt-1 grid gap-0.5 border-s ps-3">
                  {lookup.sources.map((source) => (
                    <li key={`${source.kind}:${sourceKey(source)}`} className="min-w-0">
                      <Link
                        to={href(source)}
                        className="user-text text-primary underline-offset-2 hover:underline"
                      >
                        {sourceText(source)}
                      </Link>
                    </li>
                  ))}
                </ul>
              ) : null}
            </details>
          </li>
        );
      })}
    </ul>
  );
}
