/**
 * The post a post quotes, embedded in its card: author, time, text (cut at 300 characters by the
 * server) and its first image's thumbnail, the whole card a link to the quoted post's page. When
 * the quoted post is deleted or hidden from the viewer, it says so instead.
 */
import { Link } from 'react-router-dom';
import { RelativeTime } from '../../components/relative-time';
import { UserAvatar } from '../../components/user-avatar';
import type { Post } from '../posts/post-cache';
import { postPath } from '../posts/post-path';

type Quote = NonNullable<Post['quote']>;

export function QuoteCard({ quote }: { quote: Quote | null }) {
  if (!quote) {
    return (
      <p className="rounded-lg border border-dashed px-4 py-3 text-sm text-muted-foreground">
        This post is unavailable
      </p>
    );
  }
  return (
    <Link
      to={postPath(quote.id)}
      className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2 rounded-lg border px-4 py-3 transition-colors hover:bg-accent/50 focus-visible:outline-2 focus-visible:outline-ring"
    >
      {/* Spaces between the parts: an accessible name joins their texts as they are. */}
      <span className="sr-only">Quoted post by</span>{' '}
      <span className="flex min-w-0 items-center gap-2 text-sm">
        <UserAvatar
          user={{
            username: quote.username,
            displayName: quote.userDisplayName,
            avatarUrl: quote.userAvatarUrl,
          }}
          size={20}
          decorative
        />
        <span className="min-w-0 truncate font-semibold">{quote.userDisplayName}</span>{' '}
        <span className="hidden min-w-0 truncate text-muted-foreground sm:inline">@{quote.username}</span>{' '}
        <span aria-hidden="true" className="text-muted-foreground">
          ·
        </span>
        <RelativeTime date={quote.createdAt} className="shrink-0 text-muted-foreground" />
      </span>{' '}
      <span className="user-text text-sm leading-relaxed">{quote.content}</span>
      {quote.imageUrl ? (
        <img
          src={quote.imageUrl}
          alt=""
          loading="lazy"
          className="max-h-48 w-full rounded-md border object-cover"
        />
      ) : null}
    </Link>
  );
}
