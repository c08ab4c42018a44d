/**
 * A tag as every list of tags draws it (Search's Tags, Trending tags): a link to its page with
 * the tag icon, the name and its counts, and the tag page's header shows the same icon and counts.
 */
import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Hash } from 'lucide-react';
import { Link } from 'react-router-dom';
import { TagName } from '../../components/handle';
import { cn } from '../../lib/cn';

/** "12 posts · 3 people": a tag's counts, worded the same wherever they show. */
export function tagCounts(
  { postsCount, peopleCount }: { postsCount: number; peopleCount: number },
  i18n: I18n,
): string {
  // The caller's i18n (useLingui): on the server, the page's language.
  const posts = i18n._(msg`${plural(postsCount, { one: '# post', other: '# posts' })}`);
  const people = i18n._(msg`${plural(peopleCount, { one: '# person', other: '# people' })}`);
  return `${posts} · ${people}`;
}

/** The tag icon in its tile; decorative (the name beside it says what it is). */
export function TagIcon({ className, iconClassName }: { className?: string; iconClassName?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-md bg-accent text-accent-foreground',
        className,
      )}
    >
      <Hash className={cn('size-4', iconClassName)} />
    </span>
  );
}

interface TagLinkProps {
  tag: string;
  postsCount: number;
  peopleCount: number;
  /** the start of the name a search matched, marked */
  matched?: string;
  /** the link's frame: a card in Search, a plain row in Trending tags */
  className?: string;
  /** what the counts cover, when not all time: Trending's "in the last 24 h" */
  window?: string;
}

/**
 * A link to a tag's page. Its name reads "#tag, 12 posts · 3 people" (all time, as the tag page
 * counts), or with `window` "#tag, 4 posts · 3 people in the last 24 h" (Trending).
 */
export function TagLink({ tag, postsCount, peopleCount, matched, className, window }: TagLinkProps) {
  const { i18n } = useLingui();
  const marked = matched && tag.startsWith(matched) ? matched : '';
  return (
    <Link
      to={`/tags/${encodeURIComponent(tag)}`}
      className={cn(
        'flex items-center gap-3 rounded-md hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring',
        className,
      )}
    >
      <TagIcon />
      <span className="grid min-w-0">
        <span className="user-text font-medium">
          <TagName>
            {marked ? (
              <>
                <mark className="rounded-sm bg-primary/20 text-inherit dark:bg-primary/35">{marked}</mark>
                {tag.slice(marked.length)}
              </>
            ) : (
              tag
            )}
          </TagName>
          <span className="sr-only">, </span>
        </span>
        <span className="text-xs text-muted-foreground">
          {tagCounts({ postsCount, peopleCount }, i18n)}
          {window ? ` ${window}` : ''}
        </span>
      </span>
    </Link>
  );
}
